import { hasHiddenCharacters } from "~/domain/hidden-characters";
import { data } from "@remix-run/node";
import { EMAIL_MAX_LENGTH, isEmailAddress } from "~/domain/email";
import { debtOwed } from "~/domain/account-deletion";
import { FEEDBACK_MESSAGES, profileFormSchema } from "./profile-forms";
import { ruleMessage } from "~/domain/rules";
import { activityItem } from "~/domain/activity";
import { faqEntries } from "~/content/faq";
import { getAppConfig } from "~/server/runtime/config.server";
import {
  deletionBlocks,
  deletionFactsCall,
  recentActivityCall,
  updateDisplayName,
} from "~/server/account/account.server";
import { requireUser, type SessionUser } from "~/server/auth/session.server";
import { optionalSection, readTogether, type RequestScope } from "~/server/db/reads.server";
import { answerTicket, feedbackCall, submitFeedback } from "~/server/account/support.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { bannerErrors, parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import { hitRateLimit, RATE_LIMITS, tooManyAttemptsMessage } from "~/server/http/rate-limit.server";
import { requestOrigin } from "~/server/http/same-origin.server";
import { notificationPreferencesCall } from "~/server/notifications/settings.server";
import { loadUserSummary, userSummaryCall } from "~/server/account/users.server";
import { accountCodeStep, resendDeletionCode } from "~/server/account/account-codes.server";
import {
  browserConfigs,
  deactivate,
  deleteAccount,
  deleteAccountWithCode,
  saveNotification,
  signInMethods,
} from "~/server/account/settings.server";

function readTab(value: string | null): "account" | "referrals" | "help" {
  return value === "referrals" || value === "help" ? value : "account";
}

/** docs/product.md, "Profile": tabs My Account, Referrals and Help & Support as URL state (`?tab=`). */
export async function loadProfile(request: Request, scope?: RequestScope) {
  const user = await requireUser(request, scope);
  const url = new URL(request.url);
  const tab = readTab(url.searchParams.get("tab"));
  const onAccount = tab === "account";
  // The tab's reads in one round trip, beside the profile's; each section still fails on its own.
  const [summaryRead, activityRead, preferencesRead, feedbackRead, deletionRead] = readTogether(
    [
      userSummaryCall(user.uid),
      onAccount ? recentActivityCall(user.uid) : null,
      onAccount ? notificationPreferencesCall(user.uid) : null,
      tab === "help" ? feedbackCall(user.uid) : null,
      onAccount ? deletionFactsCall(user.uid) : null,
    ],
    scope,
  );
  const sections = Promise.all([
    optionalSection("profile: recent activity", activityRead),
    onAccount ? optionalSection("profile: what keeps deletion back", deletionBlocks(user.uid, deletionRead)) : null,
    optionalSection("profile: notification settings", preferencesRead),
    onAccount ? optionalSection("profile: sign-in methods", signInMethods(user.uid)) : null,
    optionalSection("profile: feedback", feedbackRead),
    // The deletion's code step (?confirm=delete-code), when this browser waits for that code.
    onAccount ? accountCodeStep(request, user.uid) : null,
  ]);
  const config = tab === "help" ? optionalSection("profile: config", getAppConfig()) : null;
  let summary;
  try {
    summary = await loadUserSummary(user, summaryRead);
  } catch (error) {
    // The page fails as a whole; whatever the sections meet is no longer anyone's concern.
    sections.catch(() => {});
    config?.catch(() => {});
    // "Failed to load profile" (docs/product.md, "Profile: load failure"): the page says so (and retries with JavaScript).
    console.error("profile failed to load:", error instanceof Response ? `HTTP ${error.status}` : error);
    return data({ failed: true as const, tab }, { status: error instanceof Response ? error.status : 500 });
  }
  const [activity, deletion, preferences, methods, feedback, codeStep] = await sections;
  return {
    failed: false as const,
    tab,
    editing: onAccount && url.searchParams.get("edit") === "1",
    confirmingDeactivation: onAccount && url.searchParams.get("confirm") === "deactivate",
    profile: {
      displayName: summary.display_name || "User",
      email: summary.email,
      referralCode: summary.referral_code || null,
      shareUrl: summary.referral_code ? `${requestOrigin(request)}/join/${summary.referral_code}` : null,
    },
    // What the list shows, not the whole ledger row.
    activity: activity?.map((row) => activityItem(row, new Date())) ?? null,
    activityFailed: onAccount && activity === null,
    preferences,
    signInMethods: methods,
    // What keeps deletion back and what it gives up, said before any password is typed (issue 36).
    deletion: deletion ?? { pendingWithdrawal: false, debt: debtOwed(summary), forfeit: 0 },
    deletionCode:
      codeStep?.purpose === "delete_account"
        ? { sentTo: codeStep.sentTo, giveUp: url.searchParams.get("giveUp") ?? "" }
        : null,
    feedback,
    // The spec's answers, and beside them the minimums as configured (left out if unreadable).
    faq: faqEntries((await config)?.min_withdrawal ?? null),
    ...browserConfigs(),
  };
}

