// Recent Activity (docs/product.md, "Profile: recent activity"): what each ledger row is called in the list.

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
}

/** What the list shows of a row: its label instead of the ledger's type and description. */
export type ActivityItem = Pick<ActivityRow, "id" | "created_at" | "amount" | "status" | "coins"> & { label: string };

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

export function activityItem({ id, created_at, amount, status, coins, ...entry }: ActivityRow): ActivityItem {
  return { id, created_at, label: activityLabel(entry), amount, status, coins: coins ?? null };
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
