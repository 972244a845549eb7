// A support ticket's forms (docs/operator-console.md, "Support inbox"), checked by the server.
import { array, discriminatedUnion, literal, object, optional, string, union } from "zod/mini";
import { stepUp, trimmedText as text } from "~/domain/form-fields";

export const ticketActionSchema = discriminatedUnion("intent", [
  object({ intent: literal("reply"), body: text }),
  object({ intent: literal("note"), body: text }),
  object({ intent: literal("status"), status: text }),
  object({ intent: literal("assign"), to: text }),
  object({ intent: literal("credit"), coins: text, reason: text, ...stepUp }),
  // An appeal's risk reasons the person may read (docs/decisions/090): the checked boxes' codes.
  object({ intent: literal("show-reasons"), reasons: optional(union([array(string()), string()])) }),
]);

export const TICKET_MESSAGES = {
  bodyRequired: "Write the message.",
  bodyTooLong: "A message can be at most 2,000 characters.",
  status: "Choose open, waiting or resolved.",
  assign: "Take the ticket or hand it back.",
  creditCoins: "Enter the credit in whole coins, more than zero, such as 400",
  reasonRequired: "Write the reason (it is kept in the audit log).",
  reasonTooLong: "The reason can be at most 500 characters.",
  notMissingCredit: "Only a missing-credit report can be credited.",
  notAppeal: "Only an appeal of a refused cash-out has reasons to share.",
  failed: "That could not be done. Please try again.",
} as const;
