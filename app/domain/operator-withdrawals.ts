// The operator console's withdrawals (docs/operator-console.md, "Withdrawals"): the lists an
// operator works through, their filters as the URL carries them, and one withdrawal as
// operator_withdrawal_row returns it. Shared by the server module that reads them and the pages.
import { formatDollars } from "./money";
import { formatRupees } from "./rupees";

/** The lists: three queues worked oldest first, and the history newest first. */
export const WITHDRAWAL_VIEWS = [
  { value: "review", label: "In review", queue: true },
  { value: "unpaid", label: "Approved, unpaid", queue: true },
  { value: "sent", label: "Sent, not settled", queue: true },
  { value: "paid", label: "Paid", queue: false },
  { value: "failed", label: "Failed or refused", queue: false },
  { value: "all", label: "All", queue: false },
] as const;
export type WithdrawalView = (typeof WITHDRAWAL_VIEWS)[number]["value"];

export const PAYMENT_METHOD_LABELS = { paypal: "PayPal", upi: "UPI", bank: "Bank", giftcard: "Gift card" } as const;
export type PaymentMethodName = keyof typeof PAYMENT_METHOD_LABELS;

/** "Older than": how long a withdrawal has waited, in hours. */
export const WITHDRAWAL_AGES = [
  { hours: 24, label: "1 day" },
  { hours: 48, label: "2 days" },
  { hours: 168, label: "7 days" },
] as const;

export interface WithdrawalFilters {
  view: WithdrawalView;
  method: PaymentMethodName | null;
  minAgeHours: number | null;
}

/** The filters a URL carries; anything else (edited by hand) falls back to the review queue, every method, any age. */
export function readWithdrawalFilters(params: URLSearchParams): WithdrawalFilters {
  const view = WITHDRAWAL_VIEWS.find((candidate) => candidate.value === params.get("view"))?.value ?? "review";
  const method = params.get("method");
  const age = Number(params.get("age"));
  return {
    view,
    method: method !== null && Object.hasOwn(PAYMENT_METHOD_LABELS, method) ? (method as PaymentMethodName) : null,
    minAgeHours: WITHDRAWAL_AGES.some((candidate) => candidate.hours === age) ? age : null,
  };
}

/** The query string of `filters` (the review queue, every method and any age say nothing). */
export function withdrawalFiltersQuery(filters: WithdrawalFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.view !== "review") query.set("view", filters.view);
  if (filters.method) query.set("method", filters.method);
  if (filters.minAgeHours) query.set("age", String(filters.minAgeHours));
  return query;
}

export interface LinkedAccount {
  /** An account id, or the words "a deleted account". */
  id: string;
  /** Null for a deleted account. */
  email: string | null;
}

/** One term of a withdrawal's risk score (withdrawal_risk), with the accounts behind it. */
export interface ReviewReason {
  code: string;
  points: number;
  detail: string;
  linked: LinkedAccount[];
}

export interface ConsoleWithdrawal {
  id: string;
  created_at: string;
  user_id: string | null;
  email: string | null;
  account_created_at: string | null;
  amount: number;
  payment_method: PaymentMethodName;
  recipient: string;
  /** What is paid in the rail's own money, fixed when asked for (UPI: INR at payout_rate; decision 087). */
  payout_currency: string | null;
  payout_amount: number | null;
  payout_rate: number | null;
  /** The rail paying it (decisions 088, 089): PayPal, RazorpayX, Tremendous, or none (by hand, or not yet). */
  payout_rail: "paypal" | "razorpayx" | "tremendous" | null;
  /** A gift card's name as chosen, and Tremendous's reward id once ordered (decision 089). */
  giftcard_name?: string | null;
  payout_item_id?: string | null;
  /** The account's display name, beside the name its UPI ID is registered to. */
  display_name?: string | null;
  /** RazorpayX's check of the UPI ID (RAZORPAYX_VALIDATE_UPI): the name it is registered to, and whether it exists. */
  upi_registered_name?: string | null;
  upi_account_status?: string | null;
  status: "pending" | "completed" | "failed";
  review_state: "review" | "approved" | "rejected";
  risk_score: number | null;
  risk_reasons: ReviewReason[];
  reviewed_at: string | null;
  reviewed_by: string | null;
  sent_at: string | null;
  /** PayPal was asked to pay it then, and no answer is recorded yet (claim_payout). */
  payout_claimed_at: string | null;
  payout_batch_id: string | null;
  payout_status: string | null;
  settled_at: string | null;
  reference: string | null;
  failure_reason: string | null;
  payouts_paused: boolean;
  banned: boolean;
  balance: number;
  first_withdrawal: boolean;
}

