import type { FeedbackEntry, TicketKind } from "~/domain/support";
import { ANSWER_FORM, conversationId, personTicketPage } from "~/domain/support";
import type { SessionUser } from "../auth/session.server";
import { dbCall, ruleViolation } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { redirectWithFlash } from "../http/flash.server";
import { rejectForm, replyWithDbError } from "../http/forms.server";
import { hitRateLimit, RATE_LIMITS, tooManyAttemptsMessage } from "../http/rate-limit.server";

// The person's side of support (docs/product.md, "Profile: help and support"): feedback, and the
// conversation of each ticket, which they answer until it is resolved. The console's side is
// operator/support.server.ts.

/** user_feedback (docs/product.md, "Data model"): saved with the account that sent it (rules in SQL). */
export async function submitFeedback(userId: string, feedback: { name: string; email: string; message: string }) {
  const db = await getDatabase();
  return db.rpc<{ id: number }>("submit_feedback", {
    p_user_id: userId,
    p_name: feedback.name,
    p_email: feedback.email,
    p_message: feedback.message,
  });
}

/**
 * "Ask for a review" (docs/decisions/090): of paused cash-outs (`withdrawalId` null) or of the
 * person's withdrawal refused at review; submit_appeal decides, and one stays open at a time.
 */
export async function submitAppeal(userId: string, withdrawalId: string | null, message: string) {
  const db = await getDatabase();
  return db.rpc<{ id: number; cause: string }>("submit_appeal", {
    p_user_id: userId,
    p_withdrawal_id: withdrawalId,
    p_message: message,
  });
}

/** The account's own earlier feedback, newest first (by account, not by email: docs/decisions/038). */
export function feedbackCall(userId: string) {
  return dbCall<FeedbackEntry[]>("get_user_feedback", { p_user_id: userId });
}

type Submission = Parameters<typeof rejectForm>[0];

const TICKET_ID = /^[1-9][0-9]{0,17}$/;

/**
 * The person's answer to one of their tickets of `kind` (the kind the page lists: feedback on
 * Help & Support, reports on My offers), as answer_ticket takes it: their own, not resolved
 * (docs/decisions/082). The form's schema has checked the answer; this counts it against the
 * hourly allowance and sends it. The person comes back to the conversation.
 */
export async function answerTicket(
  user: SessionUser,
  kind: TicketKind,
  answer: { kind: string; ticketId: string; body: string },
  submission: Submission,
) {
  if (answer.kind !== kind || !TICKET_ID.test(answer.ticketId)) {
    return rejectForm(submission, { formErrors: [ANSWER_FORM.notFound] });
  }
  const id = Number(answer.ticketId);
  const limit = await hitRateLimit(RATE_LIMITS.supportAnswer, user.uid);
  if (!limit.allowed) return rejectForm(submission, { formErrors: [tooManyAttemptsMessage(limit.retryAfterSeconds)] });
  try {
    await (
      await getDatabase()
    ).rpc<{ message_id: number; status: "open" }>("answer_ticket", {
      p_user_id: user.uid,
      p_kind: kind,
      p_id: id,
      p_body: answer.body,
    });
  } catch (error) {
    if (ruleViolation(error)?.rule === "ticket_not_found") {
      return rejectForm(submission, { formErrors: [ANSWER_FORM.notFound] });
    }
    return replyWithDbError(submission, error, {
      fields: {
        ticket_answer_required: "body",
        ticket_answer_too_long: "body",
        ticket_answer_hidden_characters: "body",
      },
      fallback: "Please try again.",
      context: "support answer",
    });
  }
  return redirectWithFlash(`${personTicketPage(kind)}#${conversationId(kind, id)}`, {
    kind: "success",
    title: ANSWER_FORM.sent,
    description: ANSWER_FORM.sentDescription,
  });
}
