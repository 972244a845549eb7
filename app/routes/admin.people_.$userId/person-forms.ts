// The person page's forms (docs/operator-console.md, "People"), checked by the server (the page
// posts plain HTML, with or without JavaScript).
import { discriminatedUnion, literal, object } from "zod/mini";
import { stepUp, trimmedText as text } from "~/domain/form-fields";

export const personActionSchema = discriminatedUnion("intent", [
  object({ intent: literal("adjust"), amount: text, kind: text, reason: text, ...stepUp }),
  object({ intent: literal("approve-adjustment"), adjustment: text, ...stepUp }),
  object({ intent: literal("decline-adjustment"), adjustment: text, reason: text, ...stepUp }),
  object({ intent: literal("pause"), reason: text, ...stepUp }),
  object({ intent: literal("resume"), ...stepUp }),
  object({ intent: literal("ban"), reason: text, ...stepUp }),
  object({ intent: literal("unban"), ...stepUp }),
  object({ intent: literal("sign-out-everywhere"), ...stepUp }),
  object({ intent: literal("resend-verification") }),
  object({ intent: literal("note"), note: text }),
]);

/** What finance and owners may do; support may do the rest (SQL checks again). */
export const FINANCE_INTENTS = new Set([
  "adjust",
  "approve-adjustment",
  "decline-adjustment",
  "pause",
  "resume",
  "ban",
  "unban",
]);

/**
 * What moves money or changes someone's access: each asks for the password again once the sign-in
 * is 15 minutes old (a note and a verification email do not).
 */
export const RECENT_SIGN_IN_INTENTS = new Set([
  "adjust",
  "approve-adjustment",
  "decline-adjustment",
  "pause",
  "resume",
  "ban",
  "unban",
  "sign-out-everywhere",
]);

export const PERSON_MESSAGES = {
  amount: "Enter an amount in dollars with at most two decimals, not zero, such as 5.00 or -2.50",
  kind: "Choose earned or bonus money",
  reasonRequired: "Write the reason (it is kept in the audit log).",
  reasonTooLong: "The reason can be at most 500 characters.",
  noteRequired: "Write the note.",
  noteTooLong: "A note can be at most 500 characters.",
  adjustmentNotFound: "That adjustment is not waiting on this account.",
  alreadyVerified: "Their email address is already verified.",
  noEmail: "This account has no email address.",
  failed: "That could not be done. Please try again.",
} as const;

/** Dollars as an operator types them: "5", "5.5", "-2.50"; at most 1,000,000 either way. */
export function parseDollars(value: string): number | null {
  if (!/^[+-]?\d{1,7}(\.\d{1,2})?$/.test(value)) return null;
  const amount = Number(value);
  return amount === 0 || Math.abs(amount) > 1_000_000 ? null : amount;
}
