import type { Flash } from "~/domain/flash";
import type { ApprovalOutcome } from "./withdrawals.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// A timestamp as Postgres writes it in JSON ("2026-11-27T03:27:58.123456+00:00").
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

/** The next page's cursor a list's URL carries (`?at=<created_at>&id=<id>`), or null (edited by hand: the first page). */
export function readCursor(params: URLSearchParams): { at: string; id: string } | null {
  const at = params.get("at");
  const id = params.get("id");
  if (!at || !id || !TIMESTAMP.test(at) || !UUID.test(id) || Number.isNaN(Date.parse(at))) return null;
  return { at, id };
}

const WHY_NOT: Record<string, string> = {
  not_found: "no longer exists",
  not_pending: "was already settled or refused",
  already_approved: "was already approved",
  payouts_paused: "the account's cash-outs are paused",
  account_banned: "the account is closed",
  own_account: "it is your own cash-out: another operator approves it",
};

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** What the operator is told after approving: how many were approved, sent to PayPal, and why any were not. */
export function approvalFlash(outcomes: readonly ApprovalOutcome[]): Flash {
  const sent = outcomes.filter((outcome) => outcome.outcome === "sent").length;
  const byHand = outcomes.filter((outcome) => outcome.outcome === "approved").length;
  const notSent = outcomes.filter((outcome) => outcome.outcome === "not_sent");
  const refused = outcomes.filter((outcome) => Object.hasOwn(WHY_NOT, outcome.outcome));
  const approved = sent + byHand + notSent.length;
  const parts: string[] = [];
  if (sent) parts.push(`${count(sent, "payout")} sent to PayPal`);
  if (byHand) parts.push(`${count(byHand, "withdrawal")} to pay by hand (UPI or bank)`);
  for (const outcome of notSent) {
    if (outcome.outcome === "not_sent") parts.push(`not sent to PayPal yet: ${outcome.reason}`);
  }
  for (const outcome of refused) parts.push(`${outcome.id.slice(0, 8)}… not approved: ${WHY_NOT[outcome.outcome]}`);
  return {
    kind: approved > 0 && notSent.length === 0 && refused.length === 0 ? "success" : approved > 0 ? "info" : "error",
    title: approved > 0 ? `Approved ${count(approved, "withdrawal")}` : "Nothing was approved",
    description: parts.length ? parts.join("; ") + "." : undefined,
  };
}

/** What the operator is told after paying one approved PayPal withdrawal: sent, or why not (no "approved"). */
export function paymentFlash(outcome: ApprovalOutcome): Flash {
  if (outcome.outcome === "sent") {
    return { kind: "success", title: "Sent to PayPal", description: `PayPal payout batch ${outcome.batchId}.` };
  }
  if (outcome.outcome === "not_sent") {
    return { kind: "error", title: "Not sent to PayPal", description: `${outcome.reason}.` };
  }
  return { kind: "info", title: "Nothing was sent", description: WHY_NOT[outcome.outcome] };
}
