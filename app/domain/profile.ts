import { DEFAULT_REFERRAL_BONUS_DISPLAY } from "./constants";

/** Spec §3: preferences.referral_bonus is a number or a numeric string; spec §2 shows 9.25 without one. */
export function referralBonusOf(preferences: { referral_bonus?: number | string } | null | undefined): number {
  const value = Number(preferences?.referral_bonus);
  return preferences?.referral_bonus !== undefined && preferences.referral_bonus !== "" && Number.isFinite(value)
    ? value
    : DEFAULT_REFERRAL_BONUS_DISPLAY;
}
