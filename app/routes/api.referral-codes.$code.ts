import type { LoaderFunctionArgs } from "@remix-run/node";
import { isReferralCode, normalizeReferralCode } from "~/domain/referral-code";
import { hitRateLimit, RATE_LIMITS } from "~/server/http/rate-limit.server";
import { methodNotAllowed, tooManyRequests } from "~/server/http/responses.server";
import { referralCodeExists } from "~/server/earning/referrals.server";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * GET /api/referral-codes/{code} → `{ "exists": boolean }`: the sign-up page asks before Google's
 * popup makes an account. One limit for everybody keeps guessing codes pointless.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const code = normalizeReferralCode(params.code);
  if (!code || !isReferralCode(code)) return Response.json({ exists: false }, { headers: NO_STORE });
  const limit = await hitRateLimit(RATE_LIMITS.referralCodeCheck, "everyone");
  if (!limit.allowed) return tooManyRequests(limit.retryAfterSeconds);
  return Response.json({ exists: await referralCodeExists(code) }, { headers: NO_STORE });
}

// Any other method: a 405 that says which to use (without an action, Remix answers "Unexpected Server Error" and logs a stack).
export const action = () => methodNotAllowed("GET");
