import { getEnv } from "../runtime/env.server";
import type {
  ConsoleWithdrawal,
  PayoutEvent,
  WithdrawalCounts,
  WithdrawalFilters,
  WITHDRAWAL_VIEWS,
} from "~/domain/operator-withdrawals";
import { getDatabase } from "../db/database.server";
import {
  createOperator,
  OperatorError,
  unpaidWithdrawalsCsv,
  type Actor,
  type ApproveResult,
  type SendResult,
} from "../withdrawals/payouts/operator.server";
import { getPayPalClient } from "../withdrawals/payouts/paypal.server";
import type { Operator } from "./access.server";

/**
 * Withdrawals in the operator console (docs/operator-console.md, "Withdrawals"): the lists, one
 * withdrawal, and the money actions, through the same operator functions as `npm run payouts`
 * (app/server/withdrawals/payouts/operator.server.ts), with the signed-in operator's id so SQL checks the role.
 */

export const WITHDRAWAL_PAGE_SIZE = 50;

/** A page of a list; `next` is the cursor of the following page, or null on the last. */
export interface WithdrawalPage {
  rows: ConsoleWithdrawal[];
  next: { at: string; id: string } | null;
}

const actorOf = (operator: Operator): Actor => ({ name: operator.name, userId: operator.uid });

function payouts() {
  return getDatabase().then((db) =>
    createOperator({ db, paypal: getPayPalClient(), rupeeUpiByRail: getEnv().razorpayx !== null }),
  );
}

export async function listWithdrawals(
  operatorId: string,
  filters: WithdrawalFilters,
  cursor: { at: string; id: string } | null,
): Promise<WithdrawalPage> {
  const db = await getDatabase();
  const rows = await db.rpc<ConsoleWithdrawal[]>("operator_withdrawal_list", {
    p_operator_id: operatorId,
    p_view: filters.view satisfies (typeof WITHDRAWAL_VIEWS)[number]["value"],
    p_method: filters.method,
    p_min_age_hours: filters.minAgeHours,
    p_cursor_created_at: cursor?.at ?? null,
    p_cursor_id: cursor?.id ?? null,
    // One more than a page says whether there is another.
    p_limit: WITHDRAWAL_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, WITHDRAWAL_PAGE_SIZE);
  const last = page.at(-1);
  return { rows: page, next: rows.length > WITHDRAWAL_PAGE_SIZE && last ? { at: last.created_at, id: last.id } : null };
}

export async function withdrawalCounts(operatorId: string): Promise<WithdrawalCounts> {
  const db = await getDatabase();
  return db.rpc<WithdrawalCounts>("operator_withdrawal_counts", { p_operator_id: operatorId });
}

export type WithdrawalDetail = ConsoleWithdrawal & {
  actions: { id: number; at: string; actor: string; action: string; reason: string | null }[];
  /** What the rail reported of its payout, oldest first (RazorpayX, decision 088). */
  payout_events: PayoutEvent[];
};

export async function readWithdrawal(operatorId: string, id: string): Promise<WithdrawalDetail | null> {
  const db = await getDatabase();
  return db.rpc<WithdrawalDetail | null>("operator_withdrawal", { p_operator_id: operatorId, p_withdrawal_id: id });
}

/** What happened to one withdrawal an operator approved. */
export type ApprovalOutcome =
  | { id: string; outcome: "approved" }
  | { id: string; outcome: "sent"; batchId: string }
  | { id: string; outcome: "not_sent"; reason: string }
  | { id: string; outcome: Exclude<ApproveResult["result"], "approved"> };

/**
 * Approves withdrawals waiting for review, each once (SQL locks and checks each), then pays the
 * approved PayPal ones through PayPal right away. A PayPal withdrawal is paid once whoever presses
 * what: its id is the payout's idempotency key, and one already sent is not sent again.
 */
export async function approveWithdrawals(operator: Operator, ids: string[]): Promise<ApprovalOutcome[]> {
  const work = await payouts();
  const approved = await work.approve(ids, actorOf(operator));
  const outcomes: ApprovalOutcome[] = [];
  for (const { id, result } of approved) {
    if (result !== "approved") {
      outcomes.push({ id, outcome: result });
      continue;
    }
    const withdrawal = await readWithdrawal(operator.uid, id);
    if (withdrawal?.payment_method !== "paypal") {
      outcomes.push({ id, outcome: "approved" });
      continue;
    }
    outcomes.push(await payWithPayPal(work, id, operator));
  }
  return outcomes;
}

/** Sends one approved PayPal withdrawal that was not sent yet (PayPal was down or not set up at approval). */
export async function payApprovedWithPayPal(operator: Operator, id: string): Promise<ApprovalOutcome> {
  return payWithPayPal(await payouts(), id, operator);
}

async function payWithPayPal(
  work: Awaited<ReturnType<typeof payouts>>,
  id: string,
  operator: Operator,
): Promise<ApprovalOutcome> {
  let sent: SendResult[];
  try {
    sent = await work.send([id], operator.uid);
  } catch (error) {
    if (error instanceof OperatorError) return { id, outcome: "not_sent", reason: error.message };
    throw error;
  }
  const result = sent[0];
  if (!result) return { id, outcome: "not_sent", reason: "PayPal was not asked" };
  if (result.result === "sent") return { id, outcome: "sent", batchId: result.batchId };
  if (result.result === "already_sent") return { id, outcome: "sent", batchId: result.batchId ?? "" };
  return { id, outcome: "not_sent", reason: result.error };
}

/** Refuses a withdrawal not yet sent: refunded through the ledger, the owner told the reason. */
export async function rejectWithdrawal(operator: Operator, id: string, reason: string) {
  return (await payouts()).reject(id, reason, actorOf(operator));
}

/** A UPI or bank withdrawal paid by hand, with the payment's reference (UTR). */
export async function markWithdrawalPaid(operator: Operator, id: string, reference: string) {
  return (await payouts()).settle(id, "completed", { reference, actor: actorOf(operator) });
}

/** A UPI or bank withdrawal that could not be paid: the money goes back, the owner told why. */
export async function markWithdrawalFailed(operator: Operator, id: string, reason: string) {
  return (await payouts()).settle(id, "failed", { reason, actor: actorOf(operator) });
}

/**
 * The approved, unpaid UPI and bank withdrawals as CSV, as `npm run payouts -- export-upi` writes
 * them. The rows and the audit entry that says who took them come from one SQL call (finance).
 */
export async function exportUnpaidCsv(operator: Operator): Promise<{ csv: string; count: number }> {
  const db = await getDatabase();
  const withdrawals = await db.rpc<ConsoleWithdrawal[]>("operator_export_unpaid", {
    p_operator_id: operator.uid,
    p_actor: operator.name,
    // RazorpayX pays the UPI cash-outs in rupees (decision 088): not handed out to pay by hand too.
    p_rupee_upi_by_rail: getEnv().razorpayx !== null,
  });
  return { csv: unpaidWithdrawalsCsv(withdrawals), count: withdrawals.length };
}
