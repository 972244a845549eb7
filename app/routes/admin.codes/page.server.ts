import type { output } from "zod/mini";
import { roleAtLeast, signedInRecently } from "~/domain/operator-roles";
import {
  parseCountries,
  parseDay,
  parseWhole,
  PROMO_CODE_MESSAGES as MESSAGES,
  type PromoCodeRow,
} from "~/domain/promo-codes";
import { ruleMessage } from "~/domain/rules";
import { redirectWithFlash } from "~/server/http/flash.server";
import { parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import { requireOperator } from "~/server/operator/access.server";
import { createPromoCode, disablePromoCode, readPromoCodes } from "~/server/operator/promo-codes.server";
import { confirmRecentSignIn } from "~/server/operator/recent-sign-in.server";
import { codesActionSchema } from "./codes-forms";

const DAY_MS = 86_400_000;
const ROW_ID = /^[1-9][0-9]{0,17}$/;

/** Promo codes (docs/operator-console.md, "Codes"): every role reads them; finance and owners make and end them. */
export async function loadCodes(request: Request) {
  const operator = await requireOperator(request, "support");
  const codes = await readPromoCodes(operator);
  const today = new Date().toISOString().slice(0, 10);
  return {
    codes: codes.map((code) => ({ ...code, state: codeState(code, new Date()) })),
    canMake: roleAtLeast(operator.role, "finance"),
    needsPassword: !signedInRecently(operator.authTime),
    today,
  };
}

/** Where a code is in its life: ended by hand, used up, over, not yet started, or live. */
function codeState(code: PromoCodeRow, now: Date): "disabled" | "used up" | "ended" | "scheduled" | "live" {
  if (code.disabled_at) return "disabled";
  if (code.uses >= code.max_uses) return "used up";
  if (Date.parse(code.ends_at) <= now.getTime()) return "ended";
  return Date.parse(code.starts_at) > now.getTime() ? "scheduled" : "live";
}

type CodesForm = output<typeof codesActionSchema>;

function reasonProblem(reason: string): string | null {
  return !reason ? MESSAGES.reason : reason.length > 500 ? MESSAGES.reasonTooLong : null;
}

/** The create form's terms, or its fields' problems. */
function readTerms(form: Extract<CodesForm, { intent: "create-code" }>) {
  const problems: Record<string, string[]> = {};
  const code = form.code.toUpperCase();
  if (!/^[A-Z0-9]{4,20}$/.test(code)) problems.code = [MESSAGES.code];
  const coins = parseWhole(form.coins, 1, 100_000);
  if (coins === null) problems.coins = [MESSAGES.coins];
  const maxUses = parseWhole(form.uses, 1, 1_000_000);
  if (maxUses === null) problems.uses = [MESSAGES.uses];
  const starts = parseDay(form.starts);
  if (!starts) problems.starts = [MESSAGES.date];
  const lastDay = parseDay(form.ends);
  // The last day is whole: the code ends at the next midnight (UTC).
  const ends = lastDay ? new Date(lastDay.getTime() + DAY_MS) : null;
  if (!lastDay) problems.ends = [MESSAGES.date];
  else if (ends!.getTime() <= Date.now() || (starts && ends!.getTime() <= starts.getTime()))
    problems.ends = [MESSAGES.ends];
  const countries = parseCountries(form.countries);
  if (countries === null) problems.countries = [MESSAGES.countries];
  const reason = reasonProblem(form.reason);
  if (reason) problems.reason = [reason];
  if (Object.keys(problems).length > 0) return { problems };
  return {
    terms: {
      code,
      coins: coins!,
      maxUses: maxUses!,
      startsAt: starts!.toISOString(),
      endsAt: ends!.toISOString(),
      newAccountsOnly: form.newAccountsOnly === "on",
      countries: countries!,
      reason: form.reason,
    },
  };
}

export async function codesAction(request: Request) {
  const operator = await requireOperator(request, "support");
  const submission = await parseForm(request, codesActionSchema);
  if (submission.status !== "success") return rejectForm(submission, { formErrors: [MESSAGES.failed] });
  const form = submission.value;
  if (!roleAtLeast(operator.role, "finance")) {
    return rejectForm(submission, { formErrors: [ruleMessage("operator_role_required")] }, 403);
  }
  const read = form.intent === "create-code" ? readTerms(form) : null;
  if (read && "problems" in read) return rejectForm(submission, { fieldErrors: read.problems });
  if (form.intent === "disable-code") {
    if (!ROW_ID.test(form.codeId)) return rejectForm(submission, { formErrors: [MESSAGES.codeNotFound] });
    const reason = reasonProblem(form.reason);
    if (reason) return rejectForm(submission, { fieldErrors: { reason: [reason] } });
  }
  const signIn = await confirmRecentSignIn(request, operator, form);
  if (!signIn.ok) return rejectForm(submission, { fieldErrors: { password: [signIn.problem] } }, signIn.status);
  const headers: Record<string, string> = signIn.setCookie ? { "Set-Cookie": signIn.setCookie } : {};
  try {
    if (read && "terms" in read) {
      const made = await createPromoCode(operator, read.terms);
      return redirectWithFlash(
        "/admin/codes",
        { kind: "success", title: `Code ${made.code} made`, description: "People can redeem it on Earn." },
        headers,
      );
    }
    if (form.intent !== "disable-code") throw new Error("unreachable: a create form without terms");
    const ended = await disablePromoCode(operator, Number(form.codeId), form.reason);
    return redirectWithFlash(
      "/admin/codes",
      ended.changed
        ? { kind: "success", title: "Code ended", description: "It is refused from now on; what it paid stays paid." }
        : { kind: "info", title: "Nothing changed: the code was already ended" },
      headers,
    );
  } catch (error) {
    return replyWithDbError(submission, error, {
      fields: {
        invalid_promo_code: "code",
        promo_code_taken: "code",
        invalid_reason: "reason",
        reason_required: "reason",
      },
      fallback: MESSAGES.failed,
      context: `console codes ${form.intent}`,
    });
  }
}
