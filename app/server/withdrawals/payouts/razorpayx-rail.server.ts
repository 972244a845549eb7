import { ruleViolation, type Database } from "../../db/core.server";
import { getDatabase } from "../../db/database.server";
import { getEnv } from "../../runtime/env.server";
import { startIntervalWorker } from "../../runtime/interval-worker.server";
import { logValue } from "../../runtime/log.server";
import {
  getRazorpayXClient,
  payoutRequestBody,
  RazorpayXError,
  type PayoutRequestBody,
  type RazorpayXClient,
  type RazorpayXConfig,
  type RazorpayXPayout,
} from "./razorpayx.server";

/**
 * UPI paid by RazorpayX (docs/decisions/088): each run pays the approved UPI cash-outs whose rupees
 * were fixed, one payout each, and reads back those sent whose last word is older than the
 * reconcile delay. The request is stored with the withdrawal before the first call
 * (claim_razorpayx_payout) and sent unchanged, with the withdrawal id as X-Payout-Idempotency, on
 * every attempt: one payout per withdrawal whatever fails. What RazorpayX answers is applied by
 * apply_razorpayx_payout, as a webhook's news is.
 */

const PER_RUN = 50;
// RazorpayX asks integrations to stay within 5 to 10 transactions a second (docs/rails/razorpayx.md,
// "Pace"): a server starts at most one payout call every this many milliseconds.
const PAYOUT_CALL_SPACING_MS = 125;

export type SendOutcome =
  | { id: string; result: "sent"; payoutId: string; status: string }
  | { id: string; result: "retry"; error: string }
  | { id: string; result: "refused"; error: string }
  | { id: string; result: "held"; error: string }
  | { id: string; result: "skipped"; error: string };

export interface RailRun {
  sent: SendOutcome[];
  settled: { id: string; status: string; changed: boolean }[];
  errors: string[];
}

interface DueToSend {
  id: string;
  user_id: string;
  recipient_upi: string;
  payout_amount: string | number;
}

/** Applies what RazorpayX said of a withdrawal's payout (its answer, a webhook, a read-back). */
export function applyRazorpayXPayout(
  db: Database,
  withdrawalId: string,
  payout: RazorpayXPayout,
  source: "create" | "webhook" | "reconciler",
) {
  return db.rpc<{ status: string; changed: boolean }>("apply_razorpayx_payout", {
    p_withdrawal_id: withdrawalId,
    p_payout_id: payout.id,
    p_status: payout.status,
    p_utr: payout.utr,
    p_reason: payout.reason,
    p_source: source,
  });
}

/** What the person is told of a UPI ID RazorpayX says does not exist (the history shows it). */
export const UPI_ID_DOES_NOT_EXIST =
  "This UPI ID does not exist. Check it and ask for the cash-out again: the money is back in your balance.";

interface StoredValidation {
  validation_id: string | null;
  status: string;
  account_status: string | null;
}

/**
 * Whether a UPI ID may be paid (RAZORPAYX_VALIDATE_UPI): RazorpayX's last answer about it, asked for
 * once before its first payout and read back while it waits. "wait" until the bank has answered.
 */
async function upiIdVerdict(
  db: Database,
  client: RazorpayXClient,
  due: DueToSend,
): Promise<"pay" | "invalid" | "wait"> {
  let stored = await db.rpc<StoredValidation | null>("upi_validation_of", { p_address: due.recipient_upi });
  if (!stored || stored.status === "failed" || (stored.status === "created" && stored.validation_id)) {
    const validation =
      stored?.status === "created" && stored.validation_id
        ? await client.getValidation(stored.validation_id)
        : await client.validateUpiId(due.recipient_upi, due.id, due.user_id);
    await db.rpc("record_upi_validation", {
      p_address: due.recipient_upi,
      p_validation_id: validation.id,
      p_status: validation.status,
      p_account_status: validation.accountStatus,
      p_registered_name: validation.registeredName,
    });
    stored = { validation_id: validation.id, status: validation.status, account_status: validation.accountStatus };
  }
  if (stored.status !== "completed") return "wait";
  if (stored.account_status === "invalid") return "invalid";
  return stored.account_status === "active" || stored.account_status === "valid" ? "pay" : "wait";
}

