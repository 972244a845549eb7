import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";
import { clientAddress } from "../http/client-address.server";
import {
  hitRateLimit,
  paceAttempt,
  PASSWORD_RESET_MAIL_PACE,
  RATE_LIMITS,
  SIGN_IN_PACES,
  takeRateLimit,
  type HeldHit,
  type RateLimitRule,
} from "../http/rate-limit.server";
import { recognisedDevice } from "./device-cookie.server";

/** Refused: the seconds to wait, and whether to say them in seconds (a pace) or minutes. */
export type AttemptRefusal = { retryAfterSeconds: number; unit: "seconds" | "minutes" };

/** Let through: `succeeded` gives back what the attempt took (only failures are meant to count). */
export type PasswordCheckPermit = { refused: null; succeeded: () => Promise<void> };

// Firebase treats addresses case-insensitively, so the limits do too.
const normalized = (email: string) => email.trim().toLowerCase();

function everyone(name: string): RateLimitRule {
  // Generous and short: it only stops a flood, and lets everyone back in soon after one.
  return { name, limit: getEnv().authGlobalLimitPerMinute, windowSeconds: 60, sliding: true };
}

async function emailHasProfile(email: string): Promise<boolean> {
  return (await getDatabase()).rpc<boolean>("email_has_profile", { p_email: email });
}

/** Whether the user (a Firebase uid) has a profile here: without one, a sign-in is a sign-up. */
export async function profileExists(userId: string): Promise<boolean> {
  return (await getDatabase()).rpc<boolean>("profile_exists", { p_user_id: userId });
}

/** Hits taken so far for one attempt: given back together when it is refused or succeeds. */
class Holds {
  private hits: HeldHit[] = [];
  async take(rule: RateLimitRule, key: string): Promise<HeldHit> {
    const hit = await takeRateLimit(rule, key);
    if (hit.allowed) this.hits.push(hit);
    return hit;
  }
  async giveBack(): Promise<void> {
    const hits = this.hits;
    this.hits = [];
    for (const hit of hits) await hit.refund();
  }
}

/**
 * The limits on checking a password for `email` (a sign-in, or the delete-account form's check),
 * asked before Firebase is. Each limit's hit is taken now, so a burst of parallel guesses cannot
 * all slip past a count made before any of them failed, and given back by `succeeded` when the
 * password was right: only failures add up. A refused attempt gives back what it took.
 *
 *  1. This address from this client (a browser that signed in as it before: its device cookie;
 *     else the address TRUST_PROXY names): 10 failures per 15 minutes, then 429 for that client
 *     only. The owner, elsewhere, is not affected.
 *  2. This address from clients it never signed in on: 10 failures per 15 minutes at full speed;
 *     then one check per 10 seconds for the next 30 failures in an hour, then one per minute.
 *     A slow-down, never a closed door: the right password gets in at its turn.
 *  3. The client address (TRUST_PROXY): 50 failures per 15 minutes, against one password tried on
 *     many accounts.
 *  4. Everyone: AUTH_GLOBAL_LIMIT_PER_MINUTE failures a minute for addresses that have a profile.
 *     Made-up addresses have a budget of their own (per client address when one is known), so a
 *     flood of them cannot close sign-in for the real users.
 */
export async function limitPasswordCheck(
  request: Request,
  rawEmail: string,
  options: { device?: boolean } = {},
): Promise<PasswordCheckPermit | { refused: AttemptRefusal }> {
  const email = normalized(rawEmail);
  const device = options.device === false ? null : recognisedDevice(request, email);
  const address = clientAddress(request);
  const holds = new Holds();
  const refuse = async (retryAfterSeconds: number, unit: AttemptRefusal["unit"] = "minutes") => {
    await holds.giveBack();
    return { refused: { retryAfterSeconds, unit } };
  };

  const client = device ? `device:${device}` : address;
  if (client) {
    const hit = await holds.take(RATE_LIMITS.signInFromClient, `${email} ${client}`);
    if (!hit.allowed) return refuse(hit.retryAfterSeconds);
  }
  if (!device) {
    const slowed = !(await holds.take(RATE_LIMITS.signIn, email)).allowed;
    if (slowed) {
      const slowest = !(await holds.take(RATE_LIMITS.signInSlowed, email)).allowed;
      const pace = await paceAttempt(slowest ? SIGN_IN_PACES.slowest : SIGN_IN_PACES.slowed, email);
      if (!pace.allowed) return refuse(pace.retryAfterSeconds, "seconds");
    }
  }
  if (address) {
    const hit = await holds.take(RATE_LIMITS.signInFromAddress, address);
    if (!hit.allowed) return refuse(hit.retryAfterSeconds);
  }
  const known = await emailHasProfile(email);
  const crowd = known
    ? await holds.take(everyone("sign-in-everyone"), "all")
    : await holds.take(everyone("sign-in-unknown"), address ?? "all");
  if (!crowd.allowed) return refuse(crowd.retryAfterSeconds);
  return { refused: null, succeeded: () => holds.giveBack() };
}

