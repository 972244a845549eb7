import { literal, object } from "zod/mini";
import { CHECKIN_DAY_COUNT } from "./constants";
import { coinsToDollars, formatDollars } from "./money";
import { withState, type MoneyState } from "./money-timeline";
import { joinWords } from "./rewards";

/** Home's check-in form: one button. */
export const checkinFormSchema = object({ intent: literal("checkin") });

const HOUR_MS = 60 * 60 * 1000;

/**
 * The check-in day is the UTC calendar date (the server's clock, so a phone's clock cannot
 * game it). How long until the next one opens, as the card says it: "5 h", or "25 min" in
 * the last hour.
 */
export function timeUntilNextCheckin(now: Date): string {
  const nextUtcMidnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const left = nextUtcMidnight - now.getTime();
  if (left >= HOUR_MS) return `${Math.floor(left / HOUR_MS)} h`;
  return `${Math.max(1, Math.ceil(left / 60_000))} min`;
}

/** The streak as the server counts it (get_checkin_status; docs/decisions/072). */
export interface CheckinStreak {
  /** The day of the streak's week today is, 1 to 7, whether or not the person checked in yet. */
  streakDay: number;
  checkedInToday: boolean;
  /** What day 7 pays (app_config.checkin_streak_bonus_coins; 0: no bonus). */
  bonusCoins: number;
  /** What today's check-in paid as the bonus (0 unless today was day 7). */
  bonusPaidToday: number;
}

export type CheckinDayState = "done" | "today" | "ahead";

/** Each circle D1 to D7: checked in, today's (not yet checked in) or still ahead. */
export function checkinDayStates(streak: Pick<CheckinStreak, "streakDay" | "checkedInToday">): CheckinDayState[] {
  return Array.from({ length: CHECKIN_DAY_COUNT }, (_, index) => {
    const day = index + 1;
    if (day < streak.streakDay || (day === streak.streakDay && streak.checkedInToday)) return "done";
    return day === streak.streakDay ? "today" : "ahead";
  });
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/**
 * What the card says of the streak: "Day 3 of 7 · check in 4 more days in a row for a 50-coin bonus
 * ($0.50)", and on day 7 that the bonus was paid. `dollars` writes coins in dollars (50 → "$0.50").
 */
export function checkinStreakLine(streak: CheckinStreak, dollars: (coins: number) => string): string {
  const { streakDay: day, checkedInToday, bonusCoins, bonusPaidToday } = streak;
  const head = `Day ${day} of ${CHECKIN_DAY_COUNT}`;
  if (checkedInToday && bonusPaidToday > 0) {
    return `${head} · your ${bonusPaidToday}-coin bonus (${dollars(bonusPaidToday)}) was paid today. Tomorrow starts a new week at Day 1.`;
  }
  if (bonusCoins <= 0) return `${head} of your check-in streak.`;
  const bonus = `a ${bonusCoins}-coin bonus (${dollars(bonusCoins)})`;
  const left = CHECKIN_DAY_COUNT - day;
  if (checkedInToday) {
    return left > 0
      ? `${head} · check in ${plural(left, "more day")} in a row for ${bonus}.`
      : `${head} · tomorrow starts a new week at Day 1.`;
  }
  return left > 0
    ? `${head} · check in today and ${plural(left, "more day")} in a row for ${bonus}.`
    : `${head} · check in today for ${bonus}.`;
}

/**
 * The check-in's toast: what it paid, in coins and dollars, and where that money is ("You earned
 * 10 coins ($0.10) — locked until your offer earnings clear.").
 */
export function checkinWords(
  paid: { coins: number; bonus_coins: number; perk_coins?: number; level_name?: string },
  coinsPerDollar: number,
  state: MoneyState | null,
): string {
  const perk = paid.perk_coins ?? 0;
  const dollars = formatDollars(
    coinsToDollars(paid.coins, coinsPerDollar) +
      coinsToDollars(paid.bonus_coins, coinsPerDollar) +
      coinsToDollars(perk, coinsPerDollar),
  );
  // The level's check-in perk (docs/decisions/094), said with the level that pays it.
  const parts = [`${paid.coins} coins`];
  if (perk > 0) parts.push(`${perk} more for your ${paid.level_name ?? "level"} level`);
  if (paid.bonus_coins > 0) parts.push(`your ${paid.bonus_coins}-coin day 7 bonus`);
  return withState(`You earned ${joinWords(parts)} (${dollars})`, state);
}
