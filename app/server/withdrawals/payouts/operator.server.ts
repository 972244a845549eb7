import { ruleViolation, type Database } from "../../db/core.server";
import { toCsv } from "./csv.server";
import { PayPalError, type PayoutBatch, type PayPalClient } from "./paypal.server";
import { applyPayoutOutcome, payoutOutcome } from "./payout-status.server";

/**
 * The operator's payout work (`npm run payouts`), over the SQL functions of
 * 20261123000000_cash_out_and_referrals.sql: review pending withdrawals, pay PayPal ones through
 * PayPal Payouts, read their outcome back, export UPI and bank ones to pay by hand, settle by hand.
 */

/** An operator's mistake or a missing configuration: shown as one line, never a stack trace. */
export class OperatorError extends Error {
  name = "OperatorError";
}

export const WITHDRAWAL_STATUSES = ["pending", "completed", "failed"] as const;
export const PAYMENT_METHODS = ["paypal", "upi", "bank", "giftcard"] as const;
type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYPAL_NOT_CONFIGURED = "PayPal is not configured: set PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET";

// Balances are dollars (app_config.coins_per_dollar), so payouts are in US dollars.
const PAYOUT_CURRENCY = "USD";
const MAX_REFERENCE_LENGTH = 200; // withdrawals.reference
const MAX_REASON_LENGTH = 500; // withdrawals.failure_reason
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One row of operator_withdrawals(): the withdrawal and the signals that help spot abuse. */
export interface ReviewedWithdrawal {
  id: string;
  created_at: string;
  user_id: string;
  email: string | null;
  email_verified: boolean;
  amount: number;
  payment_method: PaymentMethod;
  recipient: string;
  /** What is paid in the rail's own money, fixed when asked for (UPI: INR; decision 087). */
  payout_currency: string | null;
  payout_amount: number | null;
  payout_rate: number | null;
  /** The rail paying it: PayPal, RazorpayX, or none (by hand, or not yet). */
  payout_rail: "paypal" | "razorpayx" | "tremendous" | null;
  status: WithdrawalStatus;
  reference: string | null;
  failure_reason: string | null;
  payout_batch_id: string | null;
  payout_status: string | null;
  sent_at: string | null;
  account_created_at: string;
  /** The account's balance now: below zero when a reversal took back money already withdrawn. */
  balance: number;
  /** Ledger type → dollars, withdrawals left out. */
  earnings_by_source: Record<string, number>;
  /** Other users who asked for money to the same address (case-insensitive). */
  same_address_accounts: string[];
  /** docs/decisions/068: waiting for an operator, approved (by the score or an operator), or refused. */
  review_state: ReviewState;
  /** 0 to 100, recorded when the withdrawal was asked for (null: made before scores existed). */
  risk_score: number | null;
  risk_reasons: RiskReason[];
  reviewed_at: string | null;
  reviewed_by: string | null;
  payouts_paused: boolean;
  banned: boolean;
}

export type ReviewState = "review" | "approved" | "rejected";

/** One term of a withdrawal's risk score, with the other accounts behind it. */
export interface RiskReason {
  code: string;
  points: number;
  detail: string;
  accounts: string[];
}

/** One row of operator_review_queue(): a withdrawal waiting for an operator. */
export interface QueuedWithdrawal {
  id: string;
  created_at: string;
  user_id: string;
  email: string | null;
  account_created_at: string;
  amount: number;
  payment_method: PaymentMethod;
  recipient: string;
  risk_score: number | null;
  risk_reasons: RiskReason[];
  payouts_paused: boolean;
  banned: boolean;
  first_withdrawal: boolean;
}

export type ApproveResult = {
  id: string;
  result:
    "approved" | "already_approved" | "not_pending" | "not_found" | "payouts_paused" | "account_banned" | "own_account";
};

export interface BanResult {
  user_id: string;
  changed: boolean;
  /** Withdrawals refused and refunded by the ban. */
  rejected: string[];
  /** Withdrawals already handed to PayPal: PayPal settles them (sync). */
  still_sent: string[];
}

/** One row of operator_negative_balances(): an account a reversal left below zero. */
export interface NegativeAccount {
  user_id: string;
  email: string | null;
  /** Below zero, in dollars. */
  balance: number;
  /** The reversals that took money back from it, oldest first (amounts below zero). */
  reversals: { provider: string; transaction_id: string; amount: number; created_at: string }[];
}

