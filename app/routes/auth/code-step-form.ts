// The sign-in's code step (docs/decisions/092): the code, a new code, giving up, and a message to
// support for someone who cannot reach their email. Checked by the server.
import { discriminatedUnion, literal, object, optional, pipe, string, transform } from "zod/mini";
import { EMAIL_CODE_FIELD } from "~/domain/email-codes";

export const CODE_STEP_INTENTS = ["signin-code", "signin-code-resend", "signin-code-help"] as const;

export const CODE_HELP_MESSAGES = {
  fillAll: "Please write an address we can reach you at and what happened.",
  sent: "Message sent",
  sentDetail: "Our support team will answer at the address you gave.",
} as const;

const text = (message: string) =>
  pipe(
    optional(string()),
    transform((value, ctx) => {
      const trimmed = (value ?? "").trim();
      if (!trimmed) ctx.issues.push({ code: "custom", message, input: value });
      return trimmed;
    }),
  );

export const codeStepSchema = discriminatedUnion("intent", [
  object({
    intent: literal("signin-code"),
    [EMAIL_CODE_FIELD]: pipe(
      optional(string()),
      transform((v) => v ?? ""),
    ),
  }),
  object({ intent: literal("signin-code-resend"), [EMAIL_CODE_FIELD]: optional(string()) }),
  object({
    intent: literal("signin-code-help"),
    contact: text(CODE_HELP_MESSAGES.fillAll),
    message: text(CODE_HELP_MESSAGES.fillAll),
  }),
]);
