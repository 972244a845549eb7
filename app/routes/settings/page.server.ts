import { notificationPreferencesCall } from "~/server/notifications/settings.server";
import { forgetPushDevice } from "~/server/notifications/settings.server";
import { deletionBlocks, deletionFactsCall } from "~/server/account/account.server";
import { requireUser, signOutEverywhere, type SessionUser } from "~/server/auth/session.server";
import { optionalSection, readTogether, type RequestScope } from "~/server/db/reads.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { bannerErrors, parseForm, rejectForm } from "~/server/http/forms.server";
import {
  browserConfigs,
  deactivate,
  deleteAccount,
  deleteAccountWithCode,
  saveNotification,
  signedOutTo,
  signInMethods,
} from "~/server/account/settings.server";
import { SETTINGS_MESSAGES, settingsFormSchema } from "./settings-forms";
import {
  accountCodeStep,
  confirmSignInCodeOff,
  resendDeletionCode,
  setSignInCode,
} from "~/server/account/account-codes.server";
import { signInCodeOn } from "~/server/account/email-codes.server";
import { inCashoutFeed, setInCashoutFeed } from "~/server/earning/cashout-feed.server";

const SETTINGS = "/settings";

/** docs/decisions/071-settings-is-a-real-page.md: the switches, signing out everywhere, the account, the legal pages. */
export async function loadSettings(request: Request, scope?: RequestScope) {
  const user = await requireUser(request, scope);
  const [preferencesRead, deletionRead] = readTogether(
    [notificationPreferencesCall(user.uid), deletionFactsCall(user.uid)],
    scope,
  );
  // Each section fails on its own (its own message), as on Profile.
  const [preferences, methods, blocks, signInCode, codeStep, inFeed] = await Promise.all([
    optionalSection("settings: notification settings", preferencesRead),
    optionalSection("settings: sign-in methods", signInMethods(user.uid)),
    optionalSection("settings: what keeps deletion back", deletionBlocks(user.uid, deletionRead)),
    optionalSection("settings: sign-in code", signInCodeOn(user.uid)),
    accountCodeStep(request, user.uid),
    optionalSection("settings: cash-out feed", inCashoutFeed(user.uid)),
  ]);
  return {
    // Whether the person's cash-outs show in Recent cash-outs; null: unreadable (not offered this time).
    inCashoutFeed: inFeed,
    // Null: unreadable (the switch is not offered this time).
    signInCode,
    // The code by email this browser waits for (?confirm=), and for a deletion the amount given up.
    deletionCode:
      codeStep?.purpose === "delete_account"
        ? { sentTo: codeStep.sentTo, giveUp: new URL(request.url).searchParams.get("giveUp") ?? "" }
        : null,
    signInCodeOff: codeStep?.purpose === "signin_code_off" ? { sentTo: codeStep.sentTo } : null,
    // Unreadable: nothing is known to block it, and a balance is confirmed on the post (fail closed).
    deletion: blocks ?? { pendingWithdrawal: false, debt: 0, forfeit: 0 },
    confirmingDeactivation: new URL(request.url).searchParams.get("confirm") === "deactivate",
    preferences,
    signInMethods: methods,
    ...browserConfigs(),
  };
}

/** Settings' forms, each by its `intent`; the ones Profile also has are Profile's code. */
export async function settingsAction(request: Request) {
  const user = await requireUser(request);
  const submission = await parseForm(request, settingsFormSchema);
  if (submission.status !== "success") {
    return rejectForm(submission, { formErrors: bannerErrors(submission, []) });
  }
  const value = submission.value;
  switch (value.intent) {
    case "notification":
      return saveNotification(user, value, submission, SETTINGS);
    case "deactivate":
      return deactivate(user, request, SETTINGS);
    case "delete-account":
      return deleteAccount(user, value, submission, request, SETTINGS);
    case "delete-account-code":
      return deleteAccountWithCode(user, value, submission, request);
    case "delete-account-resend":
      return resendDeletionCode(request, user, value.giveUp, submission, SETTINGS);
    case "sign-out-everywhere":
      return signOutOfEveryDevice(user, request);
    case "signin-code-on":
      return setSignInCode(request, user, true, submission, {
        title: SETTINGS_MESSAGES.signInCodeOn,
        description: SETTINGS_MESSAGES.signInCodeOnDetail,
      });
    case "signin-code-off":
      return setSignInCode(request, user, false, submission, {
        title: SETTINGS_MESSAGES.signInCodeOff,
        description: SETTINGS_MESSAGES.signInCodeOffDetail,
      });
    case "cashout-feed-off":
    case "cashout-feed-on": {
      const on = value.intent === "cashout-feed-on";
      await setInCashoutFeed(user.uid, on);
      return redirectWithFlash(SETTINGS, {
        kind: "success",
        title: on ? SETTINGS_MESSAGES.feedOn : SETTINGS_MESSAGES.feedOff,
        description: on ? SETTINGS_MESSAGES.feedOnDetail : SETTINGS_MESSAGES.feedOffDetail,
      });
    }
    case "signin-code-off-code":
      return confirmSignInCodeOff(request, user, value.emailCode, submission, {
        title: SETTINGS_MESSAGES.signInCodeOff,
        description: SETTINGS_MESSAGES.signInCodeOffDetail,
      });
  }
}

/**
 * Every session of the account is revoked, this browser's too, and this browser's push token is
 * forgotten (as on log out). When Firebase cannot revoke, nothing has changed: the person stays
 * signed in here and is told so.
 */
async function signOutOfEveryDevice(user: SessionUser, request: Request) {
  try {
    await signOutEverywhere(user.uid, request);
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("sign out of every device failed:", error);
    return redirectWithFlash(SETTINGS, { kind: "error", title: SETTINGS_MESSAGES.signOutEverywhereFailed });
  }
  await forgetPushDevice(request);
  return signedOutTo({
    kind: "success",
    title: SETTINGS_MESSAGES.signedOutEverywhere,
    description: SETTINGS_MESSAGES.signedOutEverywhereDetail,
  });
}
