// The Settings screen's forms (docs/decisions/071-settings-is-a-real-page.md): Profile's switches,
// deactivation and deletion (one definition, domain/account-forms.ts), and signing out of every device.
import { discriminatedUnion, literal, object } from "zod/mini";
import { deactivateForm, deleteAccountForm, notificationForm } from "~/domain/account-forms";

export const SETTINGS_MESSAGES = {
  signedOutEverywhere: "Signed out of every device",
  signedOutEverywhereDetail: "Every session of your account has ended, this one too. Sign in again to continue.",
  signOutEverywhereFailed: "Failed to sign out of every device. Please try again.",
} as const;

export const settingsFormSchema = discriminatedUnion("intent", [
  notificationForm,
  deactivateForm,
  deleteAccountForm,
  object({ intent: literal("sign-out-everywhere") }),
]);
