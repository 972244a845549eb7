// Monthly leaderboard prizes (docs/decisions/097): what leaderboard_prizes answers and the words the
// Leaderboard shows for it. Client-safe: no server code.
import { ordinal } from "./loop-settings";
import { coinsToDollars, formatCoins, formatDollars } from "./money";
import { coinsAndDollars } from "./rewards";

export interface LeaderboardPrizes {
  on: boolean;
  /** Coins, 1st place first. */
  prizes: number[];
  coins_per_dollar: number;
  /** This month's first day (UTC), "2026-11-01". */
  month: string;
  /** The person's offer money that cleared this month, in dollars. */
  cleared: number;
  /** Their place by it; null with none, or beyond the 1,000 places counted. */
  place: number | null;
  /** The next prize place up and the dollars of cleared offer money that reach it; null in 1st place. */
  next: { place: number; coins: number; needed: number } | null;
  past: { month: string; winners: { place: number; username: string; coins: number; in_review: boolean }[] }[];
}

export const PRIZES_TITLE = "Monthly prizes";
export const PRIZES_RULE =
  "Prizes go to the top places by offer earnings that cleared this month (their hold ended), not by the " +
  "board's total: check-ins, bonuses and referral rewards don't count. They're paid as bonus coins " +
  "once the month ends (UTC); a prize that needs a check waits for our team first.";
export const PRIZES_PAUSED = "Prizes are paused for now. The board still counts what you earn.";
export const PAST_WINNERS_TITLE = "Past winners";
export const IN_REVIEW = "In review";

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "November 2026", from a month's first day ("2026-11-01"), as Intl's en-US long month writes it. */
export function monthName(month: string): string {
  const date = new Date(`${month.slice(0, 10)}T00:00:00Z`);
  return `${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** Where the person stands and what the next prize takes, in one or two sentences. */
export function prizeStanding(prizes: LeaderboardPrizes): string {
  const rate = prizes.coins_per_dollar;
  const prizeOf = (place: number) => prizes.prizes[place - 1];
  const inPrizes = prizes.place !== null && prizes.place <= prizes.prizes.length;
  const now =
    prizes.cleared <= 0
      ? "None of your offer earnings have cleared this month yet."
      : inPrizes
        ? `You're in ${ordinal(prizes.place!)} place with ${formatDollars(prizes.cleared)} cleared this month, ` +
          `in line for ${coinsAndDollars(prizeOf(prizes.place!)!, rate)}.`
        : `You have ${formatDollars(prizes.cleared)} of offer earnings cleared this month` +
          (prizes.place === null ? "." : `, ${ordinal(prizes.place)} place.`);
  if (!prizes.next) return now;
  const reach =
    prizes.next.needed <= 0.01
      ? `Any offer earnings that clear reach ${ordinal(prizes.next.place)} place`
      : `${formatDollars(prizes.next.needed)} more cleared reaches ${ordinal(prizes.next.place)} place`;
  return `${now} ${reach} and ${formatCoins(prizes.next.coins)} (${formatDollars(coinsToDollars(prizes.next.coins, rate))}).`;
}

/** One place of a settled month, as the console lists it (operator_prize_awards). */
export interface PrizeAwardRow {
  place: number;
  user_id: string | null;
  username: string;
  cleared: number;
  coins: number;
  status: "paid" | "held" | "refused" | "not_paid";
  /** For not_paid: the loop's rule key (loop_cap_reached, loop_off, no_identity, account_not_found). */
  refused: string | null;
  decided_by: string | null;
  decided_at: string | null;
  risk_score: number | null;
  risk_reasons: { code: string; points: number; detail: string; linked: { id: string; email: string | null }[] }[];
}

export interface PrizeMonthRow {
  month: string;
  outcome: "closed" | "off" | "before_prizes";
  closed_at: string;
  awards: PrizeAwardRow[];
}

/** Why a place was not paid, in the console's words. */
export const NOT_PAID_WORDS: Readonly<Record<string, string>> = {
  loop_cap_reached: "Not paid: the month's cap for prizes was reached",
  loop_off: "Not paid: prizes were turned off",
  no_identity: "Not paid: the account has no email identity",
  account_not_found: "Not paid: the account was deleted",
  already_paid: "Not paid: this email's account was already paid this month's prize",
};

export const PRIZE_FORM_MESSAGES = {
  failed: "The prize could not be decided. Please try again.",
  notFound: "That prize is not waiting for a decision. Reload the page.",
  reason: "Write why, for the audit log",
  reasonTooLong: "Keep the reason under 500 characters",
} as const;
