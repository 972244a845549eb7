import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import { AUTH_MESSAGES, parseAuthTab } from "~/domain/auth";
import { authFormSchema } from "~/domain/auth-form";
import { isReferralCode, normalizeReferralCode } from "~/domain/referral-code";
import { ruleMessage } from "~/domain/rules";
import {
  limitPasswordCheck,
  limitPasswordReset,
  limitSignUp,
  limitTokenSignIn,
  profileExists,
  type AttemptRefusal,
  type PasswordCheckPermit,
} from "~/server/auth/attempt-limits.server";
import {
  AuthRejection,
  authenticator,
  requestPasswordReset,
  type VerifiedIdentity,
} from "~/server/auth/authenticator.server";
import { getAdminAuth } from "~/server/auth/firebase-admin.server";
import { recognisedDevice } from "~/server/auth/device-cookie.server";
import { signInCodeOn } from "~/server/account/email-codes.server";
import { isDomainAuthorized } from "~/server/auth/identity.server";
import { rememberResetEmail, takeResetEmail } from "~/server/auth/reset-email.server";
import { getSessionUser, StaleSignInError } from "~/server/auth/session.server";
import { ruleViolation } from "~/server/db/core.server";
import { getEnv } from "~/server/runtime/env.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { bannerErrors, parseSubmission, readFormData, unreadableForm } from "~/server/http/forms.server";
import { hasValidFormToken, issueFormToken } from "~/server/http/form-token.server";
import { tooManyAttemptsMessage } from "~/server/http/rate-limit.server";
import { safeRedirectPath } from "~/server/http/redirects.server";
import { hasNoSiteHeaders, requestHost } from "~/server/http/same-origin.server";
import { referralCodeExists } from "~/server/earning/referrals.server";
import { firstOfferWords } from "~/server/earning/first-run.server";
import { identityTaken, provisionUser } from "~/server/account/users.server";
import { referralAllowedFor } from "~/server/account/account.server";
import { askSignInCode, completeSignIn, isCodeStepIntent, signInCodeAction, signInCodeStep } from "./code-step.server";

/**
 * /auth (docs/product.md, "Auth"). A share link `/auth?ref=CODE` opens Sign Up with the friend's code
 * filled in; `?step=code` is the sign-in's code step while this browser waits for a code (decision 092).
 */
export async function loadAuthPage(request: Request) {
  if (await getSessionUser(request)) throw redirect("/");
  const { firebase } = getEnv();
  const params = new URL(request.url).searchParams;
  const codeStep = params.get("step") === "code" ? await signInCodeStep(request) : null;
  const referralCode = normalizeReferralCode(params.get("ref"));
  const formToken = issueFormToken(request);
  const resetEmail = await takeResetEmail(request);
  // A share link opens Sign Up; the tabs still switch (their links keep the code).
  const tab = params.has("tab") || !referralCode ? parseAuthTab(params.get("tab")) : ("signup" as const);
  const page = {
    tab,
    // Before sign-up, without an invitation: what a first offer can pay (docs/decisions/096).
    firstOffer: tab === "signup" && !referralCode ? await firstOfferWords() : null,
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
    /** The address a password reset was just asked for: the form shows it again. */
    email: resetEmail.email,
    codeStep,
  };
  const headers = new Headers();
  for (const cookie of [formToken.setCookie, resetEmail.setCookie]) if (cookie) headers.append("Set-Cookie", cookie);
  return data(page, { headers });
}

type AuthReply = { reply: SubmissionResult<string[]>; unauthorizedDomain: boolean };
const hideFields = ["password"];

function refuse(reply: SubmissionResult<string[]>, unauthorizedDomain = false) {
  return data<AuthReply>({ reply, unauthorizedDomain }, { status: 400 });
}

type AuthSubmissionResult = {
  reply: (options: { formErrors: string[]; hideFields: string[] }) => SubmissionResult<string[]>;
};

/** Forgot password (docs/product.md, "Auth: the rules"). The answer is "sent" whether or not a mail went out (limitPasswordReset). */
async function resetPassword(request: Request, email: string, submission: AuthSubmissionResult) {
  const decision = await limitPasswordReset(request, email);
  if (typeof decision === "object") return tooManyAttempts(submission, decision.refused);
  if (decision === "send") {
    const result = await requestPasswordReset(email);
    if (!result.ok) {
      return refuse(
        submission.reply({ formErrors: [AUTH_MESSAGES.resetFailed], hideFields }),
        result.unauthorizedDomain,
      );
    }
  }
  // The next page keeps the address in the form (without JavaScript the page is new).
  return redirectWithFlash(
    "/auth",
    { kind: "success", title: AUTH_MESSAGES.resetSent },
    { "Set-Cookie": await rememberResetEmail(email) },
  );
}

function tooManyAttempts(submission: AuthSubmissionResult, refusal: AttemptRefusal) {
  const wait = refusal.retryAfterSeconds;
  return data<AuthReply>(
    {
      reply: submission.reply({ formErrors: [tooManyAttemptsMessage(wait, refusal.unit)], hideFields }),
      unauthorizedDomain: false,
    },
    { status: 429, headers: { "Retry-After": String(wait) } },
  );
}

