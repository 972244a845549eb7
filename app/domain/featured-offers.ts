import type { OfferKind } from "./offer-kinds";

/**
 * Which of the walls' listed offers lead Earn, and their badges (issue 39, point 7; decision 100).
 * Pure: the server passes the offers as the catalogues list them and when the app first saw each.
 */

/** How many offers lead Earn, and at most how many of them from one wall (so one wall cannot fill it). */
export const FEATURED_OFFERS_SHOWN = 4;
export const FEATURED_PER_WALL = 2;

/** An offer first seen this many days ago or less is "New". */
export const NEW_OFFER_DAYS = 3;

/** "High paying": in the top tenth by coins of every wall's listed offers, once there are this many. */
export const HIGH_PAYING_MIN_OFFERS = 10;

export type OfferBadge = "new" | "high-paying";

export const OFFER_BADGE_LABELS: Record<OfferBadge, string> = { new: "New", "high-paying": "High paying" };

/**
 * The fewest coins a high-paying offer pays: the coins at the top tenth (nearest rank) of all the
 * listed offers; null while fewer than HIGH_PAYING_MIN_OFFERS are listed (no tenth to speak of).
 */
export function highPayingFloor(coins: readonly number[]): number | null {
  if (coins.length < HIGH_PAYING_MIN_OFFERS) return null;
  const sorted = [...coins].sort((a, b) => b - a);
  return sorted[Math.ceil(sorted.length / 10) - 1]!;
}

/** An offer's badges: new when first seen within NEW_OFFER_DAYS (never for one there from the start). */
export function offerBadges(
  offer: { coins: number; firstSeenAt: string | null },
  floor: number | null,
  now: Date,
): OfferBadge[] {
  const badges: OfferBadge[] = [];
  if (offer.firstSeenAt !== null) {
    // A time after `now` is the database's clock a little ahead of this server's: just seen.
    const age = now.getTime() - new Date(offer.firstSeenAt).getTime();
    if (age <= NEW_OFFER_DAYS * 86_400_000) badges.push("new");
  }
  if (floor !== null && offer.coins >= floor) badges.push("high-paying");
  return badges;
}

/**
 * The listed offers in the order they would lead Earn: those with badges first (both, then one),
 * then by coins. Ties keep the catalogues' order. Worked out once for everyone (a catalogue may
 * list thousands); `pickFeatured` walks it per person.
 */
export function rankFeatured<T extends { coins: number; badges: readonly OfferBadge[] }>(offers: readonly T[]): T[] {
  return offers
    .map((offer, index) => ({ offer, index }))
    .sort((a, b) => b.offer.badges.length - a.offer.badges.length || b.offer.coins - a.offer.coins || a.index - b.index)
    .map(({ offer }) => offer);
}

/**
 * What names an offer among a person's credits: its wall and its title as the wall shows it (a
 * network's postback names the offer as its wall shows it, the title its catalogue lists).
 */
export function creditedOfferKey(network: string, title: string): string {
  return `${network}\n${title.trim().toLowerCase()}`;
}

const NONE_CREDITED: ReadonlySet<string> = new Set();

/**
 * The offers that lead Earn, taken in `rankFeatured`'s order: at most FEATURED_PER_WALL from one
 * wall and FEATURED_OFFERS_SHOWN in all, leaving out those the person was credited for (keys of
 * `creditedOfferKey`): a featured offer is one they can still do.
 */
export function pickFeatured<T extends { network: string; title: string }>(
  ranked: readonly T[],
  credited: ReadonlySet<string> = NONE_CREDITED,
): T[] {
  const perWall = new Map<string, number>();
  const picked: T[] = [];
  for (const offer of ranked) {
    if (picked.length === FEATURED_OFFERS_SHOWN) break;
    const taken = perWall.get(offer.network) ?? 0;
    if (taken === FEATURED_PER_WALL) continue;
    if (credited.size > 0 && credited.has(creditedOfferKey(offer.network, offer.title))) continue;
    perWall.set(offer.network, taken + 1);
    picked.push(offer);
  }
  return picked;
}

/** A wall's typical payout is said only from at least this many recent credits. */
export const TYPICAL_PAYOUT_MIN_CREDITS = 20;

/** The median of a catalogue's offers' coins (the lower middle), or null for none. */
export function medianCoins(coins: readonly number[]): number | null {
  if (coins.length === 0) return null;
  const sorted = [...coins].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length / 2) - 1]!;
}

/** One listed offer as a page shows it: no click URL, its image through the app's route. */
export interface OfferView {
  network: string;
  wallLabel: string;
  id: string;
  title: string;
  description: string;
  coins: number;
  /** The app's own route to the offer's image (docs/decisions/099), or null: an icon instead. */
  image: string | null;
  kind: OfferKind | null;
  /** What it usually takes (its kind's time, or its steps), or null when nothing says. */
  time: string | null;
  badges: OfferBadge[];
}

export interface WallCardView {
  name: string;
  label: string;
  /** What it is best for: its catalogue's most listed kinds, else what the network says of itself. */
  bestFor: OfferKind[];
  /** The coins an offer usually pays there: its recent credits' median, else its catalogue's; null: unknown. */
  typicalCoins: number | null;
}
