import { EMAIL_MAX_LENGTH, isEmailAddress } from "~/domain/email";
import { data } from "@remix-run/node";
import { FEEDBACK_MESSAGES, profileFormSchema } from "./profile-forms";
import { NOTIFICATION_MESSAGES } from "~/domain/notifications";
import { ruleMessage } from "~/domain/rules";
import { activityItem } from "~/domain/activity";
import { MAX_ID_TOKEN_AGE_SECONDS } from "~/domain/constants";
import {
  deleteAccountData,
  hasPendingWithdrawal,
  recentActivityCall,
  setAccountActive,
  updateDisplayName,
} from "~/server/account.server";
import { limitPasswordCheck, type AttemptRefusal } from "~/server/auth/attempt-limits.server";
import { getAdminAuth } from "~/server/auth/firebase-admin.server";
import { IdentityError, signInWithPassword } from "~/server/auth/identity.server";
import {
  announceSignedOut,
  clearedSessionCookie,
  requireUser,
  revokeSessions,
  type SessionUser,
} from "~/server/auth/session.server";
import { memoizeByKey } from "~/server/cache.server";
import { ruleViolation } from "~/server/db/core.server";
import { optionalSection, readTogether } from "~/server/db/reads.server";
import { getEnv } from "~/server/env.server";
import { feedbackCall, submitFeedback } from "~/server/feedback.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { bannerErrors, parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import { hitRateLimit, RATE_LIMITS, tooManyAttemptsMessage } from "~/server/http/rate-limit.server";
import { requestOrigin } from "~/server/http/same-origin.server";
import {
  clearedPushDeviceCookie,
  notificationPreferencesCall,
  setNotificationPreference,
} from "~/server/notification-settings.server";
import { loadUserSummary, userSummaryCall } from "~/server/users.server";

function readTab(value: string | null): "account" | "referrals" | "help" {
  return value === "referrals" || value === "help" ? value : "account";
}

// How an account proves it is its owner (its password, else Google) decides the deletion form
// shown on every view of My Account. It is asked of Firebase once a minute per person, not on
// every view: it changes only outside the app (a password set through the reset email), and a
// stale answer still offers a way that works (Google stays linked).
const SIGN_IN_METHODS_TTL_MS = 60_000;
const signInMethods = memoizeByKey(SIGN_IN_METHODS_TTL_MS, async (userId) => {
  const account = await getAdminAuth().getUser(userId);
  const providers = account.providerData.map((provider) => provider.providerId);
  return { password: providers.includes("password"), google: providers.includes("google.com") };
});

/** docs/product.md, "Profile": tabs My Account, Referrals and Help & Support as URL state (`?tab=`). */
export async function loadProfile(request: Request) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const tab = readTab(url.searchParams.get("tab"));
  const onAccount = tab === "account";
  // The tab's reads in one round trip, beside the profile's; each section still fails on its own.
  const [summaryRead, activityRead, preferencesRead, feedbackRead] = readTogether([
    userSummaryCall(user.uid),
    onAccount ? recentActivityCall(user.uid) : null,
    onAccount ? notificationPreferencesCall(user.uid) : null,
    tab === "help" ? feedbackCall(user.uid) : null,
  ]);
  const sections = Promise.all([
    optionalSection("profile: recent activity", activityRead),
    optionalSection("profile: notification settings", preferencesRead),
    onAccount ? optionalSection("profile: sign-in methods", signInMethods.get(user.uid)) : null,
    optionalSection("profile: feedback", feedbackRead),
  ]);
  let summary;
  try {
    summary = await loadUserSummary(user, summaryRead);
  } catch (error) {
    // The page fails as a whole; whatever the sections meet is no longer anyone's concern.
    sections.catch(() => {});
    // "Failed to load profile" (docs/product.md, "Profile: load failure"): the page says so (and retries with JavaScript).
    console.error("profile failed to load:", error instanceof Response ? `HTTP ${error.status}` : error);
    return data({ failed: true as const, tab }, { status: error instanceof Response ? error.status : 500 });
  }
  const [activity, preferences, methods, feedback] = await sections;
  const { firebase } = getEnv();
  return {
    failed: false as const,
    tab,
    editing: onAccount && url.searchParams.get("edit") === "1",
    confirmingDeactivation: onAccount && url.searchParams.get("confirm") === "deactivate",
    profile: {
      displayName: summary.display_name || "User",
      email: summary.email,
      referralCode: summary.referral_code || null,
      shareUrl: summary.referral_code ? `${requestOrigin(request)}/auth?ref=${summary.referral_code}` : null,
    },
    // What the list shows, not the whole ledger row.
    activity: activity?.map(activityItem) ?? null,
    activityFailed: onAccount && activity === null,
    preferences,
    signInMethods: methods,
    feedback,
    pushConfig: firebase.webPush
      ? { apiKey: firebase.apiKey, projectId: firebase.projectId, ...firebase.webPush }
      : null,
    // Public web-SDK settings, used only to confirm a deletion with Google.
    googleConfig: {
      apiKey: firebase.apiKey,
      authDomain: firebase.authDomain,
      projectId: firebase.projectId,
      emulatorUrl: firebase.emulatorHost ? `http://${firebase.emulatorHost}` : null,
    },
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
      formErrors: bannerErrors(submission, ["displayName", "name", "email", "message"]),
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
      try {
        const preferences = await setNotificationPreference(user.uid, value.kind, value.enabled === "on");
        if (value.respond === "data") return { intent: "notification" as const, preferences };
        // Without JavaScript the page comes back where the switch is, not at the top.
        return redirectWithFlash(`${ACCOUNT_TAB}#notification-settings`, {
          kind: "success",
          title: NOTIFICATION_MESSAGES.updated,
        });
      } catch (error) {
        if (error instanceof Response) throw error;
        console.error("notification settings:", error);
        return rejectForm(submission, { formErrors: [NOTIFICATION_MESSAGES.updateFailed] }, 500);
      }
    case "deactivate":
      return deactivate(user, request);
    case "delete-account":
      return deleteAccount(user, value.password ?? "", value.idToken ?? "", submission, request);
    case "feedback":
      return sendFeedback(user, value, submission);
  }
}

