import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import { AUTH_MESSAGES, parseAuthTab } from "~/domain/auth";
import { authFormSchema, type AuthSubmission } from "~/domain/auth-form";
import { isReferralCode, normalizeReferralCode } from "~/domain/referral-code";
import { ruleMessage } from "~/domain/rules";
import { limitAuthAttempt, type AuthAttempt } from "./auth/attempt-limits.server";
import { AuthRejection, authenticator, requestPasswordReset, type VerifiedIdentity } from "./auth/authenticator.server";
import { getAdminAuth } from "./auth/firebase-admin.server";
import { isDomainAuthorized } from "./auth/identity.server";
import { getSessionUser, StaleSignInError, startSession } from "./auth/session.server";
import { ruleViolation } from "./db/core.server";
import { getEnv } from "./env.server";
import { redirectWithFlash } from "./http/flash.server";
import { bannerErrors, parseSubmission, readFormData, unreadableForm } from "./http/forms.server";
import { hasValidFormToken, issueFormToken } from "./http/form-token.server";
import { tooManyAttemptsMessage } from "./http/rate-limit.server";
import { safeRedirectPath } from "./http/redirects.server";
import { hasNoSiteHeaders, requestHost } from "./http/same-origin.server";
import { referralCodeExists } from "./referrals.server";
import { forgetPushDevice } from "./notification-settings.server";
import { provisionUser } from "./users.server";
import { referralAllowedFor, setAccountActive } from "./account.server";

/** Spec §2 /auth. A share link `/auth?ref=CODE` opens Sign Up with the friend's code filled in. */
export async function loadAuthPage(request: Request) {
  if (await getSessionUser(request)) throw redirect("/");
  const { firebase } = getEnv();
  const params = new URL(request.url).searchParams;
  const referralCode = normalizeReferralCode(params.get("ref"));
  const formToken = issueFormToken(request);
  const page = {
    // A share link opens Sign Up; the tabs still switch (their links keep the code).
    tab: params.has("tab") || !referralCode ? parseAuthTab(params.get("tab")) : ("signup" as const),
    redirectTo: safeRedirectPath(params.get("redirectTo")),
    referralCode: referralCode && isReferralCode(referralCode) ? referralCode : null,
    domainAuthorized: await isDomainAuthorized(requestHost(request).replace(/:\d+$/, "")),
    // Public web-SDK settings, used only when the person asks for Google sign-in.
    firebaseConfig: {
      apiKey: firebase.apiKey,
      authDomain: firebase.authDomain,
      projectId: firebase.projectId,
      emulatorUrl: firebase.emulatorHost ? `http://${firebase.emulatorHost}` : null,
    },
    formToken: formToken.token,
  };
  return data(page, formToken.setCookie ? { headers: { "Set-Cookie": formToken.setCookie } } : undefined);
}

type AuthReply = { reply: SubmissionResult<string[]>; unauthorizedDomain: boolean };
const hideFields = ["password"];

function refuse(reply: SubmissionResult<string[]>, unauthorizedDomain = false) {
  return data<AuthReply>({ reply, unauthorizedDomain }, { status: 400 });
}

const ATTEMPTS: Record<AuthSubmission["intent"], AuthAttempt> = {
  signin: "signIn",
  google: "signIn",
  signup: "signUp",
  reset: "passwordReset",
};

