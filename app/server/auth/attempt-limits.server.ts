import { getEnv } from "../env.server";
import { clientAddress } from "../http/client-address.server";
import { hitRateLimit, RATE_LIMITS, type RateLimitRule } from "../http/rate-limit.server";

export type AuthAttempt = "signIn" | "signUp" | "passwordReset";

const RULES = {
  signIn: { email: RATE_LIMITS.signIn, address: RATE_LIMITS.signInFromAddress, everyone: "sign-in-everyone" },
  signUp: { email: RATE_LIMITS.signUp, address: RATE_LIMITS.signUpFromAddress, everyone: "sign-up-everyone" },
  passwordReset: {
    email: RATE_LIMITS.passwordReset,
    address: RATE_LIMITS.passwordResetFromAddress,
    everyone: "password-reset-everyone",
  },
} as const;

/**
 * Counts one sign-in, sign-up or password-reset attempt and answers null when it may go ahead, or
 * the seconds to wait when a limit is reached: per e-mail address (always), per client address
 * (only when TRUST_PROXY lets one be believed), then for everyone together, AUTH_GLOBAL_LIMIT_PER_MINUTE
 * (generous: it only stops a flood, and a short window lets everyone back in soon after one).
 *
 * Every attempt counts, not only failed ones: the count is taken in the same statement that lets
 * the attempt through, so a burst of parallel password guesses cannot all slip past a check made
 * before any of them has failed. Someone who knows their password signs in once a fortnight (the
 * session's lifetime) and never meets the limit.
 *
 * The narrowest limit is asked first: a refused attempt is not counted, so someone hammering one
 * address, or sending from one client, stops using up the budget everybody shares. (The other way
 * round costs less: an attempt a wider limit refuses has used one of its narrower ones.)
 */
export async function limitAuthAttempt(
  attempt: AuthAttempt,
  request: Request,
  email: string | null,
): Promise<number | null> {
  const rules = RULES[attempt];
  const checks: [RateLimitRule, string][] = [];
  // Firebase treats addresses case-insensitively, so the limit does too.
  if (email) checks.push([rules.email, email.trim().toLowerCase()]);
  const address = clientAddress(request);
  if (address) checks.push([rules.address, address]);
  const everyone: RateLimitRule = {
    name: rules.everyone,
    limit: getEnv().authGlobalLimitPerMinute,
    windowSeconds: 60,
    sliding: true,
  };
  checks.push([everyone, "all"]);
  for (const [rule, key] of checks) {
    const result = await hitRateLimit(rule, key);
    if (!result.allowed) return result.retryAfterSeconds;
  }
  return null;
}
