// The person's answer to their own ticket (docs/product.md, "Profile: help and support"), posted
// from Help & Support for feedback and from My offers for a missing-credit report; checked by the
// server (the pages post plain HTML, with or without JavaScript). answer_ticket enforces the same
// rules; this copy lets the field say what is wrong first.
import { literal, object, optional, pipe, string, transform } from "zod/mini";
import { trimmedText } from "./form-fields";
import { hasHiddenCharacters } from "./hidden-characters";
import { ruleMessage } from "./rules";

export const TICKET_ANSWER_MAX_LENGTH = 2000;

/**
 * What is wrong with an answer (trimmed, its line breaks as the database keeps them), in the words
 * of the rule answer_ticket raises, or null: blank, over 2,000 characters, or a hidden character
 * other than a line break.
 */
export function ticketAnswerProblem(
  body: string,
): "ticket_answer_required" | "ticket_answer_too_long" | "ticket_answer_hidden_characters" | null {
  if (body === "") return "ticket_answer_required";
  if ([...body].length > TICKET_ANSWER_MAX_LENGTH) return "ticket_answer_too_long";
  if (hasHiddenCharacters(body.replaceAll("\n", " "))) return "ticket_answer_hidden_characters";
  return null;
}

export const answerTicketForm = object({
  intent: literal("answer"),
  // Which ticket: checked by the page (its own kind) and by answer_ticket (the person's own, not resolved).
  kind: trimmedText,
  ticketId: trimmedText,
  body: pipe(
    optional(string(ruleMessage("ticket_answer_required"))),
    transform((value, ctx) => {
      // Browsers send a textarea's line breaks as CRLF.
      const body = (value ?? "").replaceAll("\r\n", "\n").trim();
      const problem = ticketAnswerProblem(body);
      if (problem) ctx.issues.push({ code: "custom", message: ruleMessage(problem), input: value });
      return body;
    }),
  ),
});
