// The operator console's dashboard (docs/operator-console.md, "Dashboard"): the figures as
// operator_dashboard returns them, what each is called, and the arithmetic the page does on them.
// Sums of money arrive exact from SQL (numeric); the page only divides two of them for a share.
import { formatDay } from "./dates";
import { formatNumber } from "./numbers";

/** How many, coins and dollars of one counter over some days. */
export interface CounterSums {
  n: number;
  coins: number;
  amount: number;
}

/** Today (UTC, so far), the last 7 and the last 30 UTC days, today included. */
export const DASHBOARD_WINDOWS = [
  { key: "day", label: "Today" },
  { key: "week", label: "7 days" },
  { key: "month", label: "30 days" },
] as const;
export type DashboardWindow = (typeof DASHBOARD_WINDOWS)[number]["key"];

/** Where credited money came from: each a type of ledger row (its counter is `ledger:<type>`). */
export const EARNING_SOURCES = [
  { metric: "ledger:postback", label: "Offers" },
  { metric: "ledger:checkin", label: "Check-ins" },
  { metric: "ledger:task", label: "Tasks" },
  { metric: "ledger:referral", label: "Referral rewards" },
  { metric: "ledger:referral_bonus", label: "Welcome bonuses" },
  { metric: "ledger:bonus", label: "Bonuses" },
] as const;
export type EarningSource = (typeof EARNING_SOURCES)[number]["metric"];

/** The reasons to come back (docs/decisions/094, 095, 097): each a loop paid in bonus money, its counter `loop:<loop>`. */
export const LOOPS = [
  { loop: "levels", metric: "loop:levels", label: "Levels" },
  { loop: "goals", metric: "loop:goals", label: "Daily goals" },
  { loop: "codes", metric: "loop:codes", label: "Promo codes" },
  { loop: "prizes", metric: "loop:prizes", label: "Monthly prizes" },
] as const;
export type LoopName = (typeof LOOPS)[number]["loop"];

/** The counters kept per UTC day, as operator_dashboard names them. */
export type DailyMetric =
  | (typeof LOOPS)[number]["metric"]
  | "signups"
  | "active_last"
  | "earning_last"
  | EarningSource
  | "ledger:postback_reversal"
  | "withdrawals:paid"
  | "withdrawals:failed";

export interface QueueFigures {
  n: number;
  amount: number;
  /** The oldest withdrawal waiting (ISO), null when none waits. */
  oldest_at?: string | null;
}

/** operator_dashboard's answer. */
export interface DashboardData {
  as_of: string;
  /** The UTC day the figures end on, YYYY-MM-DD. */
  today: string;
  /** Accounts that exist now. */
  accounts: number;
  /** Each daily counter summed over each window; a counter that counted nothing is absent. */
  windows: Partial<Record<DailyMetric, Record<DashboardWindow, CounterSums>>>;
  /** The last 30 UTC days, oldest first, with the counters of each. */
  days: { day: string; counts: Partial<Record<DailyMetric, CounterSums>> }[];
  liabilities: {
    /** The sum of every account's balance (below zero ones included). */
    balances: number;
    /** Offer money still in its hold. */
    pending: number;
    /** balances − pending. */
    available: number;
    /** Accounts below zero (a reversal after a withdrawal), and the sum of those balances. */
    negative: { n: number; amount: number };
  };
  withdrawals: { review: QueueFigures; unpaid: QueueFigures; sent: QueueFigures };
  /** Each loop's switch, monthly cap and spend this calendar month (UTC); `stopped`: a payment met the cap. */
  loops: Record<LoopName, { on: boolean; cap: number; paid: number; stopped: boolean }>;
  /**
   * The last nine sign-up weeks (by their Monday, UTC), newest first: sign-ups, and those active on
   * the 1st, 7th and 30th day after signing up; null while the week is not that old yet.
   */
  retention: { week: string; signups: number; d1: number | null; d7: number | null; d30: number | null }[];
  /** The bonus money of the accounts that exist, and the most of it that was ever withdrawable. */
  bonus: { total: number; unlocked: number };
}

const NOTHING: CounterSums = { n: 0, coins: 0, amount: 0 };

/** A daily counter over a window (zero when it counted nothing). */
export function windowSums(data: DashboardData, metric: DailyMetric, window: DashboardWindow): CounterSums {
  return data.windows[metric]?.[window] ?? NOTHING;
}

/** One daily counter's field for each of the 30 days, oldest first. */
export function dailyValues(data: DashboardData, metric: DailyMetric, field: keyof CounterSums): number[] {
  return data.days.map((day) => day.counts[metric]?.[field] ?? 0);
}

/**
 * Reversed offer money as a share of the offer money credited in the same days, in percent to one
 * decimal; null when no offer money was credited (a share of nothing says nothing).
 */
export function reversalShare(reversed: number, credited: number): number | null {
  return shareOf(Math.abs(reversed), credited);
}

/** `part` of `whole` in percent to one decimal; null when the whole is nothing. */
export function shareOf(part: number, whole: number): number | null {
  if (!(whole > 0)) return null;
  return Math.round((part / whole) * 1000) / 10;
}

/** "12.5 %", or "—" for no share. */
export function formatShare(share: number | null): string {
  return share === null ? "—" : `${share.toFixed(1)} %`;
}

/** "1,234": a count, grouped by thousands. */
export function formatCount(value: number): string {
  return formatNumber(Math.round(value));
}

/**
 * A chart's text alternative: "12 in all from Oct 29 to Nov 27; the most, 5, on Nov 20" (the first
 * such day), or "none from Oct 29 to Nov 27".
 */
export function seriesSummary(days: readonly string[], values: readonly number[], format: (value: number) => string) {
  if (days.length === 0) return "no days";
  const span = `from ${formatDay(days[0]!)} to ${formatDay(days.at(-1)!)}`;
  const total = values.reduce((sum, value) => sum + value, 0);
  if (total === 0) return `none ${span}`;
  const most = values.reduce((best, value, index) => (value > values[best]! ? index : best), 0);
  return `${format(total)} in all ${span}; the most, ${format(values[most]!)}, on ${formatDay(days[most]!)}`;
}

/** People of a cohort as a share of its sign-ups, in percent to one decimal; null without sign-ups or figure. */
export function retentionShare(retained: number | null, signups: number): number | null {
  return retained === null ? null : shareOf(retained, signups);
}
