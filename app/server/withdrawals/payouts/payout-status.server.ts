import type { Database } from "../../db/core.server";
import type { PayoutBatchItem } from "./paypal.server";

/**
 * What a PayPal payout item's status means for its withdrawal: paid (completed), not paid and
 * never going to be (failed: settle_withdrawal gives the money back), or not decided yet (the
 * status is only remembered). A status we do not know never settles anything.
 */
export type PayoutOutcome =
  | { settle: "completed"; payoutStatus: string; reference: string | null }
  | { settle: "failed"; payoutStatus: string; reason: string }
  | { settle: null; payoutStatus: string };

// Item statuses (GET /v1/payments/payouts/{id}) that end a payout without paying, with the words
// the owner's notice and the operator's list show.
const FAILED_STATUSES: Record<string, string> = {
  FAILED: "PayPal could not make the payout",
  RETURNED: "The payout was not claimed and PayPal returned it",
  BLOCKED: "PayPal blocked the payout",
  REFUNDED: "PayPal refunded the payout",
  REVERSED: "PayPal reversed the payout",
  CANCELED: "The payout was cancelled",
  DENIED: "PayPal denied the payout",
};

// Webhook events PAYMENT.PAYOUTS-ITEM.<suffix>, as the item status each one reports.
const EVENT_STATUSES: Record<string, string> = {
  SUCCEEDED: "SUCCESS",
  FAILED: "FAILED",
  RETURNED: "RETURNED",
  BLOCKED: "BLOCKED",
  REFUNDED: "REFUNDED",
  CANCELED: "CANCELED",
  DENIED: "DENIED",
  UNCLAIMED: "UNCLAIMED",
  HELD: "ONHOLD",
};

const PAYOUT_ITEM_EVENT_PREFIX = "PAYMENT.PAYOUTS-ITEM.";
const MAX_REASON_LENGTH = 500; // withdrawals.failure_reason

/** The outcome of an item status; `reference` is the payout item id, else the transaction id. */
export function payoutOutcome(item: {
  transactionStatus: string;
  payoutItemId?: string | null;
  transactionId?: string | null;
  errors?: PayoutBatchItem["errors"];
}): PayoutOutcome {
  const status = item.transactionStatus.toUpperCase();
  if (status === "SUCCESS") {
    return { settle: "completed", payoutStatus: status, reference: item.payoutItemId || item.transactionId || null };
  }
  const failure = FAILED_STATUSES[status];
  if (failure) {
    const detail = item.errors?.message || item.errors?.name;
    const reason = detail ? `${failure}: ${detail}` : failure;
    return { settle: "failed", payoutStatus: status, reason: reason.slice(0, MAX_REASON_LENGTH) };
  }
  // UNCLAIMED, PENDING, ONHOLD, HELD and anything new: PayPal has not decided.
  return { settle: null, payoutStatus: status };
}

/** The outcome a webhook event reports, or null for events that are not about a payout item. */
export function payoutEventOutcome(eventType: string, resource: Record<string, unknown>): PayoutOutcome | null {
  if (!eventType.startsWith(PAYOUT_ITEM_EVENT_PREFIX)) return null;
  const status = EVENT_STATUSES[eventType.slice(PAYOUT_ITEM_EVENT_PREFIX.length)];
  if (!status) return null;
  const errors = resource.errors;
  return payoutOutcome({
    transactionStatus: status,
    payoutItemId: typeof resource.payout_item_id === "string" ? resource.payout_item_id : null,
    transactionId: typeof resource.transaction_id === "string" ? resource.transaction_id : null,
    errors: typeof errors === "object" && errors !== null ? (errors as PayoutBatchItem["errors"]) : null,
  });
}

export type AppliedOutcome =
  | { status: "completed" | "failed"; changed: boolean }
  /** Still pending; PayPal's status was recorded. */
  | { status: "pending"; changed: false }
  /** Nothing to record: the withdrawal is settled already. */
  | { status: "not_pending"; changed: false }
  /** Not a withdrawal sent to PayPal (in that batch): nothing changed. */
  | { status: "not_sent"; changed: false };

/**
 * Settles (once) or records what PayPal reported about a withdrawal it was sent (in `batchId`,
 * when known). A withdrawal that is already settled is left as it is (`changed: false`), so
 * repeated webhooks and syncs are harmless; one that is not PayPal's to settle (UPI, bank, never
 * sent, another batch) is not touched (`not_sent`). The database decides both
 * (apply_paypal_payout); an unknown withdrawal is refused (withdrawal_not_found).
 */
export async function applyPayoutOutcome(
  db: Database,
  withdrawalId: string,
  outcome: PayoutOutcome,
  batchId: string | null,
): Promise<AppliedOutcome> {
  return db.rpc<AppliedOutcome>("apply_paypal_payout", {
    p_withdrawal_id: withdrawalId,
    p_payout_batch_id: batchId,
    p_payout_status: outcome.payoutStatus,
    p_settle: outcome.settle,
    p_reference: outcome.settle === "completed" ? outcome.reference : null,
    p_reason: outcome.settle === "failed" ? outcome.reason : null,
  });
}