/**
 * A Google sign-in, asked before its ID token is checked (a token cannot be guessed, so there is
 * no per-account count): the client address's and everyone's sign-in budgets, given back when it
 * succeeds.
 */
export async function limitTokenSignIn(request: Request): Promise<PasswordCheckPermit | { refused: AttemptRefusal }> {
  const address = clientAddress(request);
  const holds = new Holds();
  const checks: [RateLimitRule, string][] = [];
  if (address) checks.push([RATE_LIMITS.signInFromAddress, address]);
  checks.push([everyone("sign-in-everyone"), "all"]);
  for (const [rule, key] of checks) {
    const hit = await holds.take(rule, key);
    if (!hit.allowed) {
      await holds.giveBack();
      return { refused: { retryAfterSeconds: hit.retryAfterSeconds, unit: "minutes" } };
    }
  }
  return { refused: null, succeeded: () => holds.giveBack() };
}

/**
 * Counts one sign-up (a new account, or a first sign-in that makes a profile here): per e-mail
 * address (when known), per client address (TRUST_PROXY), then for everyone. Every sign-up counts.
 * The narrowest limit is asked first: a refused attempt is not counted, so someone hammering one
 * address, or sending from one client, stops using up the budget everybody shares.
 */
export async function limitSignUp(request: Request, email: string | null): Promise<AttemptRefusal | null> {
  const checks: [RateLimitRule, string][] = [];
  if (email) checks.push([RATE_LIMITS.signUp, normalized(email)]);
  const address = clientAddress(request);
  if (address) checks.push([RATE_LIMITS.signUpFromAddress, address]);
  checks.push([everyone("sign-up-everyone"), "all"]);
  for (const [rule, key] of checks) {
    const result = await hitRateLimit(rule, key);
    if (!result.allowed) return { retryAfterSeconds: result.retryAfterSeconds, unit: "minutes" };
  }
  return null;
}

/**
 * A password-reset request: "send" (ask Firebase to mail the link), "quiet" (answer "sent" and
 * send nothing), or a refusal (429). Never does the answer say whether the address has an account.
 *  - per client address (TRUST_PROXY): 20 an hour, every request counted, then 429;
 *  - an address without a profile here: quiet (nobody to mail; Firebase is not asked);
 *  - everyone: AUTH_GLOBAL_LIMIT_PER_MINUTE mails a minute, then 429;
 *  - per e-mail address: one mail per 15 minutes; more requests are quiet. A stranger can neither
 *    fill the owner's inbox nor lock the owner's reset: the mail already sent works.
 */
export async function limitPasswordReset(
  request: Request,
  rawEmail: string,
): Promise<"send" | "quiet" | { refused: AttemptRefusal }> {
  const email = normalized(rawEmail);
  const address = clientAddress(request);
  if (address) {
    const hit = await hitRateLimit(RATE_LIMITS.passwordResetFromAddress, address);
    if (!hit.allowed) return { refused: { retryAfterSeconds: hit.retryAfterSeconds, unit: "minutes" } };
  }
  if (!(await emailHasProfile(email))) return "quiet";
  const crowd = await takeRateLimit(everyone("password-reset-everyone"), "all");
  if (!crowd.allowed) return { refused: { retryAfterSeconds: crowd.retryAfterSeconds, unit: "minutes" } };
  if (!(await paceAttempt(PASSWORD_RESET_MAIL_PACE, email)).allowed) {
    await crowd.refund();
    return "quiet";
  }
  return "send";
}
