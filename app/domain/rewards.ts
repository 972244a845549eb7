// Levels and daily goals (docs/decisions/094): what the database says of them (rewards_status), and
// the words Home and the Levels page show. Worded on the server: the pages' browser code carries
// only the finished lines.
import { coinsToDollars, formatCoins, formatDollars } from "./money";
import { formatNumber } from "./numbers";

/** A level as app_config.levels lists it. */
export interface Level {
  name: string;
  /** The XP (cleared offer coins) it starts at; the first level starts at 0. */
  xp: number;
  /** Bonus coins paid once when it is reached (claimed). */
  bonus_coins: number;
  /** How much more each check-in pays, in percent, as bonus money. */
  checkin_percent: number;
  /** The share of each paid cash-out paid back as bonus money, in percent. */
  rebate_percent: number;
}

export type GoalKind = "checkin" | "earn_coins" | "complete_offer" | "refer_verified";

/** A goal as app_config.daily_goals lists it. */
export interface Goal {
  id: string;
  kind: GoalKind;
  target: number;
  bonus_coins: number;
  /** A wall's name (complete_offer only): the offers must be on that wall. */
  network?: string;
}

/** rewards_status: the level and today's goals of one account. */
export interface RewardsStatus {
  xp: number;
  /** 1 for the first level. */
  level: number;
  levels: Level[];
  /** Levels reached whose bonus is not claimed yet, by name. */
  unclaimed: string[];
  levels_on: boolean;
  /** A level payment was refused this month for the loop's cap. */
  levels_capped: boolean;
  /** The UTC day the goals are for. */
  today: string;
  goals: (Goal & { progress: number; claimed: boolean })[];
  /** Days in a row on which every goal was claimed. */
  goal_streak: number;
  goals_on: boolean;
  goals_capped: boolean;
}

/** What a claim answered: paid, or the rule that refused it (app/domain/rules.ts). */
export type ClaimResult =
  { paid: true; coins: number; levels?: string[]; balance: number } | { paid: false; refused: string };

export const XP_EXPLAINED =
  "XP is the coins you earn from offers once they clear their hold: 1 coin = 1 XP. Bonus coins give no XP, and an offer the network reverses takes its XP back.";

const GOALS_EXPLAINED =
  "Offer coins count on the day they clear their hold. Goal bonuses are bonus money: they unlock as your offer earnings clear.";

/** "25 coins ($0.25)". */
export function coinsAndDollars(coins: number, coinsPerDollar: number): string {
  return `${formatCoins(coins)} (${formatDollars(coinsToDollars(coins, coinsPerDollar))})`;
}

/** A level's perks in words, one each: "a 25-coin level-up bonus ($0.25)", "+10% on every check-in". */
export function levelPerks(level: Level, coinsPerDollar: number): string[] {
  const perks: string[] = [];
  if (level.bonus_coins > 0) {
    perks.push(
      `a ${formatNumber(level.bonus_coins)}-coin level-up bonus (${formatDollars(coinsToDollars(level.bonus_coins, coinsPerDollar))})`,
    );
  }
  if (level.checkin_percent > 0) perks.push(`+${level.checkin_percent}% on every check-in`);
  if (level.rebate_percent > 0) perks.push(`${level.rebate_percent}% of every paid cash-out back`);
  return perks;
}

/** "a, b and c". */
export function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** What the level card and the Levels page show of a person's level. */
export interface LevelView {
  number: number;
  name: string;
  xp: number;
  /** "1,234 XP". */
  xpText: string;
  /** 0 to 100: the way from this level to the next (100 at the last level). */
  percent: number;
  /** "1,400 XP to Gold", or null at the last level. */
  toNext: string | null;
  /** "Gold unlocks a 75-coin level-up bonus ($0.75), +25% on every check-in and …", or null. */
  nextUnlocks: string | null;
  /** The bonus of levels reached and not claimed: "Claim 100 coins ($1.00)", or null. */
  claim: string | null;
  /** Why nothing can be claimed or paid now (the loop is off or has reached its cap), or null. */
  stopped: string | null;
}

export const LEVELS_OFF = "Level bonuses and perks are paused for now. Your XP and level still count.";
export const LEVELS_CAPPED =
  "Level bonuses and perks have reached this month's budget. They start again on the 1st; your XP and level still count.";
export const GOALS_OFF = "Daily goals are paused for now.";
export const GOALS_CAPPED =
  "Daily goal bonuses have reached this month's budget. They start again on the 1st; you can still see your progress.";

