import { VERIFIED_CHECK_PATH } from "~/domain/verification-form";
import { getDatabase } from "../db/database.server";
import { hitRateLimit, RATE_LIMITS, tooManyAttemptsMessage } from "../http/rate-limit.server";
import { requestOrigin } from "../http/same-origin.server";
import { getEnv } from "../runtime/env.server";
import { logValue } from "../runtime/log.server";
import { serviceUnavailable } from "../runtime/unavailable.server";
import { getAdminAuth, isFirebaseUnavailable } from "./firebase-admin.server";
import { IdentityError, sendVerificationEmail } from "./identity.server";
import { idTokenFor } from "./session.server";

/**
 * Whether the user's email is verified. The profile remembers a verification once the app has
 * seen it; until then firebase-admin is asked (the session cookie's claim is fixed at sign-in and
 * stays false after the user clicks the link), and a yes is recorded, which may also complete a
 * referral (record_email_verified).
 */
export async function ensureEmailVerified(userId: string, known: boolean): Promise<boolean> {
  if (known) return true;
  let verified: boolean;
  try {
    verified = (await getAdminAuth().getUser(userId)).emailVerified;
  } catch (error) {
    if (isFirebaseUnavailable(error)) throw serviceUnavailable();
    throw error;
  }
  if (verified) await (await getDatabase()).rpc("record_email_verified", { p_user_id: userId });
  return verified;
}

/**
 * Where the verification email's link returns once opened: Home's check (docs/product.md, "Home:
 * verifying the email"), at PUBLIC_URL, or else at the address the browser used for this request.
 */
function verificationReturnUrl(request: Request): string {
  return `${getEnv().publicUrl ?? requestOrigin(request)}${VERIFIED_CHECK_PATH}`;
}

/**
 * Sends the verification e-mail, its link returning to `returnUrl`. The provider wants the user's
 * own ID token, which a cookie session does not hold, so the server mints one: a custom token for
 * the user, exchanged for an ID token. A return address outside the project's authorised domains
 * is refused by the provider (UNAUTHORIZED_DOMAIN): the email then goes without it, as before
 * there was one, rather than not at all.
 */
export async function sendVerificationEmailTo(userId: string, returnUrl: string): Promise<void> {
  const idToken = await idTokenFor(userId);
  try {
    await sendVerificationEmail(idToken, returnUrl);
  } catch (error) {
    if (!(error instanceof IdentityError) || error.code !== "UNAUTHORIZED_DOMAIN") throw error;
    console.warn(
      `verification email: ${logValue(new URL(returnUrl).hostname)} is not an authorised domain of the Firebase project; sent without the link back to the app (set PUBLIC_URL to an authorised address, or authorise the domain)`,
    );
    await sendVerificationEmail(idToken);
  }
}

/**
 * "Send verification email" on Home or Withdraw, and the console's resend: sends it unless the
 * allowance is used up; the refusal's words, or null. `request` gives the link's way back when
 * PUBLIC_URL is not set.
 */
export async function requestVerificationEmail(userId: string, request: Request): Promise<string | null> {
  const limit = await hitRateLimit(RATE_LIMITS.verificationEmail, userId);
  if (!limit.allowed) return tooManyAttemptsMessage(limit.retryAfterSeconds);
  await sendVerificationEmailTo(userId, verificationReturnUrl(request));
  return null;
}
