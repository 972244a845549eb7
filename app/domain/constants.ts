// Business constants of docs/product.md, "Constants", shared by server and browser.
export const MIN_PASSWORD_LENGTH = 6;
export const CHECKIN_DAY_COUNT = 7;
export const TASK_COMPLETION_DELAY_MS = 5000;
export const QUICK_TASK_COUNT = 2;
export const REFERRAL_CODE_LENGTH = 7;
/** Uppercase letters and digits without the look-alikes I, O, 0 and 1. */
export const REFERRAL_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const LEADERBOARD_SIZE = 50;
/** A person's own rank is counted exactly up to here; below it they read "1,000+" (decision 075). */
export const LEADERBOARD_COUNTED_RANKS = 1_000;
/** Firebase allows session cookies of at most 14 days. */
export const SESSION_MAX_AGE_SECONDS = 14 * 24 * 60 * 60;
/** An ID token older than this cannot be turned into a session (Firebase's own advice). */
export const MAX_ID_TOKEN_AGE_SECONDS = 5 * 60;
export const ONBOARDING_COOKIE = "hasSeenOnboarding";
