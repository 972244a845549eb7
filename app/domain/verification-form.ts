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
