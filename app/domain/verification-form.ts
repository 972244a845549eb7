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

// Kept in urls.ts, which the browser's Home loads without this module's zod schema.
export { VERIFIED_CHECK_PARAM, VERIFIED_CHECK_PATH } from "./urls";

/** The flash when the check finds the address verified (Home's card is gone then). */
export const EMAIL_VERIFIED_FLASH: Flash = { kind: "success", title: "Email verified" };

/** Said on Home's card when the check finds the address not verified yet. */
const NOT_VERIFIED_YET = "Not verified yet — open the link we sent to";

export function notVerifiedYet(email: string | null): string {
  return `${NOT_VERIFIED_YET} ${email ?? "your address"}`;
}
