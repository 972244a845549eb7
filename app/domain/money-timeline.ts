// Where a person's money is (issue 36, docs/decisions/080): every amount the app shows is in one of
// seven states, and every toast, notice, push, email, history row and activity row names it in these
// words. Pure and client-safe.

import { formatDay, type TimeZone } from "./dates";
import { formatDollars } from "./money";

export type MoneyState =
  /** Offer earnings in their hold: they clear on a date. */
  | { kind: "pending"; clearsAt: string }
  /** Bonus money (check-ins, tasks, referrals) waiting for cleared offer earnings to unlock it. */
  | { kind: "locked" }
  | { kind: "available" }
  /** A cash-out an operator checks before anything is sent. */
  | { kind: "in_review" }
  /** A cash-out approved, on its way to the payment service. */
  | { kind: "sending" }
  | { kind: "paid"; paidAt: string | null }
  /** A cash-out refused after review, or one the payment service did not pay: its money is back. */
  | { kind: "refused"; refunded: number; cause: "review" | "payment" };

/** "Refused" when an operator said no; "Not paid" when the payment service did not pay. */
function refusalName(state: Extract<MoneyState, { kind: "refused" }>): string {
  return state.cause === "review" ? "Refused" : "Not paid";
}

/**
 * The state as a badge of a history or activity row: "Pending · clears Dec 5", "Refused — $2.00
 * refunded". Days are the person's (`zone`, UTC when none).
 */
export function stateBadge(state: MoneyState, zone?: TimeZone): string {
  switch (state.kind) {
    case "pending":
      return `Pending · clears ${formatDay(state.clearsAt, zone)}`;
    case "locked":
      return "Locked bonus";
    case "available":
      return "Available";
    case "in_review":
      return "In review";
    case "sending":
      return "Sending";
    case "paid":
      return state.paidAt ? `Paid ${formatDay(state.paidAt, zone)}` : "Paid";
    case "refused":
      return `${refusalName(state)} — ${formatDollars(state.refunded)} refunded`;
  }
}

/** The state after an amount in a sentence: "350 coins ($3.50) — pending, clears Dec 5". */
export function statePhrase(state: MoneyState, zone?: TimeZone): string {
  switch (state.kind) {
    case "pending":
      return `pending, clears ${formatDay(state.clearsAt, zone)}`;
    case "locked":
      return "locked until your offer earnings clear";
    case "available":
      return "available to withdraw";
    case "in_review":
      return "in review";
    case "sending":
      return "sending";
    case "paid":
      return state.paidAt ? `paid ${formatDay(state.paidAt, zone)}` : "paid";
    case "refused":
      return `${refusalName(state).toLowerCase()} — ${formatDollars(state.refunded)} refunded`;
  }
}

/** "You earned 350 coins ($3.50)" followed by where that money is: "… — pending, clears Dec 5." */
export function withState(words: string, state: MoneyState | null, zone?: TimeZone): string {
  return state ? `${words} — ${statePhrase(state, zone)}.` : `${words}.`;
}

/** The colour of a state's badge: money on its way amber, money that arrived green, money back red. */
export function stateTone(state: MoneyState): "green" | "amber" | "red" | "grey" {
  switch (state.kind) {
    case "available":
    case "paid":
      return "green";
    case "pending":
    case "in_review":
    case "sending":
      return "amber";
    case "refused":
      return "red";
    case "locked":
      return "grey";
  }
}

/** A credit of offer earnings: pending until `availableAt`, then available. */
export function earnedState(availableAt: string, now: Date): MoneyState {
  return Date.parse(availableAt) > now.getTime() ? { kind: "pending", clearsAt: availableAt } : { kind: "available" };
}

/** A credit of bonus money: locked while any bonus is (the newest bonus is the last to unlock). */
export function bonusState(locked: boolean): MoneyState {
  return locked ? { kind: "locked" } : { kind: "available" };
}

/** A withdrawal as its row says: waiting for review, approved and on its way, paid, or refused with its refund. */
export interface WithdrawalProgress {
  status: string;
  review_state?: "review" | "approved" | "rejected" | null;
  settled_at?: string | null;
  /** The amount, positive (a withdrawal's ledger row holds it negative). */
  amount: number;
}

export function withdrawalState(row: WithdrawalProgress): MoneyState | null {
  const amount = Math.abs(row.amount);
  switch (row.status) {
    case "completed":
      return { kind: "paid", paidAt: row.settled_at ?? null };
    case "failed":
      return { kind: "refused", refunded: amount, cause: row.review_state === "rejected" ? "review" : "payment" };
    case "pending":
      return row.review_state === "review" ? { kind: "in_review" } : { kind: "sending" };
    default:
      return null;
  }
}