/** Sign in, sign up (with an optional referral code), Google, forgot-password, or the sign-in's code step. */
export async function authAction(request: Request) {
  // The strategy reads the body itself, so this parse works on a copy.
  const form = await readFormData(request.clone());
  if (isCodeStepIntent(form.get("intent"))) return signInCodeAction(request, form);
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
  // The limits come before anything else: a refused attempt asks nothing of Firebase and sends no email.
  if (value.intent === "reset") return resetPassword(request, value.email, submission);
  let permit: PasswordCheckPermit | null = null;
  if (value.intent === "signup") {
    const refusal = await limitSignUp(request, value.email);
    if (refusal) return tooManyAttempts(submission, refusal);
  } else {
    const limit =
      value.intent === "signin" ? await limitPasswordCheck(request, value.email) : await limitTokenSignIn(request);
    if (limit.refused) return tooManyAttempts(submission, limit.refused);
    permit = limit;
  }
  const referralCode = "referralCode" in value ? value.referralCode : null;
  const codeRefused = () =>
    refuse(submission.reply({ fieldErrors: { referralCode: [ruleMessage("invalid_referral_code")] }, hideFields }));
  const identityRefused = () =>
    refuse(submission.reply({ fieldErrors: { email: [ruleMessage("email_identity_taken")] }, hideFields }));
  // An unknown code, or an alias of a live account's email, is refused before any account is made.
  if (value.intent === "signup" && referralCode && !(await referralCodeExists(referralCode))) return codeRefused();
  if (value.intent === "signup" && (await identityTaken(value.email))) return identityRefused();
  try {
    const identity = await authenticator.authenticate("firebase-form", request);
    // Only failed checks count against the sign-in limits.
    await permit?.succeeded();
    // A first sign-in here (an account made on Firebase itself, or a first Google sign-in) makes
    // a profile: it is a sign-up, and counts against the sign-up limits.
    const signsUp = identity.isNewUser || !(await profileExists(identity.uid));
    if (signsUp && !identity.isNewUser) {
      const refusal = await limitSignUp(request, identity.email);
      if (refusal) return tooManyAttempts(submission, refusal);
    }
    const refusal = await provisionWithReferral(identity, referralCode);
    if (refusal === "invalid_referral_code") return codeRefused();
    // A Google sign-up, or a sign-up that raced another alias's: refused, its new account undone.
    if (refusal === "email_identity_taken")
      return refuse(submission.reply({ formErrors: [ruleMessage("email_identity_taken")], hideFields }));
    const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
    const newDevice = !identity.email || recognisedDevice(request, identity.email) === null;
    // A sign-in from a device the account has not used asks a code by email first (decision 092);
    // the password alone starts no session. A sign-up has no device to compare with.
    if (!signsUp && newDevice && (await signInCodeOn(identity.uid))) {
      const sent = await askSignInCode(request, identity.uid, redirectTo);
      if (!sent.ok) return refuse(submission.reply({ formErrors: [sent.message], hideFields }));
      return sent.response;
    }
    return await completeSignIn(request, {
      uid: identity.uid,
      email: identity.email,
      isNewUser: identity.isNewUser,
      idToken: identity.idToken,
      redirectTo,
      askNetwork: true,
    });
  } catch (error) {
    if (error instanceof AuthRejection) return refuse(error.reply, error.unauthorizedDomain);
    if (error instanceof StaleSignInError)
      return refuse(submission.reply({ formErrors: [AUTH_MESSAGES.genericError], hideFields }));
    // An operator closed the account (docs/decisions/068): no session is started.
    if (ruleViolation(error)?.rule === "account_banned")
      return refuse(submission.reply({ formErrors: [ruleMessage("account_banned")], hideFields }));
    throw error;
  }
}

// An account younger than this, with no profile here, was made by this very sign-up.
const NEW_ACCOUNT_MS = 10 * 60 * 1000;

/**
 * Makes the profile (the code applies only to a new one). When the code is refused after all (a
 * Google sign-up, which is checked in the browser before the popup; or a code that went away), or
 * the email's identity belongs to another live account (docs/decisions/064), the identity
 * account this sign-up just made is deleted again, so no half-made account stays.
 */
async function provisionWithReferral(
  identity: VerifiedIdentity,
  referralCode: string | null,
): Promise<"invalid_referral_code" | "email_identity_taken" | null> {
  try {
    await provisionUser({
      uid: identity.uid,
      email: identity.email,
      displayName: identity.displayName,
      // An email that belonged to a deleted account brings no referral (docs/operations.md, "Deleting an account").
      referralCode: referralCode && (await referralAllowedFor(identity.email)) ? referralCode : null,
      emailVerified: identity.emailVerified,
    });
    return null;
  } catch (error) {
    const rule = ruleViolation(error)?.rule;
    if (rule !== "invalid_referral_code" && rule !== "email_identity_taken") throw error;
    const auth = getAdminAuth();
    const account = await auth.getUser(identity.uid);
    if (Date.now() - Date.parse(account.metadata.creationTime) < NEW_ACCOUNT_MS) await auth.deleteUser(identity.uid);
    return rule;
  }
}
