import { roleAtLeast, signedInRecently } from "~/domain/operator-roles";
import { NOT_PAID_WORDS, PRIZE_FORM_MESSAGES as MESSAGES } from "~/domain/prizes";
import { ruleMessage } from "~/domain/rules";
import { redirectWithFlash } from "~/server/http/flash.server";
import { parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import { requireOperator } from "~/server/operator/access.server";
import { decidePrize, readPrizeMonths } from "~/server/operator/prizes.server";
import { confirmRecentSignIn } from "~/server/operator/recent-sign-in.server";
import { prizeActionSchema } from "./prize-forms";

const MONTH = /^[0-9]{4}-(0[1-9]|1[0-2])-01$/;
const PLACE = /^([1-9]|1[0-9]|20)$/;

/** Prizes (docs/operator-console.md, "Prizes"): every role reads them; finance and owners decide a held one. */
export async function loadPrizes(request: Request) {
  const operator = await requireOperator(request, "support");
  return {
    months: await readPrizeMonths(operator),
    canDecide: roleAtLeast(operator.role, "finance"),
    needsPassword: !signedInRecently(operator.authTime),
    operatorId: operator.uid,
  };
}

export async function prizesAction(request: Request) {
  const operator = await requireOperator(request, "support");
  const submission = await parseForm(request, prizeActionSchema);
  if (submission.status !== "success") return rejectForm(submission, { formErrors: [MESSAGES.failed] });
  const form = submission.value;
  if (!roleAtLeast(operator.role, "finance")) {
    return rejectForm(submission, { formErrors: [ruleMessage("operator_role_required")] }, 403);
  }
  if (!MONTH.test(form.month) || !PLACE.test(form.place)) {
    return rejectForm(submission, { formErrors: [MESSAGES.notFound] });
  }
  if (!form.reason) return rejectForm(submission, { fieldErrors: { reason: [MESSAGES.reason] } });
  if (form.reason.length > 500) return rejectForm(submission, { fieldErrors: { reason: [MESSAGES.reasonTooLong] } });
  const signIn = await confirmRecentSignIn(request, operator, form);
  if (!signIn.ok) return rejectForm(submission, { fieldErrors: { password: [signIn.problem] } }, signIn.status);
  const headers: Record<string, string> = signIn.setCookie ? { "Set-Cookie": signIn.setCookie } : {};
  try {
    const decided = await decidePrize(operator, {
      month: form.month,
      place: Number(form.place),
      approve: form.intent === "pay-prize",
      reason: form.reason,
    });
    const flash =
      decided.status === "paid"
        ? {
            kind: "success" as const,
            title: "Prize paid",
            description: "It is in the winner's balance as bonus money.",
          }
        : decided.status === "refused"
          ? {
              kind: "success" as const,
              title: "Prize refused",
              description: "Nothing was paid; the place stays empty.",
            }
          : {
              kind: "info" as const,
              title: "Prize not paid",
              description: NOT_PAID_WORDS[decided.refused ?? ""] ?? "The loop's rules refused it.",
            };
    return redirectWithFlash("/admin/prizes", flash, headers);
  } catch (error) {
    return replyWithDbError(submission, error, {
      fields: { invalid_reason: "reason", reason_required: "reason" },
      fallback: MESSAGES.failed,
      context: `console prizes ${form.intent}`,
    });
  }
}