export type SendResult =
  | { id: string; result: "sent"; amount: number; receiver: string; batchId: string; batchStatus: string }
  | { id: string; result: "already_sent"; batchId: string | null }
  /** PayPal said no (4xx); the withdrawal stays pending. */
  | { id: string; result: "refused"; error: string; paypalName: string }
  /**
   * PayPal could not be reached or kept failing, or accepted the payout but it could not be
   * recorded (`unrecorded`); the withdrawal stays pending and a new send is safe (paid once).
   */
  | { id: string; result: "error"; error: string; unrecorded?: boolean };

export type SyncResult =
  | {
      id: string;
      result: "completed" | "failed" | "pending" | "not_pending" | "not_sent";
      payoutStatus: string;
      changed: boolean;
      reference?: string | null;
      reason?: string;
    }
  | { id: string; result: "error"; error: string };

export interface SettleResult {
  id: string;
  created_at: string;
  amount: number;
  payment_method: PaymentMethod;
  status: WithdrawalStatus;
  /** False when the withdrawal was settled before (nothing changed). */
  changed: boolean;
}

/** UPI and bank withdrawals to pay by hand, as the CSV `export-upi` (and the console's export) writes. */
export function unpaidWithdrawalsCsv(
  withdrawals: readonly Pick<
    ReviewedWithdrawal,
    "id" | "created_at" | "amount" | "payment_method" | "recipient" | "email" | "payout_currency" | "payout_amount"
  >[],
): string {
  // A UPI withdrawal is paid in the rupees fixed when it was asked for (decision 087), not at
  // today's rate: its `amount_to_pay` and `currency` say what to send.
  return toCsv(
    ["id", "created_at", "amount", "method", "upi_id_or_bank_details", "email", "amount_to_pay", "currency"],
    withdrawals.map((withdrawal) => [
      withdrawal.id,
      withdrawal.created_at,
      Number(withdrawal.amount).toFixed(2),
      withdrawal.payment_method,
      withdrawal.recipient,
      withdrawal.email,
      Number(withdrawal.payout_amount ?? withdrawal.amount).toFixed(2),
      withdrawal.payout_currency ?? "USD",
    ]),
  );
}

/** A withdrawal id as the database writes it, or an OperatorError. */
function withdrawalId(input: string): string {
  const id = input.trim().toLowerCase();
  if (!UUID.test(id)) throw new OperatorError(`"${input}" is not a withdrawal id (ids look like 7d1f0c9e-…)`);
  return id;
}

/**
 * Who acts: the name the audit log records, and the signed-in operator's account when the console
 * acts (the database then checks their role); the command line names only a name.
 */
export interface Actor {
  name: string;
  userId: string | null;
}