/** Sign in, sign up (with an optional referral code), Google, or forgot-password. */
export async function authAction(request: Request) {
  // The strategy reads the body itself, so this parse works on a copy.
  const form = await readFormData(request.clone());
  const submission = parseSubmission(form, authFormSchema);
  if (!submission) throw unreadableForm();
  // A browser that sends neither Origin nor Sec-Fetch-Site may be posting from another site.
  if (hasNoSiteHeaders(request) && !hasValidFormToken(request, form)) {
    return data<AuthReply>(
      { reply: submission.reply({ formErrors: [AUTH_MESSAGES.formExpired], hideFields }), unauthorizedDomain: false },
      { status: 403 },
    );
  }
  if (submission.status !== "success") {
    // Google's ID token is a hidden field: its message goes to the form's banner.
    const formErrors = bannerErrors(submission, ["email", "password", "referralCode"]);
    return refuse(submission.reply({ formErrors, hideFields }));
  }
  const value = submission.value;
  // Before anything else: a refused attempt asks nothing of Firebase and sends no email.
  const wait = await limitAuthAttempt(ATTEMPTS[value.intent], request, "email" in value ? value.email : null);
  if (wait !== null) {
    return data<AuthReply>(
      {
        reply: submission.reply({ formErrors: [tooManyAttemptsMessage(wait)], hideFields }),
        unauthorizedDomain: false,
      },
      { status: 429, headers: { "Retry-After": String(wait) } },
    );
  }
  if (value.intent === "reset") {
    const result = await requestPasswordReset(value.email);
    if (!result.ok) {
      return refuse(
        submission.reply({ formErrors: [AUTH_MESSAGES.resetFailed], hideFields }),
        result.unauthorizedDomain,
      );
    }
    return redirectWithFlash("/auth", { kind: "success", title: AUTH_MESSAGES.resetSent });
  }
  const referralCode = "referralCode" in value ? value.referralCode : null;
  const codeRefused = () =>
    refuse(submission.reply({ fieldErrors: { referralCode: [ruleMessage("invalid_referral_code")] }, hideFields }));
  // An unknown code is refused before any account is made.
  if (value.intent === "signup" && referralCode && !(await referralCodeExists(referralCode))) return codeRefused();
  try {
    const identity = await authenticator.authenticate("firebase-form", request);
    if (!(await provisionWithReferral(identity, referralCode))) return codeRefused();
    // Spec §4: signing in again reactivates a deactivated account (the words are ours).
    const { was_active: wasActive } = await setAccountActive(identity.uid, true);
    // A push token this browser registered for another account, which never logged out, goes.
    await forgetPushDevice(request, identity.uid);
    const title = identity.isNewUser ? AUTH_MESSAGES.signedUp : AUTH_MESSAGES.signedIn;
    const description = wasActive ? undefined : AUTH_MESSAGES.reactivated;
    const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
    return await startSession(identity.idToken, { redirectTo, flash: { kind: "success", title, description } });
  } catch (error) {
    if (error instanceof AuthRejection) return refuse(error.reply, error.unauthorizedDomain);
    if (error instanceof StaleSignInError)
      return refuse(submission.reply({ formErrors: [AUTH_MESSAGES.genericError], hideFields }));
    throw error;
  }
}

// An account younger than this, with no profile here, was made by this very sign-up.
const NEW_ACCOUNT_MS = 10 * 60 * 1000;

/**
 * Makes the profile (the code applies only to a new one). When the code is refused after all (a
 * Google sign-up, which is checked in the browser before the popup; or a code that went away),
 * the identity account this sign-up just made is deleted again, so no half-made account stays.
 */
async function provisionWithReferral(identity: VerifiedIdentity, referralCode: string | null): Promise<boolean> {
  try {
    await provisionUser({
      uid: identity.uid,
      email: identity.email,
      displayName: identity.displayName,
      // An email that belonged to a deleted account brings no referral (README).
      referralCode: referralCode && (await referralAllowedFor(identity.email)) ? referralCode : null,
      emailVerified: identity.emailVerified,
    });
    return true;
  } catch (error) {
    if (ruleViolation(error)?.rule !== "invalid_referral_code") throw error;
    const auth = getAdminAuth();
    const account = await auth.getUser(identity.uid);
    if (Date.now() - Date.parse(account.metadata.creationTime) < NEW_ACCOUNT_MS) await auth.deleteUser(identity.uid);
    return false;
  }
}
