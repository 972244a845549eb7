import { signedInRecently } from "~/domain/operator-roles";
import { tooManyAttemptsMessage } from "~/domain/rate-limit";
import { limitPasswordCheck } from "../auth/attempt-limits.server";
import { IdentityError, signInWithPassword } from "../auth/identity.server";
import { sessionCookieFor } from "../auth/session.server";
import type { Operator } from "./access.server";
import { hitRateLimit, RATE_LIMITS } from "../http/rate-limit.server";
import { checkTotp, twoFactorRequired } from "./two-factor.server";

/**
 * Money actions in the console (approve, pay, reject, adjust: docs/operator-console.md, "Money
 * actions need a recent sign-in") need a sign-in within the last 15 minutes. A form that moves
 * money carries a password field while the session is older than that; the action checks the
 * password here, in the same post, so nothing the operator typed is lost, and renews the session.
 */

export const RECENT_SIGN_IN_MESSAGES = {
  needed: "Enter your password: money, policy and access changes need a sign-in within the last 15 minutes.",
  wrong: "That password is not right.",
  noPassword: "Your account signs in with Google: sign out and sign in again, then do this within 15 minutes.",
  unreachable: "The sign-in service could not be reached. Please try again in a moment.",
  codeNeeded: "Enter your password and the code your authenticator app shows now.",
  wrongCode: "That authenticator code is not right, or was already used. Type the code the app shows now.",
} as const;

export type RecentSignIn =
  /** Recent enough: go ahead; `setCookie` renews the session when the password was typed. */
  { ok: true; setCookie: string | null } | { ok: false; problem: string; status: number; retryAfterSeconds?: number };

/**
 * The step-up: with a sign-in older than 15 minutes, the password typed again and, where the console
 * asks for its authenticator (docs/decisions/093), a code from it, used once.
 */
export async function confirmRecentSignIn(
  request: Request,
  operator: Operator,
  typed: { password: string; totpCode: string },
): Promise<RecentSignIn> {
  if (signedInRecently(operator.authTime)) return { ok: true, setCookie: null };
  if (!operator.email) return { ok: false, problem: RECENT_SIGN_IN_MESSAGES.noPassword, status: 403 };
  const { password, totpCode } = typed;
  if (!password) return { ok: false, problem: RECENT_SIGN_IN_MESSAGES.needed, status: 403 };
  const withCode = twoFactorRequired();
  if (withCode && !totpCode) return { ok: false, problem: RECENT_SIGN_IN_MESSAGES.codeNeeded, status: 403 };
  // The sign-in's limits: a stolen console session is no unlimited password oracle.
  const limit = await limitPasswordCheck(request, operator.email, { device: false });
  if (limit.refused) {
    const wait = limit.refused.retryAfterSeconds;
    return {
      ok: false,
      problem: tooManyAttemptsMessage(wait, limit.refused.unit),
      status: 429,
      retryAfterSeconds: wait,
    };
  }
  let idToken: string;
  try {
    const signIn = await signInWithPassword(operator.email, password);
    if (signIn.localId !== operator.uid) return { ok: false, problem: RECENT_SIGN_IN_MESSAGES.wrong, status: 403 };
    idToken = signIn.idToken;
  } catch (error) {
    if (!(error instanceof IdentityError)) throw error;
    if (error.code === "NETWORK_REQUEST_FAILED") {
      return { ok: false, problem: RECENT_SIGN_IN_MESSAGES.unreachable, status: 503 };
    }
    return { ok: false, problem: RECENT_SIGN_IN_MESSAGES.wrong, status: 403 };
  }
  await limit.succeeded();
  if (withCode) {
    const tries = await hitRateLimit(RATE_LIMITS.operatorSecondFactor, operator.uid);
    if (!tries.allowed) {
      const wait = tries.retryAfterSeconds;
      return { ok: false, problem: tooManyAttemptsMessage(wait), status: 429, retryAfterSeconds: wait };
    }
    if (!(await checkTotp(operator.uid, totpCode)).ok) {
      return { ok: false, problem: RECENT_SIGN_IN_MESSAGES.wrongCode, status: 403 };
    }
  }
  return { ok: true, setCookie: await sessionCookieFor(idToken) };
}
