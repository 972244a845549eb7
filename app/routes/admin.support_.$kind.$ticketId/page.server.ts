import { data } from "@remix-run/node";
import type { output } from "zod/mini";
import type { Flash } from "~/domain/flash";
import { coinsToDollars, formatDollars } from "~/domain/money";
import { roleAtLeast, signedInRecently } from "~/domain/operator-roles";
import { ruleMessage } from "~/domain/rules";
import { ticketPath, type TicketKind, type TicketStatus } from "~/domain/support";
import { getAppConfig } from "~/server/runtime/config.server";
import { auditRefusal } from "~/server/operator/refusals.server";
import { requireOperator, type Operator } from "~/server/operator/access.server";
import { adjustBalance, whyAdjustmentWaits } from "~/server/operator/people-actions.server";
import { confirmRecentSignIn } from "~/server/operator/recent-sign-in.server";
import {
  readAppeal,
  readTicket,
  showAppealReasons,
  updateTicket,
  writeOnTicket,
} from "~/server/operator/support.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import { TICKET_MESSAGES, ticketActionSchema } from "./ticket-forms";

const ROW_ID = /^[1-9][0-9]{0,17}$/;
// Whole coins, more than zero: at most a million (the adjustment's own limit is $1,000,000).
const COINS = /^[1-9][0-9]{0,6}$/;
const MAX_BODY = 2000;
const MAX_REASON = 500;

/** The ticket a URL names: /admin/support/feedback/12 or /admin/support/missing-credit/7. */
function ticketOf(kind: string | undefined, id: string | undefined): { kind: TicketKind; id: number } | null {
  const known = kind === "feedback" ? "feedback" : kind === "missing-credit" ? "missing_credit" : null;
  return known && id !== undefined && ROW_ID.test(id) ? { kind: known, id: Number(id) } : null;
}

/**
 * A ticket (docs/operator-console.md, "Support inbox"): what the person wrote, the operators'
 * replies and notes, and the forms to answer it. Every role answers; crediting a missing offer is
 * a money action (finance, recent sign-in).
 */
export async function loadTicket(request: Request, kind: string | undefined, id: string | undefined) {
  const operator = await requireOperator(request, "support");
  const named = ticketOf(kind, id);
  const [ticket, appeal] = named
    ? await Promise.all([
        readTicket(operator.uid, named.kind, named.id),
        named.kind === "feedback" ? readAppeal(operator.uid, named.id) : null,
      ])
    : [null, null];
  const viewer = {
    uid: operator.uid,
    canMoveMoney: roleAtLeast(operator.role, "finance"),
    needsPassword: roleAtLeast(operator.role, "finance") && !signedInRecently(operator.authTime),
    coinsPerDollar: (await getAppConfig()).coins_per_dollar,
  };
  if (!ticket) return data({ ticket: null, appeal: null, viewer }, { status: 404 });
  return { ticket, appeal, viewer };
}

type TicketForm = output<typeof ticketActionSchema>;

function fieldProblems(form: TicketForm): Record<string, string[]> | null {
  switch (form.intent) {
    case "reply":
    case "note":
      if (!form.body) return { body: [TICKET_MESSAGES.bodyRequired] };
      return form.body.length > MAX_BODY ? { body: [TICKET_MESSAGES.bodyTooLong] } : null;
    case "status":
      return ["open", "waiting", "resolved"].includes(form.status) ? null : { "": [TICKET_MESSAGES.status] };
    case "assign":
      return form.to === "me" || form.to === "nobody" ? null : { "": [TICKET_MESSAGES.assign] };
    case "show-reasons":
      return null;
    case "credit": {
      const problems: Record<string, string[]> = {};
      if (!COINS.test(form.coins)) problems.coins = [TICKET_MESSAGES.creditCoins];
      if (!form.reason) problems.reason = [TICKET_MESSAGES.reasonRequired];
      else if (form.reason.length > MAX_REASON) problems.reason = [TICKET_MESSAGES.reasonTooLong];
      return Object.keys(problems).length ? problems : null;
    }
  }
}