type Submission = Parameters<typeof rejectForm>[0];

/** Deactivation and deletion end with this browser signed out; the database deleted its push token. */
async function signedOutTo(flash: Parameters<typeof redirectWithFlash>[1]) {
  return redirectWithFlash("/auth", flash, [
    ["Set-Cookie", await clearedSessionCookie()],
    ["Set-Cookie", await clearedPushDeviceCookie()],
  ]);
}

/**
 * docs/product.md, "Profile: account management": inactive, signed out everywhere (its sessions revoked) and its push tokens deleted (in
 * set_account_active); signing in again reactivates.
 */
async function deactivate(user: SessionUser, request: Request) {
  try {
    // The database announces the deactivation on commit; the app again once Firebase has revoked.
    await setAccountActive(user.uid, false);
    await revokeSessions(user.uid, request);
    await announceSignedOut(user.uid);
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("deactivation failed:", error);
    return redirectWithFlash(ACCOUNT_TAB, { kind: "error", title: "Failed to deactivate account" });
  }
  return signedOutTo({ kind: "success", title: "Your account has been deactivated" });
}

const DELETE_FAILED = "Failed to delete account. Please check your password and try again.";

/**
 * Permanent deletion (docs/product.md, "Profile: account management") after the person proves it is them: the password, or for an account
 * without one (Google only) a fresh Google sign-in. Then the data (SQL, keeping the money) and the
 * identity account go, in that order: a failure in between leaves an account that can sign in
 * and start afresh, never data without an owner.
 *
 * A withdrawal on its way is looked for before the password: the answer is then the same whatever
 * was typed, so the form tells nothing about the password. The password check itself is limited
 * as a sign-in's is (limitPasswordCheck): a session, stolen or not, is no unlimited password oracle.
 */
async function deleteAccount(
  user: SessionUser,
  password: string,
  idToken: string,
  submission: Submission,
  request: Request,
) {
  const refuse = (message = DELETE_FAILED, status = 400, headers?: HeadersInit) =>
    data(submission.reply({ formErrors: [message], hideFields: ["password"] }), { status, headers });
  if (!user.email) return refuse();
  if (await hasPendingWithdrawal(user.uid)) return refuse(ruleMessage("withdrawal_pending"));
  const proof = await provesIdentity(user, password, idToken, request);
  if (proof !== true) {
    if (proof === false) return refuse();
    const wait = proof.refused.retryAfterSeconds;
    return refuse(tooManyAttemptsMessage(wait, proof.refused.unit), 429, { "Retry-After": String(wait) });
  }
  try {
    await deleteAccountData(user.uid);
  } catch (error) {
    const violation = ruleViolation(error);
    if (violation?.rule === "withdrawal_pending") return refuse(violation.message);
    if (error instanceof Response) throw error;
    console.error("account deletion failed:", error);
    return refuse();
  }
  await getAdminAuth()
    .deleteUser(user.uid)
    .catch((error: unknown) => console.error("account deletion: the identity account stays:", error));
  // As for deactivation: announced on commit, and again now that the identity account is gone.
  await announceSignedOut(user.uid);
  return signedOutTo({ kind: "success", title: "Your account has been deleted" });
}

async function provesIdentity(
  user: SessionUser,
  password: string,
  idToken: string,
  request: Request,
): Promise<boolean | { refused: AttemptRefusal }> {
  if (password) {
    // The sign-in's limits, by the account's address; the device cookie is /auth's only.
    const limit = await limitPasswordCheck(request, user.email!, { device: false });
    if (limit.refused) return { refused: limit.refused };
    try {
      const right = (await signInWithPassword(user.email!, password)).localId === user.uid;
      if (right) await limit.succeeded();
      return right;
    } catch (error) {
      if (error instanceof IdentityError) return false;
      throw error;
    }
  }
  if (!idToken) return false;
  // A token cannot be guessed: no limit needed.
  const claims = await getAdminAuth()
    .verifyIdToken(idToken, true)
    .catch(() => null);
  return claims !== null && claims.uid === user.uid && Date.now() / 1000 - claims.auth_time <= MAX_ID_TOKEN_AGE_SECONDS;
}

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
  const limit = await hitRateLimit(RATE_LIMITS.feedback, user.uid);
  if (!limit.allowed) return rejectForm(submission, { formErrors: [tooManyAttemptsMessage(limit.retryAfterSeconds)] });
  try {
    await submitFeedback(user.uid, feedback);
  } catch (error) {
    return replyWithDbError(submission, error, {
      fields: { feedback_too_long: "message" },
      fallback: FEEDBACK_MESSAGES.failed,
      context: "feedback",
    });
  }
  return redirectWithFlash("/profile?tab=help", { kind: "success", title: FEEDBACK_MESSAGES.submitted });
}
