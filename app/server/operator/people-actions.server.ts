import type { AdjustmentLimits, PersonAdjustment } from "~/domain/operator-people";
import { formatDollars } from "~/domain/money";
import { requestVerificationEmail } from "../auth/email-verification.server";
import { endEverySessionOf } from "../auth/session.server";
import { getDatabase } from "../db/database.server";
import { createOperator, type Actor } from "../withdrawals/payouts/operator.server";
import type { Operator } from "./access.server";

/**
 * What an operator does to an account from its page (docs/operator-console.md, "People"): balance
 * adjustments (a second operator approves large ones), cash-outs paused or resumed, the account
 * closed or reopened, its sessions ended, the verification email sent again, a note. Each is one
 * SQL call that checks the operator's role and writes the audit entry; what happens outside the
 * database (Firebase, email) is done first and recorded once done.
 */

const actorOf = (operator: Operator): Actor => ({ name: operator.name, userId: operator.uid });

async function accountWork() {
  return createOperator({ db: await getDatabase(), paypal: null });
}

/** The account's adjustments (those waiting for a second operator first) and the amount above which one waits. */
export async function readAdjustments(
  operatorId: string,
  userId: string,
): Promise<AdjustmentLimits & { adjustments: PersonAdjustment[] }> {
  const db = await getDatabase();
  return db.rpc("operator_adjustments", { p_operator_id: operatorId, p_user_id: userId });
}

export interface AdjustmentResult {
  id: number;
  state: "applied" | "awaiting_approval";
  amount: number;
  balance?: number;
  limit?: number;
  /** What went through on one operator's word for this person in the window, before this one. */
  window_sum?: number;
  window_hours?: number;
  /** Which limit made it wait: this person's, or what this operator adjusted for everyone. */
  waits_for?: "person" | "operator";
  operator_limit?: number;
  /** What this operator applied on their own word, for everyone, in the window, before this one. */
  operator_sum?: number;
}

/**
 * Why an adjustment waits, in the operator's words: `what` (such as "$40.00" or "400 coins ($4.00)")
 * alone, or with what went through on one word in the window, is past the person's or the operator's limit.
 */
export function whyAdjustmentWaits(what: string, result: AdjustmentResult): string {
  const byOperator = result.waits_for === "operator";
  const limit = formatDollars((byOperator ? result.operator_limit : result.limit) ?? 0);
  const earlier = Number((byOperator ? result.operator_sum : result.window_sum) ?? 0);
  const withEarlier =
    earlier > 0
      ? ` with the ${formatDollars(earlier)} ${byOperator ? "you adjusted for everyone" : "adjusted for them"} in the last ${result.window_hours ?? 24} hours`
      : "";
  return `${what}${withEarlier} is more than ${limit}: another finance operator or owner must approve it on the person's page.`;
}

/** A credit (positive) or debit (negative) in dollars; above the owner's limit it waits for a second operator. */
export async function adjustBalance(
  operator: Operator,
  userId: string,
  change: { amount: number; kind: "earned" | "bonus"; reason: string; missingCreditReportId?: number | null },
): Promise<AdjustmentResult> {
  const db = await getDatabase();
  return db.rpc<AdjustmentResult>("operator_adjust_balance", {
    p_operator_id: operator.uid,
    p_actor: operator.name,
    p_user_id: userId,
    p_amount: change.amount,
    p_kind: change.kind,
    p_reason: change.reason,
    p_missing_credit_report_id: change.missingCreditReportId ?? null,
  });
}

export async function decideAdjustment(operator: Operator, adjustmentId: number, approve: boolean, reason: string) {
  const db = await getDatabase();
  return db.rpc<{ id: number; state: string; changed: boolean; amount: number }>("operator_decide_adjustment", {
    p_operator_id: operator.uid,
    p_actor: operator.name,
    p_adjustment_id: adjustmentId,
    p_approve: approve,
    p_reason: reason || null,
  });
}

export async function addNote(operator: Operator, userId: string, note: string) {
  const db = await getDatabase();
  await db.rpc("operator_add_note", {
    p_operator_id: operator.uid,
    p_actor: operator.name,
    p_user_id: userId,
    p_note: note,
  });
}

export async function setCashOutsPaused(operator: Operator, userId: string, paused: boolean, reason: string) {
  return (await accountWork()).setPaused(userId, paused, reason || undefined, actorOf(operator));
}

export async function closeAccount(operator: Operator, userId: string, reason: string) {
  return (await accountWork()).ban(userId, reason, actorOf(operator));
}

export async function reopenAccount(operator: Operator, userId: string) {
  return (await accountWork()).unban(userId, actorOf(operator));
}

async function recordAccountAction(
  operator: Operator,
  userId: string,
  action: "revoke_sessions" | "resend_verification",
) {
  const db = await getDatabase();
  await db.rpc("operator_record_account_action", {
    p_operator_id: operator.uid,
    p_actor: operator.name,
    p_user_id: userId,
    p_action: action,
  });
}

/** Ends every session of the account on every device, then records it. */
export async function signOutEveryDevice(operator: Operator, userId: string): Promise<void> {
  await endEverySessionOf(userId);
  await recordAccountAction(operator, userId, "revoke_sessions");
}

/**
 * Sends the verification email again (the person's own hourly allowance applies); the refusal's
 * words, or null. Its link returns to the app as the person's own does (`request`: the console's).
 */
export async function resendVerificationEmail(
  operator: Operator,
  userId: string,
  request: Request,
): Promise<string | null> {
  const refused = await requestVerificationEmail(userId, request);
  if (refused) return refused;
  await recordAccountAction(operator, userId, "resend_verification");
  return null;
}
