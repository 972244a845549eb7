import { REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH } from "./constants";

/**
 * The rule message the browser needs (sign-up checks a code before posting): here, not in
 * rules.ts, whose settings and messages the sign-in page would otherwise download with it.
 */
export const INVALID_REFERRAL_CODE_MESSAGE = "This referral code is not valid";

export const REFERRAL_CODE_PATTERN = new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`);

/** True for a well-formed referral code (docs/product.md, "Refer: the rules"); the database generates them. */
export function isReferralCode(value: string): boolean {
  return REFERRAL_CODE_PATTERN.test(value);
}

/** A typed code as stored: trimmed and in capitals; empty means none. */
export function normalizeReferralCode(value: string | null | undefined): string | null {
  const code = (value ?? "").trim().toUpperCase();
  return code === "" ? null : code;
}
