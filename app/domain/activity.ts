// Recent Activity (docs/product.md, "Profile: recent activity"): what each ledger row is called in the list,
// and where its money is (money-timeline.ts).

import { bonusState, earnedState, withdrawalState, type MoneyState } from "./money-timeline";

/** One row of transaction_history as get_recent_activity returns it. */
export interface ActivityRow {
  id: number;
  created_at: string;
  description: string;
  transaction_type: string;
  amount: number;
  status: string;
  /** The coins the row moved, where it moved coins (a withdrawal moves dollars only). */
  coins: number | null;
  /** Offer earnings ("earned") or bonus money ("bonus"); null for a withdrawal. */
  kind?: "earned" | "bonus" | null;
  /** When the row's money clears (offer earnings are held for days). */
  available_at?: string | null;
  /** A bonus credit still locked (the newest bonus is the last to unlock). */
  locked?: boolean | null;
  /** A withdrawal's step (its withdrawals row). */
  review_state?: "review" | "approved" | "rejected" | null;
  settled_at?: string | null;
}

/** What the list shows of a row: its label instead of the ledger's type and description, and its money's state. */
export type ActivityItem = Pick<ActivityRow, "id" | "created_at" | "amount" | "coins"> & {
  label: string;
  state: MoneyState | null;
};

const TASK_PREFIX = "Task completed: ";
/** The description daily_checkin writes on the streak bonus's ledger row. */
const CHECKIN_BONUS_DESCRIPTION = "Check-in day 7 bonus";

/** A readable label for a ledger row. */
export function activityLabel(entry: Pick<ActivityRow, "transaction_type" | "description">): string {
  switch (entry.transaction_type) {
    case "checkin":
      return "Daily check-in";
    case "task":
      return entry.description.startsWith(TASK_PREFIX)
        ? entry.description.slice(TASK_PREFIX.length)
        : entry.description;
    case "referral":
      // Not the description: rows written before 20261128000000 hold the friend's chosen name.
      return "Referral bonus";
    case "referral_bonus":
      return "Welcome bonus";
    case "postback":
      return "Offer completed";
    case "postback_reversal":
      return "Offer reversed";
    case "adjustment":
      // An operator's credit or debit (docs/operator-console.md, "People"); the amount's sign says which.
      return "Correction by support";
    case "bonus":
      // daily_checkin's day 7 bonus says what it was for; add_user_coins writes "Bonus coins".
      return entry.description === CHECKIN_BONUS_DESCRIPTION ? "Check-in day 7 bonus" : "Bonus coins";
    default:
      return entry.description;
  }
}

/**
 * Where a row's money is: a withdrawal's step, an offer credit pending until it clears, a bonus
 * credit locked or available. A debit (a reversal, a correction taking money back) has none: it
 * is money taken, not money held.
 */
export function activityState(row: ActivityRow, now: Date): MoneyState | null {
  if (row.transaction_type === "withdrawal") return withdrawalState(row);
  if (!(Number(row.amount) > 0)) return null;
  if (row.kind === "bonus") return bonusState(row.locked === true);
  if (row.available_at) return earnedState(new Date(row.available_at).toISOString(), now);
  return { kind: "available" };
}

export function activityItem(row: ActivityRow, now: Date): ActivityItem {
  const { id, created_at, amount, coins } = row;
  return { id, created_at, label: activityLabel(row), amount, coins: coins ?? null, state: activityState(row, now) };
}

/** "+$0.10", "−$5.00" or "+180 coins": an amount written by `format`, with its sign (a true minus sign). */
export function withSign(amount: number, format: (value: number) => string): string {
  return amount < 0 ? `−${format(-amount)}` : `+${format(amount)}`;
}

/** Every kind of ledger row (transaction_history.transaction_type), as the operator console filters them. */
export const LEDGER_TYPES = [
  "checkin",
  "task",
  "referral",
  "referral_bonus",
  "bonus",
  "postback",
  "postback_reversal",
  "adjustment",
  "withdrawal",
] as const;
