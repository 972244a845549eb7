import { data } from "@remix-run/node";
import type { output } from "zod/mini";
import { LEDGER_TYPES } from "~/domain/activity";
import type { Flash } from "~/domain/flash";
import { formatDollars } from "~/domain/money";
import { roleAtLeast, signedInRecently } from "~/domain/operator-roles";
import { ruleMessage } from "~/domain/rules";
import { requireOperator, type Operator } from "~/server/operator/access.server";
import {
  addNote,
  adjustBalance,
  closeAccount,
  decideAdjustment,
  readAdjustments,
  reopenAccount,
  resendVerificationEmail,
  setCashOutsPaused,
  signOutEveryDevice,
  whyAdjustmentWaits,
} from "~/server/operator/people-actions.server";
import { readPerson } from "~/server/operator/people.server";
import { confirmRecentSignIn } from "~/server/operator/recent-sign-in.server";
import { auditRefusal } from "~/server/operator/refusals.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import {
  FINANCE_INTENTS,
  parseDollars,
  PERSON_MESSAGES,
  personActionSchema,
  RECENT_SIGN_IN_INTENTS,
} from "./person-forms";

// An account id as Firebase makes them (letters, digits, "-" and "_", at most 128 characters).
const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,128}$/;
// A ledger row or adjustment id: a positive whole number (a bigint in SQL).
const ROW_ID = /^[1-9][0-9]{0,17}$/;
const MAX_TEXT = 500;

/**
 * A person's page (docs/operator-console.md, "People"): profile, balances, the ledger (`?type=` one
 * kind of movement, `?before=<row id>` older rows), withdrawals, referrals both ways, offers and
 * postbacks, devices and linked accounts, tickets, adjustments and what operators did. Every role
 * reads it. An id no account has answers 404 with the console's own words.
 */
export async function loadPerson(request: Request, userId: string | undefined) {
  const operator = await requireOperator(request, "support");
  const params = new URL(request.url).searchParams;
  const type = params.get("type");
  // A filter or page that is not one (edited by hand) shows the whole, newest ledger.
  const ledgerType = type !== null && (LEDGER_TYPES as readonly string[]).includes(type) ? type : null;
  const before = params.get("before");
  const ledgerBefore = before !== null && ROW_ID.test(before) ? Number(before) : null;
  const known = userId !== undefined && ACCOUNT_ID.test(userId);
  const [person, adjustments] = known
    ? await Promise.all([
        readPerson(operator.uid, userId, ledgerType, ledgerBefore),
        readAdjustments(operator.uid, userId),
      ])
    : [null, null];
  const viewer = {
    uid: operator.uid,
    canMoveMoney: roleAtLeast(operator.role, "finance"),
    // Every role's access actions (signing someone out) ask for it too, not only money's.
    needsPassword: !signedInRecently(operator.authTime),
  };
  if (!person || !adjustments) {
    return data(
      { userId: userId ?? "", person: null, adjustments: null, viewer, ledgerType, paged: false },
      { status: 404 },
    );
  }
  return { userId: person.profile.id, person, adjustments, viewer, ledgerType, paged: ledgerBefore !== null };
}

type PersonForm = output<typeof personActionSchema>;

/** The checks of a form's own fields, before anything is asked of the database. */
function fieldProblems(form: PersonForm): Record<string, string[]> | null {
  const reasonProblem = (reason: string) =>
    !reason ? PERSON_MESSAGES.reasonRequired : reason.length > MAX_TEXT ? PERSON_MESSAGES.reasonTooLong : null;
  switch (form.intent) {
    case "adjust": {
      const problems: Record<string, string[]> = {};
      if (parseDollars(form.amount) === null) problems.amount = [PERSON_MESSAGES.amount];
      if (form.kind !== "earned" && form.kind !== "bonus") problems.kind = [PERSON_MESSAGES.kind];
      const reason = reasonProblem(form.reason);
      if (reason) problems.reason = [reason];
      return Object.keys(problems).length ? problems : null;
    }
    case "approve-adjustment":
    case "decline-adjustment": {
      if (!ROW_ID.test(form.adjustment)) return { "": [PERSON_MESSAGES.adjustmentNotFound] };
      const reason = form.intent === "decline-adjustment" ? reasonProblem(form.reason) : null;
      return reason ? { reason: [reason] } : null;
    }
    case "pause":
    case "ban": {
      const reason = reasonProblem(form.reason);
      return reason ? { reason: [reason] } : null;
    }
    case "note":
      if (!form.note) return { note: [PERSON_MESSAGES.noteRequired] };
      return form.note.length > MAX_TEXT ? { note: [PERSON_MESSAGES.noteTooLong] } : null;
    default:
      return null;
  }
}

