import { memoize } from "../runtime/cache.server";
import { getEnv } from "../runtime/env.server";
import { getDatabase } from "../db/database.server";
import { currentWalls } from "./configured.server";
import { fetchWithinDeadline, servedForMs } from "../earning/provider-offers.server";
import type { WallOffer, WallOffersApi } from "./network.server";
import type { ConfiguredWall } from "./registry.server";

// The offer walls' catalogues (docs/offer-walls.md, "Offers in Earn"), fetched on the server and
// cached like the offer provider's offers (earning/provider-offers.server.ts): fresh for OFFER_REFRESH_SECONDS, the
// same deadline and one retry, and while a network fails, its last good list, tried again soon.

/** A wall whose offers Earn lists: turned on, with a wall page, an offers API and the settings it needs. */
interface ListingWall {
  wall: ConfiguredWall;
  api: WallOffersApi<unknown>;
  request: { url: string; init: RequestInit };
}

async function listingWalls(): Promise<ListingWall[]> {
  return (await currentWalls()).flatMap((wall) => {
    const api = wall.network.offers;
    const request = wall.network.wallUrl ? api?.request(wall.config) : null;
    return api && request ? [{ wall, api, request }] : [];
  });
}

/** A catalogue as Earn reads it: each offer with when the app first saw it listed (null: not known as new). */
interface Catalogue {
  offers: (WallOffer & { firstSeenAt: string | null })[];
  fresh: boolean;
}

/** Each network's last good catalogue, by name: served while a refresh fails. */
const lastGood = new Map<string, Catalogue["offers"]>();

/**
 * When the app first saw each offer (docs/decisions/100), noted in the database so every server
 * agrees and a restart forgets nothing. A failure leaves every offer not new: no badge is made up.
 */
async function firstSeen(network: string, offers: WallOffer[]): Promise<Record<string, string | null>> {
  try {
    return await (
      await getDatabase()
    ).rpc<Record<string, string | null>>("note_wall_offers_seen", {
      p_network: network,
      p_offer_ids: offers.map((offer) => offer.id),
    });
  } catch (error) {
    console.error(`offer wall ${network}: could not note its offers as seen:`, (error as Error).message);
    return {};
  }
}

async function fetchCatalogue({ wall, api, request }: ListingWall): Promise<Catalogue> {
  const name = wall.network.name;
  const offers = await fetchWithinDeadline(`offer wall ${name}, offers API`, async (signal) => {
    const response = await fetch(request.url, { ...request.init, signal });
    if (!response.ok) throw new Error(`answered ${response.status}`);
    // Unreadable JSON or an answer in another shape throws: a failure like a 500.
    return api.read(await response.json());
  });
  if (offers) {
    const seen = offers.length > 0 ? await firstSeen(name, offers) : {};
    const listed = offers.map((offer) => ({ ...offer, firstSeenAt: seen[offer.id] ?? null }));
    lastGood.set(name, listed);
    return { offers: listed, fresh: true };
  }
  return { offers: lastGood.get(name) ?? [], fresh: false };
}

const catalogues = new Map<string, ReturnType<typeof memoize<Catalogue>>>();

function catalogue(listing: ListingWall) {
  const name = listing.wall.network.name;
  let cached = catalogues.get(name);
  if (!cached) {
    cached = memoize(
      (loaded) => servedForMs(loaded.fresh, getEnv().offerRefreshMs),
      () => fetchCatalogue(listing),
    );
    catalogues.set(name, cached);
  }
  return cached.get();
}

/** The offers of every wall that lists them, by network (a network with none, for now, is left out). */
export async function wallOfferLists(): Promise<{ name: string; label: string; offers: Catalogue["offers"] }[]> {
  const lists = await Promise.all(
    (await listingWalls()).map(async (listing) => ({
      name: listing.wall.network.name,
      label: listing.wall.network.label,
      offers: (await catalogue(listing)).offers,
    })),
  );
  return lists.filter((list) => list.offers.length > 0);
}

/** One listed offer, with its network's click URL for a wall id, or null when no wall lists it. */
export async function findWallOffer(
  network: string | undefined,
  offerId: string | undefined,
): Promise<{ offer: WallOffer; clickUrl: (wallUserId: string) => string } | null> {
  const listing = (await listingWalls()).find((candidate) => candidate.wall.network.name === network);
  if (!listing) return null;
  const offer = (await catalogue(listing)).offers.find((candidate) => candidate.id === offerId);
  return offer ? { offer, clickUrl: (wallUserId) => listing.api.clickUrl(offer.clickUrlTemplate, wallUserId) } : null;
}