async function sendOne(db: Database, client: RazorpayXClient, config: RazorpayXConfig, due: DueToSend) {
  const { id } = due;
  if (config.validateUpi) {
    let verdict: "pay" | "invalid" | "wait";
    try {
      verdict = await upiIdVerdict(db, client, due);
    } catch (error) {
      if (!(error instanceof RazorpayXError)) throw error;
      return { id, result: "retry", error: error.message } satisfies SendOutcome;
    }
    if (verdict === "wait")
      return { id, result: "skipped", error: "its UPI ID is being checked" } satisfies SendOutcome;
    if (verdict === "invalid") {
      // Nothing was sent: the cash-out fails and the money goes back, with the words to fix it.
      await db.rpc("settle_withdrawal", { p_withdrawal_id: id, p_status: "failed", p_reason: UPI_ID_DOES_NOT_EXIST });
      return { id, result: "refused", error: "the UPI ID does not exist" } satisfies SendOutcome;
    }
  }
  let request: PayoutRequestBody;
  try {
    const claim = await db.rpc<{ request: PayoutRequestBody }>("claim_razorpayx_payout", {
      p_withdrawal_id: id,
      p_request: payoutRequestBody(due, config),
    });
    // The stored request, as the database keeps it: the same bytes on every attempt.
    request = claim.request;
  } catch (error) {
    const rule = ruleViolation(error)?.rule;
    if (rule) return { id, result: "skipped", error: `not paid: ${rule}` } satisfies SendOutcome;
    throw error;
  }
  let payout: RazorpayXPayout;
  try {
    payout = await client.createPayout(id, request);
  } catch (error) {
    if (!(error instanceof RazorpayXError)) throw error;
    // No answer (network, 5xx, 429 after the retries): a payout may exist. The claim stays, and
    // the next run asks again with the same key and body, and learns RazorpayX's answer.
    if (!error.refused) return { id, result: "retry", error: error.message } satisfies SendOutcome;
    // The key was used with another body: a payout may exist. Left for an operator, never refunded.
    if (error.aboutIdempotency) return { id, result: "held", error: error.message } satisfies SendOutcome;
    // Our credentials or account: nothing was made. The claim is given back; the run stops.
    if (error.ourSetup) {
      await db.rpc("release_razorpayx_claim", { p_withdrawal_id: id });
      throw error;
    }
    // Refused for this payout (its UPI ID, its amount): nothing was made, so the money goes back.
    await db.rpc("settle_withdrawal", {
      p_withdrawal_id: id,
      p_status: "failed",
      p_reason: `RazorpayX refused the UPI payout: ${error.description ?? error.code}`.slice(0, 500),
    });
    return { id, result: "refused", error: error.message } satisfies SendOutcome;
  }
  await applyRazorpayXPayout(db, id, payout, "create");
  return { id, result: "sent", payoutId: payout.id, status: payout.status } satisfies SendOutcome;
}

/** One run: pays what is due, then reads back what has waited too long. */
export async function runRazorpayXPayouts(
  db: Database,
  client: RazorpayXClient,
  config: RazorpayXConfig,
): Promise<RailRun> {
  const due = await db.rpc<{ send: DueToSend[]; settle: { id: string; payout_id: string }[] }>("razorpayx_due", {
    p_limit: PER_RUN,
    p_settle_after_seconds: config.settleAfterSeconds,
  });
  const run: RailRun = { sent: [], settled: [], errors: [] };
  let lastCall = 0;
  for (const withdrawal of due.send) {
    const wait = lastCall + PAYOUT_CALL_SPACING_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    lastCall = Date.now();
    const outcome = await sendOne(db, client, config, withdrawal);
    run.sent.push(outcome);
    if (outcome.result === "retry" || outcome.result === "held") run.errors.push(outcome.error);
  }
  for (const { id, payout_id: payoutId } of due.settle) {
    try {
      const payout = await client.getPayout(payoutId);
      run.settled.push({ id, ...(await applyRazorpayXPayout(db, id, payout, "reconciler")) });
    } catch (error) {
      if (!(error instanceof RazorpayXError)) throw error;
      run.errors.push(error.message);
    }
  }
  return run;
}

/** Every RAZORPAYX_INTERVAL_SECONDS when RazorpayX is configured (entry.server.tsx calls it once). */
export function startRazorpayXPayouts(): void {
  const config = getEnv().razorpayx;
  const client = getRazorpayXClient();
  if (!config || !client) return;
  startIntervalWorker(
    "razorpayx payouts",
    config.intervalMs,
    async () => {
      const run = await runRazorpayXPayouts(await getDatabase(), client, config);
      const sent = run.sent.filter((outcome) => outcome.result === "sent").length;
      if (sent > 0 || run.settled.length > 0)
        console.info(`razorpayx: ${sent} payout(s) sent, ${run.settled.length} read back`);
      for (const error of run.errors) console.warn(`razorpayx: ${logValue(error)}`);
    },
    "could not pay the UPI cash-outs",
  );
}
