import { createHmac, timingSafeEqual } from "node:crypto";
import { ruleViolationMessage } from "./db/core.server";
import { getDatabase } from "./db/database.server";

/**
 * Provider postbacks (server-to-server credits). Parameters: user_id, transaction_id, amount
 * (coins; negative means a reversal), optional status ("completed" | "reversed"), and sig: the
 * hex HMAC-SHA256, keyed with OFFER_POSTBACK_SECRET, of every other parameter as `key=value`
 * sorted by key and joined with `&`.
 */
export function postbackSignature(params: URLSearchParams, secret: string): string {
  const canonical = [...params.entries()]
    .filter(([key]) => key !== "sig")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join("&");
  return createHmac("sha256", secret).update(canonical).digest("hex");
}

export function hasValidSignature(params: URLSearchParams, secret: string): boolean {
  const given = params.get("sig") ?? "";
  const expected = postbackSignature(params, secret);
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

export type PostbackResult = { status: number; body: string };

const MAX_COINS = 10_000_000;

/** Validates and records a signed postback; the answer is the plain text providers expect. */
export async function handlePostback(
  provider: string,
  params: URLSearchParams,
  secret: string,
): Promise<PostbackResult> {
  if (!hasValidSignature(params, secret)) {
    console.warn(
      `postback from ${provider} refused: bad or missing signature (transaction ${params.get("transaction_id") ?? "?"})`,
    );
    return { status: 403, body: "Invalid signature" };
  }
  const userId = params.get("user_id")?.trim() ?? "";
  const transactionId = params.get("transaction_id")?.trim() ?? "";
  const amount = Number(params.get("amount"));
  const status = params.get("status") ?? "completed";
  if (
    !userId ||
    !transactionId ||
    transactionId.length > 200 ||
    !Number.isInteger(amount) ||
    Math.abs(amount) > MAX_COINS
  ) {
    return { status: 400, body: "Invalid postback" };
  }
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
    });
  } catch (error) {
    const rule = ruleViolationMessage(error);
    if (rule === "Account not found") return { status: 400, body: "Unknown user" };
    throw error;
  }
  // A repeat is answered like the first, so the provider stops retrying.
  return { status: 200, body: "OK" };
}
