import {
  TYPICAL_PAYOUT_MIN_CREDITS,
  highPayingFloor,
  medianCoins,
  offerBadges,
  creditedOfferKey,
  pickFeatured,
  rankFeatured,
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

async function recentTypicalPayouts(names: string[]): Promise<readonly TypicalPayout[]> {
  if (names.length === 0) return NO_PAYOUTS;
  typicalPayouts ??= memoizeByKey(getEnv().offerRefreshMs, async (key) =>
    (await getDatabase()).rpc<TypicalPayout[]>("wall_typical_payouts", { p_networks: key.split(",") }),
  );
  try {
    return await typicalPayouts.get(names.join(","));
  } catch (error) {
    // The cards still show; without a figure they say payouts vary.
    console.error("earn: walls' typical payouts:", (error as Error).message);
    return NO_PAYOUTS;
  }
}

const NO_PAYOUTS: readonly TypicalPayout[] = [];

/**
 * What Earn shows is the same for everyone: it is worked out again only when a catalogue, the walls
 * or the payouts change (each kept as the same object until then), or a minute later (what is New
 * moves with the clock). Not per request: a catalogue may list thousands of offers.
 */
const RECOMPUTE_AFTER_MS = 60_000;
let kept: { inputs: readonly unknown[]; until: number; value: EarnWalls } | undefined;

type EarnWalls = ReturnType<typeof viewOf>;

/** Earn's featured offers, wall cards and wall offer lists. */
export async function earnWalls(): Promise<EarnWalls> {
  const [lists, cards] = await Promise.all([wallOfferLists(), wallCards()]);
  const payouts = await recentTypicalPayouts(cards.map((card) => card.name));
  const inputs = [payouts, ...lists.map((list) => list.offers), ...cards.map((card) => card.name)];
  const current = kept;
  if (
    current &&
    current.until > Date.now() &&
    current.inputs.length === inputs.length &&
    inputs.every((input, index) => input === current.inputs[index])
  ) {
    return current.value;
  }
  // What is new is decided once the catalogues are read: a refresh may have just noted an offer.
  const value = viewOf(lists, cards, payouts, new Date());
  kept = { inputs, until: Date.now() + RECOMPUTE_AFTER_MS, value };
  return value;
}

function viewOf(
  lists: Awaited<ReturnType<typeof wallOfferLists>>,
  cards: Awaited<ReturnType<typeof wallCards>>,
  payoutRows: readonly TypicalPayout[],
  now: Date,
) {
  const payouts = new Map(payoutRows.map((row) => [row.network, row]));
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
  const ranked = rankFeatured(viewed.flatMap((list) => list.views));
  return {
    /** What leads Earn for someone credited for none of the offers (a visitor, most people). */
    featured: pickFeatured(ranked),
    /** Every listed offer in the order they would lead Earn, for `featuredFor`; not for a page. */
    ranked,
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

/**
 * The featured offers for a signed-in person: those they were credited for are left out, and the
 * next ones take their places (decision 100). Only a wall that lists offers needs the read.
 */
export async function featuredFor(walls: EarnWalls, userId: string): Promise<OfferView[]> {
  if (walls.ranked.length === 0) return walls.featured;
  const names = await (await getDatabase()).rpc<[string, string][]>("credited_offer_names", { p_user_id: userId });
  if (names.length === 0) return walls.featured;
  return pickFeatured(walls.ranked, new Set(names.map(([network, title]) => creditedOfferKey(network, title))));
}