/** One status a payout's rail reported (payout_events): the console's list of them. */
export interface PayoutEvent {
  status: string;
  payout_id: string;
  utr: string | null;
  reason: string | null;
  source: "create" | "webhook" | "reconciler";
  /** Whether it moved the withdrawal (false: behind what was known). */
  applied: boolean;
  received_at: string;
}

/** The rail's name in the console's words. */
export const RAIL_NAMES = { paypal: "PayPal", razorpayx: "RazorpayX", tremendous: "Tremendous" } as const;

/** Where a withdrawal stands, in the console's words. */
export function withdrawalStage(
  withdrawal: Pick<ConsoleWithdrawal, "status" | "review_state" | "sent_at"> &
    Partial<Pick<ConsoleWithdrawal, "payout_rail">>,
): string {
  if (withdrawal.status === "completed") return "Paid";
  if (withdrawal.status === "failed") return withdrawal.review_state === "rejected" ? "Refused" : "Failed";
  if (withdrawal.review_state === "review") return "In review";
  if (withdrawal.payout_rail === "razorpayx") return withdrawal.sent_at ? "With RazorpayX" : "Being sent to RazorpayX";
  if (withdrawal.payout_rail === "tremendous")
    return withdrawal.sent_at ? "With Tremendous" : "Being ordered from Tremendous";
  return withdrawal.sent_at ? "With PayPal" : "Approved, unpaid";
}

export interface WithdrawalCounts {
  review: number;
  review_oldest_at: string | null;
  unpaid: number;
  unpaid_oldest_at: string | null;
  sent: number;
}

/** What can be done to a withdrawal now, by whom may act on money (finance or owner). */
export function withdrawalActions(
  withdrawal: Pick<ConsoleWithdrawal, "status" | "review_state" | "sent_at" | "payment_method"> &
    Partial<Pick<ConsoleWithdrawal, "payout_rail" | "payout_currency">>,
  /** Whether this server can pay through PayPal (PAYPAL_* set): no Pay button where it cannot. */
  paypalReady: boolean,
  /** Whether RazorpayX pays the UPI cash-outs in rupees here (RAZORPAYX_* set, decision 088). */
  razorpayxReady = false,
) {
  const pending = withdrawal.status === "pending";
  const approved = pending && withdrawal.review_state === "approved";
  // RazorpayX's to pay and settle: nothing by hand, or it could be paid twice.
  const byRazorpayX =
    withdrawal.payout_rail === "razorpayx" ||
    (razorpayxReady && withdrawal.payment_method === "upi" && withdrawal.payout_currency === "INR");
  // A gift card is only ever ordered from Tremendous; before it is claimed it can still be failed
  // by hand (Tremendous no longer configured), never marked paid.
  const giftCard = withdrawal.payment_method === "giftcard";
  const claimedByRail = withdrawal.payout_rail === "razorpayx" || withdrawal.payout_rail === "tremendous";
  return {
    approve: pending && withdrawal.review_state === "review",
    reject: pending && withdrawal.sent_at === null && !claimedByRail,
    pay: paypalReady && approved && withdrawal.payment_method === "paypal" && withdrawal.sent_at === null,
    // Any approved one not with PayPal can be settled by hand: a PayPal payout made outside the app
    // (PayPal not set up here, or down) is marked paid with its reference rather than left stuck.
    markPaid: approved && withdrawal.sent_at === null && !byRazorpayX && !giftCard,
    markFailed: approved && withdrawal.sent_at === null && !byRazorpayX && !claimedByRail,
  };
}

/**
 * What the person is to be paid, as the operator pays it: "₹415.20" for a UPI withdrawal whose
 * rupees were fixed when it was asked for, else the dollars.
 */
export function amountToPay(
  withdrawal: Pick<ConsoleWithdrawal, "amount" | "payout_currency" | "payout_amount">,
): string {
  return withdrawal.payout_currency === "INR" && withdrawal.payout_amount != null
    ? formatRupees(Number(withdrawal.payout_amount))
    : formatDollars(withdrawal.amount);
}
