// Lists of levels and of daily goals that an owner may set, and ones the rules refuse: the same
// samples for the form's check (tests/unit/settings.test.ts) and the database's
// (tests/integration/operator-settings.test.ts, tests/integration/levels-and-goals.test.ts).

const level = (name: string, xp: number, extra: Record<string, unknown> = {}) => ({
  name,
  xp,
  bonus_coins: 0,
  checkin_percent: 0,
  rebate_percent: 0,
  ...extra,
});

export const VALID_LEVEL_LISTS = [
  [level("Bronze", 0)],
  [level("Bronze", 0), level("Silver", 500, { bonus_coins: 25, checkin_percent: 10, rebate_percent: 0.5 })],
  [
    level("Rising Star", 0),
    level("Top 10", 100_000_000, { bonus_coins: 100_000, checkin_percent: 200, rebate_percent: 10 }),
  ],
];

export const INVALID_LEVEL_LISTS: unknown[] = [
  [],
  null,
  "Bronze",
  { name: "Bronze" },
  [level("Bronze", 10)],
  [level("Bronze", 0), level("Silver", 0)],
  [level("Bronze", 0), level("Silver", 500), level("Gold", 400)],
  [level("Bronze", 0), level("bronze", 5)],
  [level("Bronze ", 0)],
  [level("Big  Star", 0)],
  [level("<b>", 0)],
  [level("n".repeat(25), 0)],
  [level("Bronze", 0, { rebate_percent: 11 })],
  [level("Bronze", 0, { rebate_percent: 0.25 })],
  [level("Bronze", 0, { checkin_percent: 201 })],
  [level("Bronze", 0, { bonus_coins: 1.5 })],
  [level("Bronze", 0, { bonus_coins: -1 })],
  [level("Bronze", 0, { xp: "0" })],
  [{ ...level("Bronze", 0), extra: 1 }],
  [{ name: "Bronze", xp: 0, bonus_coins: 0, checkin_percent: 0 }],
  Array.from({ length: 21 }, (_, index) => level(`L${index}`, index)),
];

const goal = (id: string, kind: string, target: number, extra: Record<string, unknown> = {}) => ({
  id,
  kind,
  target,
  bonus_coins: 5,
  ...extra,
});

export const VALID_GOAL_LISTS = [
  [goal("check-in", "checkin", 1)],
  [
    goal("earn", "earn_coins", 1_000_000, { bonus_coins: 100_000 }),
    goal("adgate", "complete_offer", 20, { network: "adgate" }),
    goal("friends", "refer_verified", 20),
  ],
];

export const INVALID_GOAL_LISTS: unknown[] = [
  [],
  null,
  { id: "check-in" },
  [goal("check-in", "checkin", 2)],
  [goal("check-in", "checkin", 1, { network: "adgate" })],
  [goal("watch", "watch_video", 1)],
  [goal("Check-In", "checkin", 1)],
  [goal("a", "checkin", 1), goal("a", "earn_coins", 10)],
  [goal("earn", "earn_coins", 0)],
  [goal("earn", "earn_coins", 1_000_001)],
  [goal("offers", "complete_offer", 21)],
  [goal("offers", "complete_offer", 1, { network: "Ad Gate" })],
  [goal("earn", "earn_coins", 10, { bonus_coins: 0 })],
  [goal("earn", "earn_coins", 10, { bonus_coins: 2.5 })],
  [{ ...goal("earn", "earn_coins", 10), colour: "red" }],
  [{ id: "earn", kind: "earn_coins", bonus_coins: 5 }],
  Array.from({ length: 31 }, (_, index) => goal(`g${index}`, "checkin", 1)),
];

/** Prize tables an owner may set (coins, 1st place first), and ones prizes_valid refuses. */
export const VALID_PRIZE_LISTS = [
  [1],
  [2500, 1500, 1000, 700, 500, 400, 300, 250, 200, 200],
  [100_000, 100_000],
  Array(20).fill(5),
];
export const INVALID_PRIZE_LISTS: unknown[] = [
  [],
  null,
  "2500",
  { first: 2500 },
  [0],
  [100_001],
  [-5],
  [2.5],
  ["2500"],
  [100, 200],
  Array(21).fill(5),
];

/** The lists app_config starts with (the migration's defaults; tests/integration/levels-and-goals.test.ts holds them equal). */
export const DEFAULT_LEVELS = [
  { name: "Bronze", xp: 0, bonus_coins: 0, checkin_percent: 0, rebate_percent: 0 },
  { name: "Silver", xp: 500, bonus_coins: 25, checkin_percent: 10, rebate_percent: 0 },
  { name: "Gold", xp: 2000, bonus_coins: 75, checkin_percent: 25, rebate_percent: 0.5 },
  { name: "Platinum", xp: 5000, bonus_coins: 150, checkin_percent: 50, rebate_percent: 1 },
  { name: "Diamond", xp: 15000, bonus_coins: 400, checkin_percent: 100, rebate_percent: 2 },
];
export const DEFAULT_GOALS = [
  { id: "check-in", kind: "checkin", target: 1, bonus_coins: 5 },
  { id: "earn-100", kind: "earn_coins", target: 100, bonus_coins: 10 },
  { id: "earn-500", kind: "earn_coins", target: 500, bonus_coins: 30 },
  { id: "one-offer", kind: "complete_offer", target: 1, bonus_coins: 10 },
  { id: "two-offers", kind: "complete_offer", target: 2, bonus_coins: 20 },
  { id: "refer-friend", kind: "refer_verified", target: 1, bonus_coins: 25 },
];
