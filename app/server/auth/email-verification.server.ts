import { getDatabase } from "../db/database.server";
import { hitRateLimit, RATE_LIMITS, tooManyAttemptsMessage } from "../http/rate-limit.server";
import { serviceUnavailable } from "../runtime/unavailable.server";
import { getAdminAuth, isFirebaseUnavailable } from "./firebase-admin.server";
import { sendVerificationEmail, signInWithCustomToken } from "./identity.server";

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
 * Sends the verification e-mail. The provider wants the user's own ID token, which a cookie
 * session does not hold, so the server mints one: a custom token for the user, exchanged for an
 * ID token.
 */
export async function sendVerificationEmailTo(userId: string): Promise<void> {
  const customToken = await getAdminAuth().createCustomToken(userId);
  const { idToken } = await signInWithCustomToken(customToken);
  await sendVerificationEmail(idToken);
}

/** "Send verification email" on Home or Withdraw: sends it unless the allowance is used up; the refusal's words, or null. */
export async function requestVerificationEmail(userId: string): Promise<string | null> {
  const limit = await hitRateLimit(RATE_LIMITS.verificationEmail, userId);
  if (!limit.allowed) return tooManyAttemptsMessage(limit.retryAfterSeconds);
  await sendVerificationEmailTo(userId);
  return null;
}
