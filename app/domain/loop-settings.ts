// The lists of levels and daily goals an owner edits in the console's Settings, as JSON
// (docs/decisions/094). The same rules as the database's levels_valid and daily_goals_valid
// (supabase/migrations/20261215000000_levels_and_daily_goals.sql): the form refuses what the
// database would, with the same words, and tests/unit/settings.test.ts and
// tests/integration/operator-settings.test.ts run the same samples through both.
import { formatNumber } from "./numbers";
import type { Goal, GoalKind, Level } from "./rewards";

export const LEVELS_MAX = 20;
export const PRIZES_MAX = 20;
const PRIZE_MAX_COINS = 100_000;
export const GOALS_MAX = 30;
const LIST_MAX_LENGTH = 8000;

const LEVEL_NAME = /^[A-Za-z0-9][A-Za-z0-9 ]{0,23}$/;
const GOAL_ID = /^[a-z0-9-]{1,32}$/;
const NETWORK_NAME = /^[a-z0-9-]{2,40}$/;
const GOAL_KINDS: readonly GoalKind[] = ["checkin", "earn_coins", "complete_offer", "refer_verified"];
/** The most a goal of each kind may ask: a check-in once, up to a million coins, 20 offers or friends. */
const GOAL_TARGET_MAX: Readonly<Record<GoalKind, number>> = {
  checkin: 1,
  earn_coins: 1_000_000,
  complete_offer: 20,
  refer_verified: 20,
};

export const INVALID_LEVELS =
  'Write the levels as a JSON list, such as [{"name": "Bronze", "xp": 0, "bonus_coins": 0, "checkin_percent": 0, ' +
  `"rebate_percent": 0}]: 1 to ${LEVELS_MAX} levels, the first at 0 XP and each next one higher, distinct names of ` +
  "letters, digits and single spaces (at most 24), a bonus of 0 to 100,000 coins, a check-in extra of 0 to 200 %, " +
  "a cash-out rebate of 0 to 10 % with at most one decimal";

export const INVALID_GOALS =
  'Write the goals as a JSON list, such as [{"id": "check-in", "kind": "checkin", "target": 1, "bonus_coins": 5}]: ' +
  `1 to ${GOALS_MAX} goals with distinct ids of lowercase letters, digits or dashes; kind checkin (target 1), ` +
  "earn_coins (1 to 1,000,000 coins), complete_offer (1 to 20 offers, and a wall's name as network if you like) " +
  "or refer_verified (1 to 20 friends); a bonus of 1 to 100,000 coins";

export const INVALID_PRIZES =
  "Write the prizes in coins, 1st place first, separated by commas, such as 2500, 1500, 1000: " +
  `1 to ${PRIZES_MAX} prizes, each a whole number from 1 to 100,000, none above the place before it`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const whole = (value: unknown, min: number, max: number): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;

function parseList(text: string, max: number): unknown[] | null {
  if (text.length > LIST_MAX_LENGTH) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  return Array.isArray(parsed) && parsed.length >= 1 && parsed.length <= max ? parsed : null;
}

/** The levels as typed, or null when they break a rule. */
export function parseLevels(text: string): Level[] | null {
  const list = parseList(text, LEVELS_MAX);
  if (!list) return null;
  const names = new Set<string>();
  let previous: number | null = null;
  for (const level of list) {
    if (!isObject(level)) return null;
    const keys = Object.keys(level).sort().join();
    if (keys !== "bonus_coins,checkin_percent,name,rebate_percent,xp") return null;
    const { name, xp, bonus_coins, checkin_percent, rebate_percent } = level;
    if (typeof name !== "string" || !LEVEL_NAME.test(name) || name.endsWith(" ") || name.includes("  ")) return null;
    if (names.has(name.toLowerCase())) return null;
    names.add(name.toLowerCase());
    if (!whole(xp, 0, 100_000_000) || (previous === null ? xp !== 0 : xp <= previous)) return null;
    if (!whole(bonus_coins, 0, 100_000) || !whole(checkin_percent, 0, 200)) return null;
    if (typeof rebate_percent !== "number" || !whole(Math.round(rebate_percent * 10), 0, 100)) return null;
    if (Math.round(rebate_percent * 10) / 10 !== rebate_percent) return null;
    previous = xp;
  }
  return list as Level[];
}

/** The goals as typed, or null when they break a rule. */
export function parseGoals(text: string): Goal[] | null {
  const list = parseList(text, GOALS_MAX);
  if (!list) return null;
  const ids = new Set<string>();
  for (const goal of list) {
    if (!isObject(goal)) return null;
    const { id, kind, target, bonus_coins, network, ...rest } = goal;
    if (Object.keys(rest).length > 0) return null;
    if (typeof id !== "string" || !GOAL_ID.test(id) || ids.has(id)) return null;
    ids.add(id);
    if (typeof kind !== "string" || !(GOAL_KINDS as readonly string[]).includes(kind)) return null;
    if (!whole(target, 1, GOAL_TARGET_MAX[kind as GoalKind]) || !whole(bonus_coins, 1, 100_000)) return null;
    if ("network" in goal && (kind !== "complete_offer" || typeof network !== "string" || !NETWORK_NAME.test(network)))
      return null;
  }
  return list as Goal[];
}

/** A list's text in its field: one level or goal a line. */
export function listText(list: readonly object[]): string {
  return `[\n${list.map((item) => `  ${JSON.stringify(item).replaceAll('":', '": ').replaceAll(',"', ', "')}`).join(",\n")}\n]`;
}

/**
 * The monthly prizes as typed ("2500, 1500, 1000": coins, 1st place first), or null when they break
 * a rule of the database's prizes_valid.
 */
export function parsePrizes(text: string): number[] | null {
  const parts = text.split(",").map((part) => part.trim());
  if (parts.length < 1 || parts.length > PRIZES_MAX) return null;
  const prizes: number[] = [];
  for (const part of parts) {
    if (!/^[0-9]{1,6}$/.test(part)) return null;
    const coins = Number(part);
    if (coins < 1 || coins > PRIZE_MAX_COINS) return null;
    if (prizes.length > 0 && coins > prizes[prizes.length - 1]!) return null;
    prizes.push(coins);
  }
  return prizes;
}

/** "1st 2,500 coins, 2nd 1,500 coins". */
export function prizesInWords(prizes: readonly number[]): string {
  return prizes.map((coins, index) => `${ordinal(index + 1)} ${formatNumber(coins)} coins`).join(", ");
}

/** "1st", "2nd", "3rd", "11th", "21st": as the database's ordinal() writes a prize's place. */
export function ordinal(place: number): string {
  const tens = place % 100;
  const suffix =
    tens >= 11 && tens <= 13
      ? "th"
      : place % 10 === 1
        ? "st"
        : place % 10 === 2
          ? "nd"
          : place % 10 === 3
            ? "rd"
            : "th";
  return `${place}${suffix}`;
}

/** "Bronze (0 XP), Silver (500 XP), Gold (2,000 XP)". */
export function levelsInWords(levels: readonly Level[]): string {
  return levels.map((level) => `${level.name} (${formatNumber(level.xp)} XP)`).join(", ");
}

/** "check-in, earn-100, one-offer". */
export function goalsInWords(goals: readonly Goal[]): string {
  return goals.map((goal) => goal.id).join(", ");
}