export function levelView(status: RewardsStatus, coinsPerDollar: number): LevelView {
  const current = status.levels[status.level - 1] ?? status.levels[0]!;
  const next = status.levels[status.level] ?? null;
  const span = next ? next.xp - current.xp : 0;
  const unclaimedCoins = status.levels
    .filter((level) => status.unclaimed.includes(level.name))
    .reduce((sum, level) => sum + level.bonus_coins, 0);
  const nextPerks = next ? levelPerks(next, coinsPerDollar) : [];
  return {
    number: status.level,
    name: current.name,
    xp: status.xp,
    xpText: `${formatNumber(status.xp)} XP`,
    percent: next ? Math.min(100, Math.max(0, Math.floor(((status.xp - current.xp) / span) * 100))) : 100,
    toNext: next ? `${formatNumber(next.xp - status.xp)} XP to ${next.name}` : null,
    nextUnlocks: next && nextPerks.length > 0 ? `${next.name} unlocks ${joinWords(nextPerks)}.` : null,
    claim: unclaimedCoins > 0 && status.levels_on ? `Claim ${coinsAndDollars(unclaimedCoins, coinsPerDollar)}` : null,
    stopped: !status.levels_on ? LEVELS_OFF : status.levels_capped ? LEVELS_CAPPED : null,
  };
}

/** A goal as Home shows it. */
export interface GoalView {
  id: string;
  title: string;
  /** "60 of 100 coins", "0 of 1 offer". */
  progress: string;
  /** 0 to 100. */
  percent: number;
  /** "+10 coins ($0.10)". */
  reward: string;
  done: boolean;
  claimed: boolean;
}

export interface GoalsView {
  goals: GoalView[];
  /** "3 days in a row", or null without a streak. */
  streak: string | null;
  stopped: string | null;
  /** When goals change, what counts, and that their bonus is bonus money. */
  explained: string;
}

const count = (value: number, one: string, many: string) => `${formatNumber(value)} ${value === 1 ? one : many}`;

/** A goal's title: "Check in", "Earn 100 coins from offers", "Complete 2 offers on AdGate Media". */
export function goalTitle(goal: Goal, wallLabel: (network: string) => string): string {
  switch (goal.kind) {
    case "checkin":
      return "Check in today";
    case "earn_coins":
      return `Earn ${count(goal.target, "coin", "coins")} from offers`;
    case "complete_offer":
      return `Complete ${goal.target === 1 ? "an offer" : `${formatNumber(goal.target)} offers`}${
        goal.network ? ` on ${wallLabel(goal.network)}` : ""
      }`;
    case "refer_verified":
      return goal.target === 1
        ? "Invite a friend who joins and verifies their email"
        : `Invite ${formatNumber(goal.target)} friends who join and verify their email`;
  }
}

function goalProgress(goal: Goal & { progress: number }): string {
  const done = Math.min(goal.progress, goal.target);
  switch (goal.kind) {
    case "checkin":
      return done >= 1 ? "Checked in" : "Not yet";
    case "earn_coins":
      return `${formatNumber(done)} of ${count(goal.target, "coin", "coins")}`;
    case "complete_offer":
      return `${formatNumber(done)} of ${count(goal.target, "offer", "offers")}`;
    case "refer_verified":
      return `${formatNumber(done)} of ${count(goal.target, "friend", "friends")}`;
  }
}

export function goalsView(
  status: RewardsStatus,
  coinsPerDollar: number,
  wallLabel: (network: string) => string,
): GoalsView {
  return {
    goals: status.goals.map((goal) => ({
      id: goal.id,
      title: goalTitle(goal, wallLabel),
      progress: goalProgress(goal),
      percent: Math.min(100, Math.floor((goal.progress / goal.target) * 100)),
      reward: `+${coinsAndDollars(goal.bonus_coins, coinsPerDollar)}`,
      done: goal.progress >= goal.target,
      claimed: goal.claimed,
    })),
    streak: status.goal_streak > 0 ? `${count(status.goal_streak, "day", "days")} in a row with every goal done` : null,
    stopped: !status.goals_on ? GOALS_OFF : status.goals_capped ? GOALS_CAPPED : null,
    explained: GOALS_EXPLAINED,
  };
}

/** Home's level card and goals card, as the server words them. */
export interface RewardsView {
  level: LevelView;
  /** With when the goals change: "New goals at 5:30 AM, in 5 h." */
  goals: GoalsView & { renews: string };
}
