// The forms Profile's My Account and Settings share (docs/decisions/071-settings-is-a-real-page.md),
// one definition for both pages: a notification switch, deactivation and deletion.
import { enum as oneOf, literal, object, optional, string } from "zod/mini";
import { NOTIFICATION_KINDS } from "./notifications";

export const notificationForm = object({
  intent: literal("notification"),
  kind: oneOf(NOTIFICATION_KINDS, "Unknown notification setting"),
  enabled: oneOf(["on", "off"], "Unknown notification setting"),
  // Sent by the page's JavaScript, which shows the outcome itself (no redirect, no scrolling).
  respond: optional(literal("data", "Unknown notification setting")),
});
export const deactivateForm = object({
  intent: literal("deactivate"),
  confirm: literal("yes", "Please confirm that you want to deactivate"),
});
export const deleteAccountForm = object({
  intent: literal("delete-account"),
  // A password account confirms with its password; a Google-only one with a fresh Google sign-in.
  password: optional(string()),
  idToken: optional(string()),
  // "I give up $2.10": the amount the person agreed to lose (the account's balance when the page was drawn).
  giveUp: optional(string()),
});

// Codes by email (docs/decisions/092): a deletion by an account whose sign-in code is on is
// confirmed with a code sent to its email, after its password; the amount given up rides along.
export const deleteAccountCodeForm = object({
  intent: literal("delete-account-code"),
  emailCode: optional(string()),
  giveUp: optional(string()),
});
export const deleteAccountResendForm = object({
  intent: literal("delete-account-resend"),
  giveUp: optional(string()),
});