export function createOperator({
  db,
  paypal,
  rupeeUpiByRail = false,
}: {
  db: Database;
  paypal: PayPalClient | null;
  /** RazorpayX pays the UPI cash-outs whose rupees were fixed: export-upi leaves them out. */
  rupeeUpiByRail?: boolean;
}) {
  const review = (status: WithdrawalStatus | null, method: PaymentMethod | null) =>
    db.rpc<ReviewedWithdrawal[]>("operator_withdrawals", { p_status: status, p_method: method });

  function requirePayPal(): PayPalClient {
    if (!paypal) throw new OperatorError(PAYPAL_NOT_CONFIGURED);
    return paypal;
  }

  /** Why `id` is not among the pending PayPal withdrawals (read only when an operator asks for one). */
  async function notSendable(id: string): Promise<OperatorError> {
    const withdrawal = (await review(null, null)).find((candidate) => candidate.id === id);
    if (!withdrawal) return new OperatorError(`No withdrawal ${id}`);
    if (withdrawal.payment_method !== "paypal") {
      return new OperatorError(
        `Withdrawal ${id} is paid by ${withdrawal.payment_method}, not PayPal: pay it by hand (export-upi), then settle it`,
      );
    }
    if (withdrawal.status === "pending" && withdrawal.review_state === "review") {
      return new OperatorError(`Withdrawal ${id} is waiting for review: approve it first (review, approve)`);
    }
    return new OperatorError(`Withdrawal ${id} is already ${withdrawal.status}`);
  }

  async function sendOne(
    paypalClient: PayPalClient,
    withdrawal: ReviewedWithdrawal,
    operatorId: string | null,
  ): Promise<SendResult> {
    const { id } = withdrawal;
    if (withdrawal.sent_at) return { id, result: "already_sent", batchId: withdrawal.payout_batch_id };
    // Claimed before PayPal is asked: while the answer is awaited (or unknown), nothing refunds it.
    try {
      // The console's operator is named: SQL refuses to pay their own cash-out.
      await db.rpc("claim_payout", { p_withdrawal_id: id, p_operator_id: operatorId });
    } catch (error) {
      const rule = ruleViolation(error)?.rule;
      if (rule === "withdrawal_not_pending" || rule === "withdrawal_not_approved") {
        return { id, result: "error", error: `Withdrawal ${id} was settled or refused meanwhile: nothing was sent` };
      }
      throw error;
    }
    let batch: { batchId: string; batchStatus: string };
    try {
      batch = await paypalClient.createPayout({
        withdrawalId: id,
        amount: Number(withdrawal.amount).toFixed(2),
        currency: PAYOUT_CURRENCY,
        receiver: withdrawal.recipient,
      });
    } catch (error) {
      if (!(error instanceof PayPalError)) throw error;
      // No answer (network, 5xx after the retries): PayPal may have paid. The claim stays; sending
      // again asks with the same request id and learns PayPal's answer.
      if (!error.refused)
        return { id, result: "error", error: `${error.message}: send it again to learn PayPal's answer` };
      // PayPal already holds a batch with this id that was made with another request id (its
      // request-id memory has expired): the money may have left. Nothing is sent again.
      const alreadyUsed = error.issues.includes("SENDER_BATCH_ID_ALREADY_USED");
      // Refused for certain: nothing left, so the withdrawal may be refunded or sent again.
      if (!alreadyUsed) await db.rpc("release_payout", { p_withdrawal_id: id });
      const earlier = alreadyUsed
        ? "; PayPal already has a payout for this withdrawal: find it in PayPal, then settle the withdrawal by hand"
        : "";
      return { id, result: "refused", error: error.message + earlier, paypalName: error.paypalName };
    }
    try {
      await db.rpc("mark_payout_sent", {
        p_withdrawal_id: id,
        p_batch_id: batch.batchId,
        p_payout_status: batch.batchStatus,
      });
    } catch (error) {
      if (ruleViolation(error)?.rule === "withdrawal_not_pending") {
        return {
          id,
          result: "error",
          error: `PayPal accepted payout batch ${batch.batchId}, but the withdrawal was settled meanwhile: check it in PayPal`,
        };
      }
      // Paid but not recorded (the database failed): a new send records it without paying again.
      return {
        id,
        result: "error",
        error: `PayPal accepted payout batch ${batch.batchId}, but it could not be recorded (${(error as Error).message}): run send again`,
        unrecorded: true,
      };
    }
    return { id, result: "sent", amount: withdrawal.amount, receiver: withdrawal.recipient, ...batch };
  }

  return {
    /** The review list: status `null` means every status, method `null` every method. */
    async list({ status = "pending", method = null }: { status?: string | null; method?: string | null } = {}): Promise<
      ReviewedWithdrawal[]
    > {
      if (status !== null && !(WITHDRAWAL_STATUSES as readonly string[]).includes(status)) {
        throw new OperatorError(`Unknown status "${status}": use ${WITHDRAWAL_STATUSES.join(", ")} or all`);
      }
      if (method !== null && !(PAYMENT_METHODS as readonly string[]).includes(method)) {
        throw new OperatorError(`Unknown method "${method}": use ${PAYMENT_METHODS.join(", ")}`);
      }
      return review(status as WithdrawalStatus | null, method as PaymentMethod | null);
    },

    /** Accounts below zero (docs/decisions/065), most in debt first, with the reversals behind them. */
    negative(): Promise<NegativeAccount[]> {
      return db.rpc<NegativeAccount[]>("operator_negative_balances");
    },

    /**
     * Pays pending PayPal withdrawals through PayPal, one payout each, one after the other: the
     * given ids, or "all" that have not been sent. A withdrawal is marked sent only once PayPal has
     * accepted it; one PayPal refuses stays pending with PayPal's error in the result.
     */
    async send(selection: string[] | "all", operatorId: string | null = null): Promise<SendResult[]> {
      const paypalClient = requirePayPal();
      // Only approved withdrawals leave (docs/decisions/068); one waiting for review is named.
      const pending = (await review("pending", "paypal")).filter(
        (withdrawal) => withdrawal.review_state === "approved",
      );
      let chosen: ReviewedWithdrawal[];
      if (selection === "all") {
        chosen = pending.filter((withdrawal) => !withdrawal.sent_at);
      } else {
        if (selection.length === 0) throw new OperatorError("Name the withdrawals to send, or --all");
        const ids = [...new Set(selection.map(withdrawalId))];
        const byId = new Map(pending.map((withdrawal) => [withdrawal.id, withdrawal]));
        const unknown = ids.find((id) => !byId.has(id));
        if (unknown) throw await notSendable(unknown);
        chosen = ids.map((id) => byId.get(id)!);
      }
      const results: SendResult[] = [];
      for (const withdrawal of chosen) {
        const result = await sendOne(paypalClient, withdrawal, operatorId);
        results.push(result);
        // The database is failing: stop paying what could not be recorded either.
        if (result.result === "error" && result.unrecorded) break;
      }
      return results;
    },

    /** Reads back the PayPal status of every sent, still pending withdrawal and settles what is decided. */
    async sync(): Promise<SyncResult[]> {
      const paypalClient = requirePayPal();
      const sent = (await review("pending", "paypal")).filter((withdrawal) => withdrawal.payout_batch_id);
      const batches = new Map<string, Promise<PayoutBatch>>();
      const results: SyncResult[] = [];
      for (const { id, payout_batch_id: batchId } of sent) {
        try {
          if (!batches.has(batchId!)) batches.set(batchId!, paypalClient.getPayoutBatch(batchId!));
          const batch = await batches.get(batchId!)!;
          const item = batch.items.find((candidate) => candidate.senderItemId === id);
          if (!item) {
            results.push({ id, result: "error", error: `PayPal's batch ${batchId} has no item for this withdrawal` });
            continue;
          }
          const outcome = payoutOutcome(item);
          const applied = await applyPayoutOutcome(db, id, outcome, batchId!);
          results.push({
            id,
            result: applied.status,
            payoutStatus: outcome.payoutStatus,
            changed: applied.changed,
            ...(outcome.settle === "completed" ? { reference: outcome.reference } : {}),
            ...(outcome.settle === "failed" ? { reason: outcome.reason } : {}),
          });
        } catch (error) {
          if (!(error instanceof PayPalError)) throw error;
          results.push({ id, result: "error", error: error.message });
        }
      }
      return results;
    },

    /** Pending UPI and bank withdrawals as CSV, to pay by hand and then settle. */
    async exportUpi(): Promise<{ csv: string; withdrawals: ReviewedWithdrawal[] }> {
      // Approved ones only: a withdrawal waiting for review is not paid by hand either.
      const withdrawals = (await review("pending", null)).filter(
        (withdrawal) =>
          (withdrawal.payment_method === "upi" || withdrawal.payment_method === "bank") &&
          withdrawal.review_state === "approved" &&
          // Paid by RazorpayX (decision 088): claimed, or in rupees while it is on.
          withdrawal.payout_rail === null &&
          !(rupeeUpiByRail && withdrawal.payment_method === "upi" && withdrawal.payout_currency === "INR"),
      );
      return { csv: unpaidWithdrawalsCsv(withdrawals), withdrawals };
    },

    /**
     * Settles a withdrawal by hand: completed with the payment's reference, or failed with a
     * reason (the money goes back to the balance). Once only: a repeat returns `changed: false`.
     * A withdrawal handed to PayPal is PayPal's to settle (sync, webhook) unless `force` is given:
     * refunding one that PayPal then pays would pay twice.
     */
    async settle(
      id: string,
      status: string,
      {
        reference,
        reason,
        force = false,
        actor,
      }: { reference?: string; reason?: string; force?: boolean; actor?: Actor } = {},
    ): Promise<SettleResult> {
      const withdrawal = withdrawalId(id);
      if (status !== "completed" && status !== "failed") {
        throw new OperatorError(`Unknown status "${status}": settle a withdrawal as completed or failed`);
      }
      if (status === "completed" && reason !== undefined) throw new OperatorError("--reason goes with failed");
      if (status === "failed" && reference !== undefined) throw new OperatorError("--reference goes with completed");
      if ((reference?.trim().length ?? 0) > MAX_REFERENCE_LENGTH) {
        throw new OperatorError(`The reference can be at most ${MAX_REFERENCE_LENGTH} characters`);
      }
      if ((reason?.trim().length ?? 0) > MAX_REASON_LENGTH) {
        throw new OperatorError(`The reason can be at most ${MAX_REASON_LENGTH} characters`);
      }
      // Checked in PayPal by the operator: a claim left by a payout whose answer never came is let go.
      if (force) await db.rpc("release_payout", { p_withdrawal_id: withdrawal });
      if (!force) {
        const sent = (await review("pending", "paypal")).find(
          (candidate) => candidate.id === withdrawal && candidate.sent_at,
        );
        if (sent) {
          throw new OperatorError(
            `Withdrawal ${withdrawal} was sent to PayPal (batch ${sent.payout_batch_id}, ${sent.payout_status ?? "no status yet"}): ` +
              "run sync to settle it from PayPal, or add --force once you have checked it in PayPal",
          );
        }
      }
      try {
        return await db.rpc<SettleResult>("settle_withdrawal", {
          p_withdrawal_id: withdrawal,
          p_status: status,
          p_reference: reference ?? null,
          p_reason: reason ?? null,
          p_actor: actor?.name ?? null,
          p_actor_user_id: actor?.userId ?? null,
        });
      } catch (error) {
        if (ruleViolation(error)?.rule === "withdrawal_not_found")
          throw new OperatorError(`No withdrawal ${withdrawal}`);
        throw error;
      }
    },

    /** Withdrawals waiting for an operator, oldest first, with each score, its reasons and the linked accounts. */
    reviewQueue(): Promise<QueuedWithdrawal[]> {
      return db.rpc<QueuedWithdrawal[]>("operator_review_queue");
    },

    /** Approves withdrawals waiting for review (each once); one result per id. */
    approve(ids: string[], actor: Actor): Promise<ApproveResult[]> {
      if (ids.length === 0) throw new OperatorError("Name the withdrawals to approve");
      return db.rpc<ApproveResult[]>("approve_withdrawals", {
        p_ids: [...new Set(ids.map(withdrawalId))],
        p_actor: actor.name,
        p_actor_user_id: actor.userId,
      });
    },

    /** Refuses a withdrawal not yet sent: refunded through the ledger, the owner told why. */
    async reject(id: string, reason: string | undefined, actor: Actor): Promise<SettleResult> {
      const withdrawal = withdrawalId(id);
      if (!reason?.trim()) throw new OperatorError("reject needs --reason: the owner is told it");
      try {
        return await db.rpc<SettleResult>("reject_withdrawal", {
          p_withdrawal_id: withdrawal,
          p_reason: reason,
          p_actor: actor.name,
          p_actor_user_id: actor.userId,
        });
      } catch (error) {
        if (ruleViolation(error)?.rule === "withdrawal_not_found")
          throw new OperatorError(`No withdrawal ${withdrawal}`);
        throw error;
      }
    },

    /** Pauses or resumes an account's cash-outs (the person sees that they are paused and how to reach support). */
    setPaused(
      userId: string,
      paused: boolean,
      reason: string | undefined,
      actor: Actor,
    ): Promise<{ user_id: string; paused: boolean; changed: boolean }> {
      if (paused && !reason?.trim()) throw new OperatorError("pause needs --reason (kept in the operator log)");
      return db.rpc("set_payouts_paused", {
        p_user_id: accountId(userId),
        p_paused: paused,
        p_reason: reason ?? null,
        p_actor: actor.name,
        p_actor_user_id: actor.userId,
      });
    },

    /** Closes an account: sign-in refused, its sessions ended, its unsent withdrawals refused and refunded. */
    ban(userId: string, reason: string | undefined, actor: Actor): Promise<BanResult> {
      if (!reason?.trim())
        throw new OperatorError("ban needs --reason (the owner is told it with each refused withdrawal)");
      return db.rpc<BanResult>("ban_account", {
        p_user_id: accountId(userId),
        p_reason: reason,
        p_actor: actor.name,
        p_actor_user_id: actor.userId,
      });
    },

    unban(userId: string, actor: Actor): Promise<{ user_id: string; changed: boolean }> {
      return db.rpc("unban_account", {
        p_user_id: accountId(userId),
        p_actor: actor.name,
        p_actor_user_id: actor.userId,
      });
    },
  };
}

/** An account id as an operator types it (Firebase uids: letters, digits, at most 128 characters). */
function accountId(input: string): string {
  const id = input.trim();
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new OperatorError(`"${input}" is not an account id`);
  return id;
}
