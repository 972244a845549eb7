// The person page's forms (docs/operator-console.md, "People"), checked by the server (the page
// posts plain HTML, with or without JavaScript).
import { discriminatedUnion, literal, object, optional, pipe, string, transform } from "zod/mini";

const text = pipe(
  optional(string()),
  transform((value) => (value ?? "").trim()),
);
/** A password is checked as typed (spaces are part of it). */
const password = pipe(
  optional(string()),
  transform((value) => value ?? ""),
);

export const personActionSchema = discriminatedUnion("intent", [
  object({ intent: literal("adjust"), amount: text, kind: text, reason: text, password }),
  object({ intent: literal("approve-adjustment"), adjustment: text, password }),
  object({ intent: literal("decline-adjustment"), adjustment: text, reason: text }),
  object({ intent: literal("pause"), reason: text }),
  object({ intent: literal("resume") }),
  object({ intent: literal("ban"), reason: text }),
  object({ intent: literal("unban") }),
  object({ intent: literal("sign-out-everywhere") }),
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
