import { createHash } from "node:crypto";
import { getDatabase } from "../db/database.server";

/**
 * The app's one rate limiter. Counts live in the database (public.hit_rate_limit in
 * supabase/migrations/20261122020000_rate_limits.sql), so every app instance shares them.
 * Refused attempts are not counted: a client hammering a limit does not extend its own wait.
 */
export type RateLimitRule = { name: string; limit: number; windowSeconds: number; sliding?: boolean };

export type RateLimitResult = { allowed: boolean; remaining: number; retryAfterSeconds: number };

const HOUR = 3600;

/** Named rules; callers pass their subject (user id, normalised e-mail, provider) as the key. */
export const RATE_LIMITS = {
  // Per user: feedback is free text that someone reads; a handful an hour is plenty.
  feedback: { name: "feedback", limit: 5, windowSeconds: HOUR, sliding: true },
  // Per user, the same for answers to their own tickets: each one tells the operators by email.
  supportAnswer: { name: "support-answer", limit: 5, windowSeconds: HOUR, sliding: true },
  // Sign-in, sign-up and password reset (app/server/auth/attempt-limits.server.ts, docs/security.md,
  // "Rate limits"). A sign-in's limits count failed password checks only: a right password gives back
  // what its check took.
  // Per e-mail address and client (the browser's device cookie, else the address TRUST_PROXY
  // names): a hard stop for that client alone, so an attacker cannot lock the owner out.
  signInFromClient: { name: "sign-in-client", limit: 10, windowSeconds: 15 * 60, sliding: true },
  // Per e-mail address, from clients it has never signed in on: the failures let through at
  // full speed; beyond them the address is paced (SIGN_IN_PACES) rather than closed.
  signIn: { name: "sign-in", limit: 10, windowSeconds: 15 * 60, sliding: true },
  // Per e-mail address: the failures let through at the first pace; beyond them, the slower one.
  signInSlowed: { name: "sign-in-slowed", limit: 30, windowSeconds: HOUR, sliding: true },
  // Per client address: slows trying one password against many accounts. Above the per-address
  // figures below, people behind one NAT (an office, a mobile carrier) share them.
  signInFromAddress: { name: "sign-in-address", limit: 50, windowSeconds: 15 * 60, sliding: true },
  // Per e-mail address: one account is made once; the rest only ask whether an address is taken.
  signUp: { name: "sign-up", limit: 5, windowSeconds: HOUR, sliding: true },
  // Per client address: stops scripted account creation.
  signUpFromAddress: { name: "sign-up-address", limit: 20, windowSeconds: HOUR, sliding: true },
  // Per client address: stops one sender from mailing a list of addresses.
  passwordResetFromAddress: { name: "password-reset-address", limit: 20, windowSeconds: HOUR, sliding: true },
  // Per user: each request sends an e-mail.
  verificationEmail: { name: "verification-email", limit: 3, windowSeconds: HOUR, sliding: true },
  // Per operator: an authenticator or recovery code typed (docs/decisions/093). A million codes,
  // three of them right at any moment: ten tries in 15 minutes find one in about 500 years.
  operatorSecondFactor: { name: "operator-2fa", limit: 10, windowSeconds: 900, sliding: true },
  // Per client address: promo codes tried (docs/decisions/095), as sign-ups from one address are
  // limited; each account has its own ten an hour in SQL (redeem_promo_code).
  promoCodeFromAddress: { name: "promo-code-address", limit: 30, windowSeconds: HOUR, sliding: true },
  // For everyone together: codes are 7 of 32 symbols, so guessing at this pace finds nothing.
  referralCodeCheck: { name: "referral-code-check", limit: 300, windowSeconds: 60 },
  // For PayPal as a whole: deliveries come in bursts after a batch settles; only a flood is stopped.
  paypalWebhook: { name: "paypal-webhook", limit: 600, windowSeconds: 60 },
  // For RazorpayX as a whole, likewise: a thousand payouts processed together send a burst of
  // several events each (npm run bench, payouts part), and each 429 is delivered again later.
  razorpayxWebhook: { name: "razorpayx-webhook", limit: 10_000, windowSeconds: 60 },
  // For Tremendous as a whole, likewise (a delivered order sends an event per reward).
  tremendousWebhook: { name: "tremendous-webhook", limit: 10_000, windowSeconds: 60 },
} as const satisfies Record<string, RateLimitRule>;

/**
 * An e-mail address past its sign-in failures (RATE_LIMITS.signIn, then signInSlowed) is checked
 * at most once per spacing, whoever asks: an attacker gets a guess every 10 s, then every minute,
 * and the owner at worst waits that long.
 */
export const SIGN_IN_PACES = {
  slowed: { name: "sign-in-pace", spacingSeconds: 10 },
  slowest: { name: "sign-in-pace", spacingSeconds: 60 },
} as const satisfies Record<string, Pace>;

/** One password-reset mail per e-mail address per quarter hour; more requests are answered "sent" and send nothing. */
export const PASSWORD_RESET_MAIL_PACE = {
  name: "password-reset-mail",
  spacingSeconds: 15 * 60,
} as const satisfies Pace;

// The database keeps keys to 200 characters; longer ones (long e-mail addresses) are hashed.
const MAX_KEY_LENGTH = 200;

