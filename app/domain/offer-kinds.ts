/**
 * What kind of offer a wall's offer is, read from the categories its catalogue gives (AdGate v3's
 * `categories`, Lootably's `categories`: docs/offer-walls.md), and what Earn says of each kind.
 * No catalogue gives an offer's time, so `time` is what an offer of the kind usually takes, said as
 * typical (docs/decisions/100).
 */
export const OFFER_KINDS = {
  game: { label: "Game", plural: "games", time: "Days of play" },
  survey: { label: "Survey", plural: "surveys", time: "About 15 min" },
  quiz: { label: "Quiz", plural: "quizzes", time: "About 5 min" },
  trial: { label: "Free trial", plural: "free trials", time: "About 5 min" },
  shopping: { label: "Purchase", plural: "purchases", time: "About 10 min" },
  signup: { label: "Sign-up", plural: "sign-ups", time: "About 5 min" },
  app: { label: "App", plural: "apps", time: "About 10 min" },
} as const satisfies Record<string, { label: string; plural: string; time: string }>;

export type OfferKind = keyof typeof OFFER_KINDS;

/**
 * Words of the networks' categories that name each kind, in the order kinds win: an offer filed
 * under "Android" and "Games" is a game, one under "Android" and "Surveys" a survey.
 */
const KIND_WORDS: readonly [OfferKind, readonly string[]][] = [
  ["game", ["game", "games", "gaming"]],
  ["survey", ["survey", "surveys"]],
  ["quiz", ["quiz", "quizzes"]],
  ["trial", ["freetrial", "free trial", "free trials", "trial"]],
  ["shopping", ["shopping", "purchase", "cashback", "deposit"]],
  ["signup", ["signup", "sign up", "sign-up", "signups", "registration", "email submit"]],
  ["app", ["app", "apps", "android", "ios", "iphone", "ipad", "mobile", "cpi", "install"]],
];

/** The kind the categories name (case and spacing aside), or null when none does. */
export function offerKindOf(categories: readonly string[]): OfferKind | null {
  const given = new Set(categories.map((category) => category.trim().toLowerCase().replace(/\s+/g, " ")));
  return KIND_WORDS.find(([, words]) => words.some((word) => given.has(word)))?.[0] ?? null;
}

/** What an offer usually takes: its steps when the network lists several, else its kind's time. */
export function offerTime(kind: OfferKind | null, steps: number | null): string | null {
  if (steps !== null && steps > 1) return `${steps} steps`;
  return kind ? OFFER_KINDS[kind].time : null;
}

/** "games and apps": the kinds' plural names joined as a sentence says them. */
export function kindsPhrase(kinds: readonly OfferKind[]): string {
  const names = kinds.map((kind) => OFFER_KINDS[kind].plural);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * What a catalogue is best for: its two most common kinds (at least a fifth of its offers each),
 * ties in the order kinds win. Empty when its offers name no kind.
 */
export function mostListedKinds(kinds: readonly (OfferKind | null)[]): OfferKind[] {
  const counts = new Map<OfferKind, number>();
  for (const kind of kinds) if (kind) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const order = KIND_WORDS.map(([kind]) => kind);
  return [...counts]
    .filter(([, count]) => count * 5 >= kinds.length)
    .sort(([a, countA], [b, countB]) => countB - countA || order.indexOf(a) - order.indexOf(b))
    .slice(0, 2)
    .map(([kind]) => kind);
}