/** Every action of the page; finance intents need finance or owner, money ones a recent sign-in. */
export async function personAction(request: Request, userId: string | undefined) {
  const operator = await requireOperator(request, "support");
  const submission = await parseForm(request, personActionSchema);
  if (submission.status !== "success") return rejectForm(submission, { formErrors: [PERSON_MESSAGES.failed] });
  const form = submission.value;
  if (FINANCE_INTENTS.has(form.intent) && !roleAtLeast(operator.role, "finance")) {
    return rejectForm(submission, { formErrors: [ruleMessage("operator_role_required")] }, 403);
  }
  const problems = fieldProblems(form);
  if (problems) {
    const { "": formErrors, ...fieldErrors } = problems;
    return rejectForm(submission, { formErrors, fieldErrors });
  }
  const person =
    userId !== undefined && ACCOUNT_ID.test(userId) ? await readPerson(operator.uid, userId, null, null) : null;
  if (!person) return rejectForm(submission, { formErrors: [ruleMessage("account_not_found")] }, 404);
  let setCookie: string | null = null;
  if (RECENT_SIGN_IN_INTENTS.has(form.intent)) {
    const typed = "password" in form ? form : { password: "", totpCode: "" };
    const signIn = await confirmRecentSignIn(request, operator, typed);
    if (!signIn.ok) return rejectForm(submission, { fieldErrors: { password: [signIn.problem] } }, signIn.status);
    setCookie = signIn.setCookie;
  }
  let flash: Flash;
  try {
    const outcome = await act(operator, person.profile, form, request);
    if ("problem" in outcome) return rejectForm(submission, { formErrors: [outcome.problem] }, outcome.status);
    flash = outcome;
  } catch (error) {
    await auditRefusal(operator, form.intent, error, {
      userId: person.profile.id,
      recordKind: "account",
      recordId: person.profile.id,
    });
    return replyWithDbError(submission, error, {
      fields: {
        invalid_adjustment: "amount",
        invalid_adjustment_kind: "kind",
        adjustment_exceeds_earned: "amount",
        reason_required: form.intent === "note" ? "note" : "reason",
        invalid_reason: form.intent === "note" ? "note" : "reason",
      },
      fallback: PERSON_MESSAGES.failed,
      context: `console person ${form.intent}`,
    });
  }
  const page = `/admin/people/${encodeURIComponent(person.profile.id)}`;
  return redirectWithFlash(page, flash, setCookie ? { "Set-Cookie": setCookie } : {});
}

/** Does the form's work: the flash to show, or a refusal that changed nothing. */
async function act(
  operator: Operator,
  profile: { id: string; email: string | null; email_verified: boolean },
  form: PersonForm,
  request: Request,
): Promise<Flash | { problem: string; status: number }> {
  switch (form.intent) {
    case "adjust": {
      const amount = parseDollars(form.amount)!;
      const result = await adjustBalance(operator, profile.id, {
        amount,
        kind: form.kind as "earned" | "bonus",
        reason: form.reason,
      });
      return result.state === "applied"
        ? {
            kind: "success",
            title: `Balance adjusted by ${formatDollars(amount)}`,
            description: `Their balance is now ${formatDollars(result.balance ?? 0)}.`,
          }
        : {
            kind: "info",
            title: "Waiting for a second operator",
            description: whyAdjustmentWaits(formatDollars(Math.abs(amount)), result),
          };
    }
    case "approve-adjustment":
    case "decline-adjustment": {
      const approve = form.intent === "approve-adjustment";
      const result = await decideAdjustment(operator, Number(form.adjustment), approve, approve ? "" : form.reason);
      if (!result.changed)
        return { kind: "info", title: `Nothing changed: the adjustment was already ${result.state}` };
      return approve
        ? { kind: "success", title: `Adjustment of ${formatDollars(result.amount)} approved and applied` }
        : { kind: "success", title: "Adjustment declined" };
    }
    case "pause":
    case "resume": {
      const result = await setCashOutsPaused(
        operator,
        profile.id,
        form.intent === "pause",
        form.intent === "pause" ? form.reason : "",
      );
      if (!result.changed)
        return { kind: "info", title: `Nothing changed: cash-outs were already ${result.paused ? "paused" : "open"}` };
      return { kind: "success", title: result.paused ? "Cash-outs paused" : "Cash-outs resumed" };
    }
    case "ban": {
      const result = await closeAccount(operator, profile.id, form.reason);
      const refunded = result.rejected.length
        ? ` ${result.rejected.length} unsent withdrawal(s) refused and refunded.`
        : "";
      const withPayPal = result.still_sent.length
        ? ` ${result.still_sent.length} already with PayPal: PayPal settles them.`
        : "";
      return result.changed
        ? {
            kind: "success",
            title: "Account closed",
            description: `They are signed out and cannot sign in.${refunded}${withPayPal}`,
          }
        : { kind: "info", title: "Nothing changed: the account was already closed" };
    }
    case "unban": {
      const result = await reopenAccount(operator, profile.id);
      return result.changed
        ? { kind: "success", title: "Account reopened" }
        : { kind: "info", title: "Nothing changed: the account was open" };
    }
    case "sign-out-everywhere":
      await signOutEveryDevice(operator, profile.id);
      return {
        kind: "success",
        title: "Signed out of every device",
        description: "Their sessions ended on every device.",
      };
    case "resend-verification": {
      if (!profile.email) return { problem: PERSON_MESSAGES.noEmail, status: 400 };
      if (profile.email_verified) return { problem: PERSON_MESSAGES.alreadyVerified, status: 400 };
      const refused = await resendVerificationEmail(operator, profile.id, request);
      if (refused) return { problem: refused, status: 429 };
      return { kind: "success", title: "Verification email sent", description: `To ${profile.email}.` };
    }
    case "note":
      await addNote(operator, profile.id, form.note);
      return { kind: "success", title: "Note added" };
  }
}
