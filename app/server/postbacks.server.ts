import { timingSafeEqual } from "node:crypto";
import { MAX_REWARD_COINS, TASK_ID_PATTERN } from "~/domain/tasks";
import { ruleViolation } from "./db/core.server";
import { getDatabase } from "./db/database.server";
import { discardBody, readBodyText } from "./http/body.server";
import { hitRateLimit, RATE_LIMITS } from "./http/rate-limit.server";
import { plainText } from "./http/responses.server";
import { logValue } from "./log.server";
import { configuredProvider } from "./offers.server";
import { postbackSignature } from "./walls/networks/custom.server";
import { configuredWall, wallPostbackResponse } from "./walls/postbacks.server";

/**
 * Provider postbacks (server-to-server credits; docs/offer-provider.md). Parameters:
 * user_id, transaction_id, amount (whole coins, not zero; negative means a reversal), optional
 * status ("completed" | "reversed"), optional offer_id (the task the credit pays), any others the
 * provider adds, and sig: the hex HMAC-SHA256, keyed with OFFER_POSTBACK_SECRET, of the canonical
 * string below. Each name may appear once, across the query string and the body together.
 */

const SIGNATURE = /^[0-9a-f]{64}$/i;

/** A sig that is not 64 hex digits is simply wrong (never an exception). */
function hasValidSignature(params: ReadonlyMap<string, string>, secret: string): boolean {
  const given = params.get("sig") ?? "";
  if (!SIGNATURE.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, "hex"), Buffer.from(postbackSignature(params, secret), "hex"));
}

/** The parameters by name, or null when a name appears twice (which value was signed?). */
function uniqueParams(pairs: Iterable<[string, string]>): Map<string, string> | null {
  const params = new Map<string, string>();
  for (const [key, value] of pairs) {
    if (params.has(key)) return null;
    params.set(key, value);
  }
  return params;
}

/** Whole coins, not zero, at most MAX_REWARD_COINS either way; null for anything else (or nothing). */
function parseAmount(value: string | undefined): number | null {
  if (value === undefined || !/^-?[0-9]{1,12}$/.test(value)) return null;
  const coins = Number(value);
  return coins !== 0 && Math.abs(coins) <= MAX_REWARD_COINS ? coins : null;
}

const MAX_ID_LENGTH = 200;

// Control characters (NUL above all, which no text column can hold) are in no id.
const hasControlCharacter = (value: string) =>
  [...value].some((character) => character < " " || character === "\u007f");

function validId(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "" && value.length <= MAX_ID_LENGTH && !hasControlCharacter(value);
}

type PostbackResult = { status: number; body: string; retryAfterSeconds?: number };

/** Checks and records a postback's parameters; the answer is the plain text providers expect. */
export async function handlePostback(
  provider: string,
  pairs: Iterable<[string, string]>,
  secret: string,
): Promise<PostbackResult> {
  const params = uniqueParams(pairs);
  if (!params) {
    console.warn(`postback from ${provider} refused: a parameter appears twice`);
    return { status: 400, body: "Duplicate parameter" };
  }
  if (!hasValidSignature(params, secret)) {
    console.warn(
      `postback from ${provider} refused: bad or missing signature (transaction ${logValue(params.get("transaction_id"))})`,
    );
    return { status: 403, body: "Invalid signature" };
  }
  // Counted from here: a forged request costs no database call, and a flood of them cannot use up
  // the provider's allowance. Generous (providers retry in bursts); it stops a runaway sender.
  const limit = await hitRateLimit(RATE_LIMITS.postback, provider);
  if (!limit.allowed) return { status: 429, body: "Too many requests", retryAfterSeconds: limit.retryAfterSeconds };
  const userId = params.get("user_id");
  const transactionId = params.get("transaction_id");
  const offerId = params.get("offer_id");
  if (!validId(userId) || !validId(transactionId) || (offerId !== undefined && !TASK_ID_PATTERN.test(offerId))) {
    return { status: 400, body: "Invalid postback" };
  }
  const amount = parseAmount(params.get("amount"));
  if (amount === null) return { status: 400, body: "Invalid amount" };
  const status = params.get("status") ?? "completed";
  if (status !== "completed" && status !== "reversed") return { status: 400, body: "Invalid status" };
  const reversal = status === "reversed" || amount < 0;
  const db = await getDatabase();
  try {
    await db.rpc("record_postback", {
      p_provider: provider,
      p_transaction_id: transactionId,
      p_user_id: userId,
      p_coins: Math.abs(amount),
      p_reversal: reversal,
      p_description: reversal ? `Offer reversed by ${provider}` : `Offer completed via ${provider}`,
      p_offer_id: offerId ?? null,
    });
  } catch (error) {
    if (ruleViolation(error)?.rule === "account_not_found") return { status: 400, body: "Unknown user" };
    throw error;
  }
  // A repeat is answered like the first, so the provider stops retrying.
  return { status: 200, body: "OK" };
}

/** An answer given before the body is read: the body is dropped unread (within bounds). */
function earlyAnswer(request: Request, status: number, body: string) {
  discardBody(request);
  return plainText(status, body);
}

/**
 * GET or POST /api/{provider}/postback. What can be checked without the body is checked first
 * (the provider and its secret), so a refused request costs no reading; a body is read through
 * the 64 KB cap. Parameters come from the query string and the body. Signed postbacks count
 * against the provider's rate limit (RATE_LIMITS.postback): 429 with Retry-After past it.
 */
export async function postbackResponse(request: Request, providerName: string | undefined): Promise<Response> {
  // An offer wall the operator turned on (WALL_{NAME}_ENABLED) speaks its own network's protocol.
  const wall = configuredWall(providerName);
  if (wall) return wallPostbackResponse(request, wall);
  const config = configuredProvider(providerName);
  if (!config) return earlyAnswer(request, 404, "Unknown provider");
  if (!config.postbackSecret) return earlyAnswer(request, 503, "Postbacks are not configured");

  const pairs = [...new URL(request.url).searchParams];
  if (request.method === "POST") {
    const body = await readBodyText(request);
    if (body === null) return plainText(413, "Payload too large");
    pairs.push(...new URLSearchParams(body));
  }
  const result = await handlePostback(config.name, pairs, config.postbackSecret);
  const response = plainText(result.status, result.body);
  if (result.retryAfterSeconds !== undefined) {
    response.headers.set("Retry-After", String(Math.max(1, Math.ceil(result.retryAfterSeconds))));
  }
  return response;
}
