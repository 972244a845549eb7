import {
  TYPICAL_PAYOUT_MIN_CREDITS,
  highPayingFloor,
  medianCoins,
  offerBadges,
  pickFeatured,
  type OfferView,
  type WallCardView,
} from "~/domain/featured-offers";
import { mostListedKinds, offerTime } from "~/domain/offer-kinds";
import { getDatabase } from "../db/database.server";
import { memoizeByKey } from "../runtime/cache.server";
import { getEnv } from "../runtime/env.server";
import { offerImageId } from "./offer-images.server";
import { wallOfferLists } from "./offers.server";
import { wallCards } from "./pages.server";

// What Earn shows of the offer walls (docs/offer-walls.md, "Offers in Earn"; decision 100): the
// featured offers that lead the page, a card per wall with what it is best for and its typical
// payout, and the first few offers of each wall that lists them.

/** How many of a wall's offers Earn lists: the wall's own page has them all. */
const WALL_OFFERS_SHOWN = 5;

interface TypicalPayout {
  network: string;
  typical_coins: number;
  credits: number;
}

/** The walls' recent credits' medians, read once a catalogue refresh for everyone (one small indexed read). */
let typicalPayouts: ReturnType<typeof memoizeByKey<TypicalPayout[]>> | undefined;

async function recentTypicalPayouts(names: string[]): Promise<Map<string, TypicalPayout>> {
  if (names.length === 0) return new Map();
  typicalPayouts ??= memoizeByKey(getEnv().offerRefreshMs, async (key) =>
    (await getDatabase()).rpc<TypicalPayout[]>("wall_typical_payouts", { p_networks: key.split(",") }),
  );
  try {
    const rows = await typicalPayouts.get(names.join(","));
    return new Map(rows.map((row) => [row.network, row]));
  } catch (error) {
    // The cards still show; without a figure they say payouts vary.
    console.error("earn: walls' typical payouts:", (error as Error).message);
    return new Map();
  }
}

/** Earn's featured offers, wall cards and wall offer lists. */
export async function earnWalls() {
  const [lists, cards] = await Promise.all([wallOfferLists(), wallCards()]);
  // What is new is decided once the catalogues are read: a refresh may have just noted an offer.
  const now = new Date();
  const payouts = await recentTypicalPayouts(cards.map((card) => card.name));
  const floor = highPayingFloor(lists.flatMap((list) => list.offers.map((offer) => offer.coins)));
  const viewed = lists.map((list) => ({
    ...list,
    views: list.offers.map((offer): OfferView => ({
      network: list.name,
      wallLabel: list.label,
      id: offer.id,
      title: offer.name,
      description: offer.description,
      coins: offer.coins,
      image: offer.imageUrl ? `/offer-images/${offerImageId(list.name, offer.imageUrl)}` : null,
      kind: offer.kind,
      time: offerTime(offer.kind, offer.steps),
      badges: offerBadges(offer, floor, now),
    })),
  }));
  return {
    featured: pickFeatured(viewed.flatMap((list) => list.views)),
    walls: cards.map((card): WallCardView => {
      const offers = lists.find((list) => list.name === card.name)?.offers ?? [];
      const listedKinds = mostListedKinds(offers.map((offer) => offer.kind));
      const recent = payouts.get(card.name);
      return {
        name: card.name,
        label: card.label,
        bestFor: listedKinds.length > 0 ? listedKinds : [...card.bestFor],
        typicalCoins:
          recent && recent.credits >= TYPICAL_PAYOUT_MIN_CREDITS
            ? recent.typical_coins
            : medianCoins(offers.map((offer) => offer.coins)),
      };
    }),
    lists: viewed.map((list) => ({
      name: list.name,
      label: list.label,
      offers: list.views.slice(0, WALL_OFFERS_SHOWN),
    })),
  };
}
