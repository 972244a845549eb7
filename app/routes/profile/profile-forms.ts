// The Profile screen's forms, checked by the server (the page posts plain HTML, with or without
// JavaScript). Messages the database also enforces come from its rules (rules.ts).
import { discriminatedUnion, literal, object, optional, pipe, string, transform } from "zod/mini";
import { displayNameProblem, trimDisplayName } from "~/domain/display-name";
import {
  deactivateForm,
  deleteAccountCodeForm,
  deleteAccountForm,
  deleteAccountResendForm,
  notificationForm,
} from "~/domain/account-forms";
import { answerTicketForm } from "~/domain/support-forms";
import { ruleMessage } from "~/domain/rules";

const text = (message: string) =>
  pipe(
    optional(string(message)),
    transform((value) => (value ?? "").trim()),
  );

export const FEEDBACK_MESSAGES = {
  // docs/product.md, "Profile: help and support", word for word.
  fillAll: "Please fill out all fields",
  submitted: "Feedback submitted successfully!",
  failed: "Failed to submit feedback. Please try again.",
  invalidEmail: "Please enter a valid email address",
} as const;

export const profileFormSchema = discriminatedUnion("intent", [
  object({
    intent: literal("update-name"),
    // The rule update_display_name enforces (display-name.ts), so the field says what is wrong first.
    displayName: pipe(
      optional(string(ruleMessage("invalid_display_name"))),
      transform((value, ctx) => {
        const name = trimDisplayName(value ?? "");
        const problem = displayNameProblem(name);
        if (problem) ctx.issues.push({ code: "custom", message: ruleMessage(problem), input: value });
        return name;
      }),
    ),
  }),
  notificationForm,
  deactivateForm,
  deleteAccountForm,
  deleteAccountCodeForm,
  deleteAccountResendForm,
  object({
    intent: literal("feedback"),
    name: text(FEEDBACK_MESSAGES.fillAll),
    email: text(FEEDBACK_MESSAGES.fillAll),
    message: text(FEEDBACK_MESSAGES.fillAll),
  }),
  // An answer to one of the person's feedback conversations (docs/decisions/082).
  answerTicketForm,
]);