export async function ticketAction(request: Request, kind: string | undefined, id: string | undefined) {
  const operator = await requireOperator(request, "support");
  const submission = await parseForm(request, ticketActionSchema);
  if (submission.status !== "success") return rejectForm(submission, { formErrors: [TICKET_MESSAGES.failed] });
  const form = submission.value;
  if (form.intent === "credit" && !roleAtLeast(operator.role, "finance")) {
    return rejectForm(submission, { formErrors: [ruleMessage("operator_role_required")] }, 403);
  }
  const problems = fieldProblems(form);
  if (problems) {
    const { "": formErrors, ...fieldErrors } = problems;
    return rejectForm(submission, { formErrors, fieldErrors });
  }
  const named = ticketOf(kind, id);
  const ticket = named ? await readTicket(operator.uid, named.kind, named.id) : null;
  if (!ticket) return rejectForm(submission, { formErrors: [ruleMessage("ticket_not_found")] }, 404);
  if (form.intent === "show-reasons" && ticket.kind !== "feedback") {
    return rejectForm(submission, { formErrors: [TICKET_MESSAGES.notAppeal] });
  }
  let setCookie: string | null = null;
  const { coins_per_dollar: coinsPerDollar } = await getAppConfig();
  if (form.intent === "credit") {
    if (ticket.kind !== "missing_credit" || !ticket.person) {
      return rejectForm(submission, { formErrors: [TICKET_MESSAGES.notMissingCredit] });
    }
    if (coinsToDollars(Number(form.coins), coinsPerDollar) <= 0) {
      return rejectForm(submission, { fieldErrors: { coins: [TICKET_MESSAGES.creditCoins] } });
    }
    const signIn = await confirmRecentSignIn(request, operator, form);
    if (!signIn.ok) return rejectForm(submission, { fieldErrors: { password: [signIn.problem] } }, signIn.status);
    setCookie = signIn.setCookie;
  }
  let flash: Flash;
  try {
    flash = await act(operator, ticket, form, coinsPerDollar);
  } catch (error) {
    await auditRefusal(operator, `ticket_${form.intent}`, error, {
      userId: ticket.person?.id ?? null,
      recordKind: "ticket",
      recordId: `${ticket.kind}:${ticket.id}`,
    });
    return replyWithDbError(submission, error, {
      fields: {
        ticket_message_required: "body",
        invalid_ticket_message: "body",
        invalid_adjustment: "coins",
        reason_required: "reason",
        invalid_reason: "reason",
        operator_self_action: "coins",
      },
      fallback: TICKET_MESSAGES.failed,
      context: `console ticket ${form.intent}`,
    });
  }
  return redirectWithFlash(ticketPath(ticket.kind, ticket.id), flash, setCookie ? { "Set-Cookie": setCookie } : {});
}

async function act(
  operator: Operator,
  ticket: { kind: TicketKind; id: number; person: { id: string } | null },
  form: TicketForm,
  coinsPerDollar: number,
): Promise<Flash> {
  switch (form.intent) {
    case "reply":
      await writeOnTicket(operator, ticket.kind, ticket.id, form.body, false);
      return {
        kind: "success",
        title: "Reply sent",
        description: "They see it in the app, and by email if their address is verified.",
      };
    case "note":
      await writeOnTicket(operator, ticket.kind, ticket.id, form.body, true);
      return { kind: "success", title: "Note added" };
    case "status": {
      const result = await updateTicket(operator, ticket.kind, ticket.id, { status: form.status as TicketStatus });
      return {
        kind: "success",
        title: `Ticket ${result.status === "resolved" ? "resolved" : `marked ${result.status}`}`,
      };
    }
    case "assign":
      await updateTicket(operator, ticket.kind, ticket.id, { assign: form.to as "me" | "nobody" });
      return { kind: "success", title: form.to === "me" ? "Ticket assigned to you" : "Ticket handed back" };
    case "show-reasons": {
      const codes = form.reasons === undefined ? [] : typeof form.reasons === "string" ? [form.reasons] : form.reasons;
      const result = await showAppealReasons(operator, ticket.id, codes);
      return {
        kind: "success",
        title:
          result.shown.length === 0 ? "No reason is shown to them" : `${result.shown.length} reason(s) shown to them`,
        description: "They read these under their appeal in Help & Support.",
      };
    }
    case "credit": {
      const coins = Number(form.coins);
      const amount = coinsToDollars(coins, coinsPerDollar);
      const result = await adjustBalance(operator, ticket.person!.id, {
        amount,
        kind: "earned",
        reason: form.reason,
        missingCreditReportId: ticket.id,
      });
      return result.state === "applied"
        ? {
            kind: "success",
            title: `Credited ${coins.toLocaleString("en-US")} coins (${formatDollars(amount)})`,
            description: "The report is resolved; they see the coins in My offers and a notice.",
          }
        : {
            kind: "info",
            title: "Waiting for a second operator",
            description: whyAdjustmentWaits(
              `${coins.toLocaleString("en-US")} coins (${formatDollars(amount)})`,
              result,
            ),
          };
    }
  }
}
