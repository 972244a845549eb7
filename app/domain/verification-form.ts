import { literal, object } from "zod/mini";
import type { Flash } from "./flash";

/** "Send verification email", on Home and on Withdraw: a button with its intent and nothing else. */
export const sendVerificationFormSchema = object({ intent: literal("send-verification") });

/** The flash after it was sent, naming the address. */
export function verificationEmailSent(email: string | null): Flash {
  return {
    kind: "success",
    title: "Verification email sent",
    description: `Open the link we sent to ${email ?? "your address"}, then come back here.`,
  };
}

/**
 * Home's address that asks the identity provider whether the email is verified: where the
 * verification email's link returns to, and where Home's "Check again" goes.
 */
export const VERIFIED_CHECK_PARAM = "verified";
export const VERIFIED_CHECK_PATH = `/?${VERIFIED_CHECK_PARAM}=1`;

/** The flash when the check finds the address verified (Home's card is gone then). */
export const EMAIL_VERIFIED_FLASH: Flash = { kind: "success", title: "Email verified" };

/** Said on Home's card when the check finds the address not verified yet. */
const NOT_VERIFIED_YET = "Not verified yet — open the link we sent to";

export function notVerifiedYet(email: string | null): string {
  return `${NOT_VERIFIED_YET} ${email ?? "your address"}`;
}
