import { data } from "@remix-run/node";
import { getEnv } from "~/server/runtime/env.server";
import type { output } from "zod/mini";
import { withdrawalActions } from "~/domain/operator-withdrawals";
import { roleAtLeast, signedInRecently } from "~/domain/operator-roles";
import { ruleMessage } from "~/domain/rules";
import { WITHDRAWAL_MESSAGES, withdrawalActionSchema } from "~/domain/withdrawal-review-forms";
import { requireOperator } from "~/server/operator/access.server";
import { confirmRecentSignIn } from "~/server/operator/recent-sign-in.server";
import { auditRefusal } from "~/server/operator/refusals.server";
import { approvalFlash, paymentFlash } from "~/server/operator/withdrawal-pages.server";
import { getPayPalClient } from "~/server/withdrawals/payouts/paypal.server";
import {
  approveWithdrawals,
  markWithdrawalFailed,
  markWithdrawalPaid,
  payApprovedWithPayPal,
  readWithdrawal,
  rejectWithdrawal,
} from "~/server/operator/withdrawals.server";
import { redirectWithFlash, type Flash } from "~/server/http/flash.server";
import { parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_REASON = 500;
const MAX_REFERENCE = 200;

async function findWithdrawal(operatorId: string, id: string | undefined) {
  return id !== undefined && UUID.test(id) ? readWithdrawal(operatorId, id) : null;
}

/**
 * /admin/withdrawals/<id> (docs/operator-console.md, "Withdrawals"): one withdrawal, its review and
 * its audit entries, and what can be done to it now. An id no withdrawal has answers 404 in the console.
 */
export async function loadWithdrawal(request: Request, id: string | undefined) {
  const operator = await requireOperator(request, "support");
  const withdrawal = await findWithdrawal(operator.uid, id);
  const canAct = roleAtLeast(operator.role, "finance");
  const needsPassword = canAct && !signedInRecently(operator.authTime);
  const paypalReady = getPayPalClient() !== null;
  const razorpayxReady = getEnv().razorpayx !== null;
  if (!withdrawal)
    return data(
      { id: id ?? "", withdrawal: null, canAct, needsPassword, paypalReady, razorpayxReady },
      { status: 404 },
    );
  return { id: withdrawal.id, withdrawal, canAct, needsPassword, paypalReady, razorpayxReady };
}

/** Approve (and pay by PayPal), pay an approved PayPal one, reject, mark paid or failed: finance and owners. */
export async function withdrawalAction(request: Request, id: string | undefined) {
  const operator = await requireOperator(request, "finance");
  const submission = await parseForm(request, withdrawalActionSchema);
  if (submission.status !== "success") return rejectForm(submission, { formErrors: [WITHDRAWAL_MESSAGES.failed] });
  const form = submission.value;
  const withdrawal = await findWithdrawal(operator.uid, id);
  if (!withdrawal) return rejectForm(submission, { formErrors: [ruleMessage("withdrawal_not_found")] }, 404);
  // The checks a person can fix come before the password, so a wrong reason costs no password attempt.
  if (form.intent === "reject" || form.intent === "mark-failed") {
    if (!form.reason) return rejectForm(submission, { fieldErrors: { reason: [WITHDRAWAL_MESSAGES.reasonRequired] } });
    if (form.reason.length > MAX_REASON) {
      return rejectForm(submission, { fieldErrors: { reason: [WITHDRAWAL_MESSAGES.reasonTooLong] } });
    }
  }
  if (form.intent === "mark-paid") {
    if (!form.reference) {
      return rejectForm(submission, { fieldErrors: { reference: [WITHDRAWAL_MESSAGES.referenceRequired] } });
    }
    if (form.reference.length > MAX_REFERENCE) {
      return rejectForm(submission, { fieldErrors: { reference: [WITHDRAWAL_MESSAGES.referenceTooLong] } });
    }
  }
  const allowed = withdrawalActions(withdrawal, getPayPalClient() !== null, getEnv().razorpayx !== null);
  const possible = {
    approve: allowed.approve,
    pay: allowed.pay,
    reject: allowed.reject,
    "mark-paid": allowed.markPaid,
    "mark-failed": allowed.markFailed,
  }[form.intent];
  // Someone else acted first (or the page is old): say where it stands now, change nothing.
  if (!possible) return rejectForm(submission, { formErrors: [stale(withdrawal)] }, 409);

  const signIn = await confirmRecentSignIn(request, operator, form);
  if (!signIn.ok) return rejectForm(submission, { fieldErrors: { password: [signIn.problem] } }, signIn.status);

  let flash: Flash;
  try {
    flash = await act(operator, withdrawal.id, form);
  } catch (error) {
    await auditRefusal(operator, form.intent, error, {
      userId: withdrawal.user_id,
      recordKind: "withdrawal",
      recordId: withdrawal.id,
    });
    return replyWithDbError(submission, error, {
      fields: { reason_required: "reason", invalid_reason: "reason" },
      fallback: WITHDRAWAL_MESSAGES.failed,
      context: `console withdrawal ${form.intent}`,
    });
  }
  return redirectWithFlash(
    `/admin/withdrawals/${withdrawal.id}`,
    flash,
    signIn.setCookie ? { "Set-Cookie": signIn.setCookie } : {},
  );
}

type ActionForm = output<typeof withdrawalActionSchema>;

async function act(
  operator: Awaited<ReturnType<typeof requireOperator>>,
  id: string,
  form: ActionForm,
): Promise<Flash> {
  switch (form.intent) {
    case "approve":
      return approvalFlash(await approveWithdrawals(operator, [id]));
    case "pay":
      return paymentFlash(await payApprovedWithPayPal(operator, id));
    case "reject": {
      const result = await rejectWithdrawal(operator, id, form.reason);
      return result.changed
        ? {
            kind: "success",
            title: "Withdrawal refused",
            description: "The money is back in their balance, and they were told why.",
          }
        : { kind: "info", title: `Nothing changed: the withdrawal is already ${result.status}` };
    }
    case "mark-paid": {
      const result = await markWithdrawalPaid(operator, id, form.reference);
      return result.changed
        ? {
            kind: "success",
            title: "Marked paid",
            description: `Reference ${form.reference}. They were told it is paid.`,
          }
        : { kind: "info", title: `Nothing changed: the withdrawal is already ${result.status}` };
    }
    case "mark-failed": {
      const result = await markWithdrawalFailed(operator, id, form.reason);
      return result.changed
        ? {
            kind: "success",
            title: "Marked not paid",
            description: "The money is back in their balance, and they were told why.",
          }
        : { kind: "info", title: `Nothing changed: the withdrawal is already ${result.status}` };
    }
  }
}

function stale(withdrawal: { status: string; review_state: string; sent_at: string | null }): string {
  if (withdrawal.status !== "pending")
    return `This withdrawal is already ${withdrawal.status === "completed" ? "paid" : "failed or refused"}: nothing changed.`;
  if (withdrawal.sent_at) return "This withdrawal is with PayPal: PayPal settles it now. Nothing changed.";
  if (withdrawal.review_state === "approved") return "This withdrawal was already approved: nothing changed.";
  return "This withdrawal is waiting for review: approve or refuse it first. Nothing changed.";
}
