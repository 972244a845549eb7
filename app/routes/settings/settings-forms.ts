// The Settings screen's forms (docs/decisions/071-settings-is-a-real-page.md): Profile's switches,
// deactivation and deletion (one definition, domain/account-forms.ts), and signing out of every device.
import { discriminatedUnion, literal, object, optional, string } from "zod/mini";
import {
  deactivateForm,
  deleteAccountCodeForm,
  deleteAccountForm,
  deleteAccountResendForm,
  notificationForm,
} from "~/domain/account-forms";

export const SETTINGS_MESSAGES = {
  signedOutEverywhere: "Signed out of every device",
  signedOutEverywhereDetail: "Every session of your account has ended, this one too. Sign in again to continue.",
  signOutEverywhereFailed: "Failed to sign out of every device. Please try again.",
  signInCodeOn: "Sign-in codes are on",
  signInCodeOnDetail: "Signing in on a device your account has not used asks for a code sent to your email.",
  signInCodeOff: "Sign-in codes are off",
  signInCodeOffDetail: "Your password alone signs you in on a new device. Cash-outs still ask for a code.",
  feedOff: "You left Recent cash-outs",
  feedOffDetail: "Your cash-outs and offer earnings no longer show in the list on Home and Withdraw.",
  feedOn: "You're back in Recent cash-outs",
  feedOnDetail: "Your next cash-outs and large offer earnings show in the list, under a masked name.",
} as const;

export const settingsFormSchema = discriminatedUnion("intent", [
  notificationForm,
  deactivateForm,
  deleteAccountForm,
  deleteAccountCodeForm,
  deleteAccountResendForm,
  object({ intent: literal("sign-out-everywhere") }),
  // The sign-in code (docs/decisions/092): on at once; off only with a code sent to the email.
  object({ intent: literal("signin-code-on") }),
  object({ intent: literal("signin-code-off") }),
  object({ intent: literal("signin-code-off-code"), emailCode: optional(string()) }),
  // Recent cash-outs (docs/decisions/098): leave the list, or come back to it.
  object({ intent: literal("cashout-feed-off") }),
  object({ intent: literal("cashout-feed-on") }),
]);
