import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import { AUTH_MESSAGES } from "~/domain/auth";
import { EMAIL_CODE_FIELD } from "~/domain/email-codes";
import { ruleMessage } from "~/domain/rules";
import { setAccountActive } from "~/server/account/account.server";
import {
  checkEmailCode,
  clearedChallengeCookie,
  codeRefusal,
  CODE_MESSAGES,
  maskedEmail,
  openCode,
  sendEmailCode,
} from "~/server/account/email-codes.server";
import { recordNetworkSignal } from "~/server/account/network-signals.server";
import { recordSignInSignals } from "~/server/account/signals.server";
import { submitFeedback } from "~/server/account/support.server";
import { deviceCookie } from "~/server/auth/device-cookie.server";
import { idTokenFor, startSession } from "~/server/auth/session.server";
import { ruleViolation } from "~/server/db/core.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { parseSubmission, unreadableForm } from "~/server/http/forms.server";
import { hasValidFormToken } from "~/server/http/form-token.server";
import { safeRedirectPath } from "~/server/http/redirects.server";
import { hasNoSiteHeaders } from "~/server/http/same-origin.server";
import { forgetPushDevice } from "~/server/notifications/settings.server";
import { CODE_HELP_MESSAGES, CODE_STEP_INTENTS, codeStepSchema } from "./code-step-form";

// The sign-in's code step (docs/decisions/092): a password (or Google) sign-in from a device the
// account has not used starts no session; a code goes to the account's email, and the session
// starts once this browser types it.

export function isCodeStepIntent(intent: FormDataEntryValue | null): boolean {
  return typeof intent === "string" && (CODE_STEP_INTENTS as readonly string[]).includes(intent);
}

/** The page of the code step, keeping where the person was going. */
function codeStepPath(redirectTo: string): string {
  const search = new URLSearchParams({ step: "code" });
  if (redirectTo !== "/") search.set("redirectTo", redirectTo);
  return `/auth?${search}`;
}

/**
 * Starts the session of a sign-in that passed every check: reactivates a deactivated account,
 * forgets another account's push token on this browser, records the network (decision 091) and the
 * device signals (decision 064), and remembers this browser as one the account used.
 */
export async function completeSignIn(
  request: Request,
  who: {
    uid: string;
    email: string | null;
    isNewUser: boolean;
    idToken: string;
    redirectTo: string;
    /** Whether the network behind the request is still to be asked (a code step asked it already). */
    askNetwork: boolean;
  },
): Promise<Response> {
  // docs/product.md, "Auth: the rules": signing in again reactivates a deactivated account (the words are ours).
  const { was_active: wasActive } = await setAccountActive(who.uid, true);
  // A push token this browser registered for another account, which never logged out, goes.
  await forgetPushDevice(request, who.uid);
  const title = who.isNewUser ? AUTH_MESSAGES.signedUp : AUTH_MESSAGES.signedIn;
  const description = wasActive ? undefined : AUTH_MESSAGES.reactivated;
  const response = await startSession(who.idToken, {
    redirectTo: who.redirectTo,
    flash: { kind: "success", title, description },
  });
  // The network behind every sign-up and sign-in (decision 091): the latest one is the account's,
  // so signing in again without a VPN ends a pause of earning that one caused.
  if (who.askNetwork) await recordNetworkSignal(request, who.uid, who.isNewUser ? "signup" : "signin");
  // This browser's later sign-ins as this address are counted on their own (attempt-limits.server.ts),
  // and ask no code (decision 092).
  if (who.email) response.headers.append("Set-Cookie", deviceCookie(request, who.email));
  // The device and address range behind this sign-in, for the risk review (docs/decisions/064).
  const deviceIdCookie = await recordSignInSignals(request, who.uid);
  if (deviceIdCookie) response.headers.append("Set-Cookie", deviceIdCookie);
  return response;
}

/** Sends the sign-in's code and moves to its step; or the words of why it could not be sent. */
export async function askSignInCode(
  request: Request,
  uid: string,
  redirectTo: string,
): Promise<{ ok: true; response: Response } | { ok: false; message: string }> {
  // The network is asked now, while the person waits for the email: the email names the country.
  const signal = await recordNetworkSignal(request, uid, "signin");
  const sent = await sendEmailCode(request, {
    userId: uid,
    purpose: "signin",
    what: "sign in on a new device",
    country: signal?.country ?? null,
  });
  if (!sent.ok) return sent;
  return { ok: true, response: redirect(codeStepPath(redirectTo), { headers: { "Set-Cookie": sent.setCookie } }) };
}

/** What the code step shows: where the code went, and whether it can still be tried. Null: no code waits here. */
export async function signInCodeStep(request: Request) {
  const open = await openCode(request, "signin");
  return open ? { sentTo: maskedEmail(open.email), locked: open.locked } : null;
}

type CodeReply = { reply: SubmissionResult<string[]>; unauthorizedDomain: false };

/** The code step's posts: the code, a new code, or a message to support. */
export async function signInCodeAction(request: Request, form: FormData) {
  const submission = parseSubmission(form, codeStepSchema);
  if (!submission) throw unreadableForm();
  const reply = (options: Parameters<typeof submission.reply>[0], status = 400) =>
    data<CodeReply>({ reply: submission.reply(options), unauthorizedDomain: false }, { status });
  if (hasNoSiteHeaders(request) && !hasValidFormToken(request, form)) {
    return reply({ formErrors: [AUTH_MESSAGES.formExpired] }, 403);
  }
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  const open = await openCode(request, "signin");
  // No code waits on this browser (it expired, or was used): the sign-in starts again.
  if (!open) {
    return redirectWithFlash(
      "/auth",
      { kind: "error", title: CODE_MESSAGES.signInAgain },
      { "Set-Cookie": clearedChallengeCookie("signin") },
    );
  }
  if (submission.status !== "success") return reply({});
  const value = submission.value;

  if (value.intent === "signin-code-resend") {
    const sent = await sendEmailCode(request, {
      userId: open.userId,
      purpose: "signin",
      what: "sign in on a new device",
    });
    if (!sent.ok) return reply({ formErrors: [sent.message] }, sent.status);
    return redirectWithFlash(
      codeStepPath(redirectTo),
      { kind: "success", title: "New code sent" },
      { "Set-Cookie": sent.setCookie },
    );
  }

  if (value.intent === "signin-code-help") {
    try {
      await submitFeedback(open.userId, {
        name: "Can't get the sign-in code",
        email: value.contact,
        message: value.message,
      });
    } catch (error) {
      const violation = ruleViolation(error);
      if (!violation) throw error;
      return reply({ formErrors: [violation.message] });
    }
    return redirectWithFlash(codeStepPath(redirectTo), {
      kind: "success",
      title: CODE_HELP_MESSAGES.sent,
      description: CODE_HELP_MESSAGES.sentDetail,
    });
  }

  const checked = await checkEmailCode(request, "signin", value[EMAIL_CODE_FIELD]);
  if (checked.outcome !== "passed") {
    return reply(codeRefusal(checked));
  }
  try {
    const response = await completeSignIn(request, {
      uid: checked.userId,
      email: open.email,
      isNewUser: false,
      idToken: await idTokenFor(checked.userId),
      redirectTo,
      askNetwork: false,
    });
    response.headers.append("Set-Cookie", clearedChallengeCookie("signin"));
    return response;
  } catch (error) {
    // An operator closed the account while the code was on its way: no session is started.
    if (ruleViolation(error)?.rule === "account_banned") return reply({ formErrors: [ruleMessage("account_banned")] });
    throw error;
  }
}