/** The stored key, `${rule.name}:${key}`, or a hash of it when that would be too long. */
export function rateLimitKey(rule: { name: string }, key: string): string {
  const full = `${rule.name}:${key}`;
  if (full.length <= MAX_KEY_LENGTH) return full;
  return `${rule.name}:sha256:${createHash("sha256").update(key).digest("hex")}`;
}

/** Records one attempt under `rule` for `key` and says whether it may go ahead. */
export async function hitRateLimit(rule: RateLimitRule, key: string): Promise<RateLimitResult> {
  const result = await (
    await getDatabase()
  ).rpc<{ allowed: boolean; remaining: number; retry_after_seconds: number }>("hit_rate_limit", {
    p_key: rateLimitKey(rule, key),
    p_limit: rule.limit,
    p_window_seconds: rule.windowSeconds,
    p_sliding: rule.sliding ?? false,
  });
  return { allowed: result.allowed, remaining: result.remaining, retryAfterSeconds: result.retry_after_seconds };
}

/** Hits an instance took from the database for a key and hands out itself, until `expiresAt` (its clock). */
interface Lease {
  left: number;
  expiresAt: number;
}
const leases = new Map<string, Lease>();
/** A lease being taken, per key: requests arriving meanwhile wait for it instead of each asking. */
const taking = new Map<string, Promise<RateLimitResult>>();

/**
 * As hitRateLimit for a fixed-window rule, for traffic too heavy for a database call (and an update
 * of one hot row) per hit, such as a network's postbacks: the instance takes a hundredth of the
 * limit at a time (take_rate_limit_hits, at most 100, at least 1) and hands it out itself. One
 * instance still lets exactly `limit` through a window; hits an instance holds unused when the
 * window ends are lost to the others, at most a hundredth of the limit each. `remaining` counts
 * this instance's lease only.
 */
export async function leasedRateLimit(rule: RateLimitRule, key: string): Promise<RateLimitResult> {
  if (rule.sliding) throw new Error("leasedRateLimit counts fixed windows only");
  const stored = rateLimitKey(rule, key);
  for (;;) {
    const lease = leases.get(stored);
    if (lease && lease.left > 0 && Date.now() < lease.expiresAt) {
      lease.left -= 1;
      return { allowed: true, remaining: lease.left, retryAfterSeconds: 0 };
    }
    const pending = taking.get(stored);
    if (pending) {
      // Someone else is taking the next lease: share it once it is there.
      const result = await pending;
      if (!result.allowed) return result;
      continue;
    }
    const take = takeLease(rule, stored).finally(() => taking.delete(stored));
    taking.set(stored, take);
    const result = await take;
    if (!result.allowed) return result;
  }
}

/** Takes the next lease of `stored` into `leases`; allowed when it granted anything. */
async function takeLease(rule: RateLimitRule, stored: string): Promise<RateLimitResult> {
  const size = Math.min(100, Math.max(1, Math.floor(rule.limit / 100)));
  const result = await (
    await getDatabase()
  ).rpc<{ granted: number; window_ends_in_seconds: number; retry_after_seconds: number }>("take_rate_limit_hits", {
    p_key: stored,
    p_limit: rule.limit,
    p_window_seconds: rule.windowSeconds,
    p_hits: size,
  });
  if (result.granted === 0) {
    leases.delete(stored);
    return { allowed: false, remaining: 0, retryAfterSeconds: result.retry_after_seconds };
  }
  leases.set(stored, { left: result.granted, expiresAt: Date.now() + Number(result.window_ends_in_seconds) * 1000 });
  return { allowed: true, remaining: result.granted, retryAfterSeconds: 0 };
}

/** A hit that can be given back (a right password gives back what its check took). */
export type HeldHit = RateLimitResult & { refund: () => Promise<void> };

/** As hitRateLimit; an allowed hit can be given back with `refund` (refund_rate_limit). */
export async function takeRateLimit(rule: RateLimitRule, key: string): Promise<HeldHit> {
  const stored = rateLimitKey(rule, key);
  const db = await getDatabase();
  const result = await db.rpc<{
    allowed: boolean;
    remaining: number;
    retry_after_seconds: number;
    window_start?: string;
  }>("take_rate_limit", {
    p_key: stored,
    p_limit: rule.limit,
    p_window_seconds: rule.windowSeconds,
    p_sliding: rule.sliding ?? false,
  });
  const windowStart = result.window_start;
  return {
    allowed: result.allowed,
    remaining: result.remaining,
    retryAfterSeconds: result.retry_after_seconds,
    refund: async () => {
      if (windowStart) await db.rpc("refund_rate_limit", { p_key: stored, p_window_start: windowStart });
    },
  };
}

/** A pace: one attempt per `spacingSeconds` for `key` (pace_attempt); a refused one changes nothing. */
export type Pace = { name: string; spacingSeconds: number };

export async function paceAttempt(pace: Pace, key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const result = await (
    await getDatabase()
  ).rpc<{ allowed: boolean; retry_after_seconds: number }>("pace_attempt", {
    p_key: rateLimitKey(pace, key),
    p_spacing_seconds: pace.spacingSeconds,
  });
  return { allowed: result.allowed, retryAfterSeconds: result.retry_after_seconds };
}

export { tooManyAttemptsMessage } from "~/domain/rate-limit";