const ACCOUNT_TAB = "/profile";

/** Profile's forms, each by its `intent`. */
export async function profileAction(request: Request) {
  const user = await requireUser(request);
  const submission = await parseForm(request, profileFormSchema);
  // The name and feedback forms show their fields' messages; the switches and buttons, a banner.
  if (submission.status !== "success") {
    return rejectForm(submission, {
      formErrors: bannerErrors(submission, ["displayName", "name", "email", "message", "body"]),
    });
  }
  const value = submission.value;
  switch (value.intent) {
    case "update-name":
      try {
        await updateDisplayName(user.uid, value.displayName);
        return redirectWithFlash(ACCOUNT_TAB, { kind: "success", title: "Profile updated successfully" });
      } catch (error) {
        return replyWithDbError(submission, error, {
          fields: { invalid_display_name: "displayName", display_name_hidden_characters: "displayName" },
          fallback: "Please try again later.",
          context: "profile update",
        });
      }
    case "notification":
      return saveNotification(user, value, submission, ACCOUNT_TAB);
    case "deactivate":
      return deactivate(user, request, ACCOUNT_TAB);
    case "delete-account":
      return deleteAccount(user, value, submission, request, "/profile");
    case "delete-account-code":
      return deleteAccountWithCode(user, value, submission, request);
    case "delete-account-resend":
      return resendDeletionCode(request, user, value.giveUp, submission, "/profile");
    case "feedback":
      return sendFeedback(user, value, submission);
    case "answer":
      return answerTicket(user, "feedback", value, submission);
  }
}

type Submission = Parameters<typeof rejectForm>[0];

const FEEDBACK_MAX_LENGTHS = { name: 100, email: EMAIL_MAX_LENGTH, message: 2000 };

async function sendFeedback(
  user: SessionUser,
  feedback: { name: string; email: string; message: string },
  submission: Submission,
) {
  // A blank field is the person's to fix: the message goes on each blank field, not in a failure banner.
  const blank = (["name", "email", "message"] as const).filter((field) => !feedback[field]);
  if (blank.length > 0) {
    return rejectForm(submission, {
      fieldErrors: Object.fromEntries(blank.map((field) => [field, [FEEDBACK_MESSAGES.fillAll]])),
    });
  }
  // Lengths first, so the address's pattern (linear, app/domain/email.ts) never sees more than 254
  // characters; then the form; then the allowance, which a refused form does not use.
  const tooLong = (["name", "email", "message"] as const).find(
    (field) => [...feedback[field]].length > FEEDBACK_MAX_LENGTHS[field],
  );
  if (tooLong) return rejectForm(submission, { fieldErrors: { [tooLong]: [ruleMessage("feedback_too_long")] } });
  if (!isEmailAddress(feedback.email)) {
    return rejectForm(submission, { fieldErrors: { email: [FEEDBACK_MESSAGES.invalidEmail] } });
  }
  // An address with one is no address (above). What the console and the operators' email would show as something else (the database refuses it too).
  const hidden = (["name", "email", "message"] as const).find((field) =>
    hasHiddenCharacters(field === "message" ? feedback.message.replace(/[\r\n\t]/g, "") : feedback[field]),
  );
  if (hidden) return rejectForm(submission, { fieldErrors: { [hidden]: [ruleMessage("feedback_hidden_characters")] } });
  const limit = await hitRateLimit(RATE_LIMITS.feedback, user.uid);
  if (!limit.allowed) return rejectForm(submission, { formErrors: [tooManyAttemptsMessage(limit.retryAfterSeconds)] });
  try {
    await submitFeedback(user.uid, feedback);
  } catch (error) {
    return replyWithDbError(submission, error, {
      fields: { feedback_too_long: "message", feedback_hidden_characters: "message" },
      fallback: FEEDBACK_MESSAGES.failed,
      context: "feedback",
    });
  }
  return redirectWithFlash("/profile?tab=help", { kind: "success", title: FEEDBACK_MESSAGES.submitted });
}
