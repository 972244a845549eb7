import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { ruleViolation } from "./db/core.server";
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

const postbackSchema = z.object({
  user_id: z.string().trim().min(1),
  transaction_id: z.string().trim().min(1).max(200),
  amount: z.coerce
    .number()
    .int()
    .refine((coins) => Math.abs(coins) <= MAX_COINS),
  status: z.string().default("completed"),
});

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
  const parsed = postbackSchema.safeParse(Object.fromEntries(params));
  if (!parsed.success) return { status: 400, body: "Invalid postback" };
  const { user_id: userId, transaction_id: transactionId, amount, status } = parsed.data;
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
    if (ruleViolation(error)?.rule === "account_not_found") return { status: 400, body: "Unknown user" };
    throw error;
  }
  // A repeat is answered like the first, so the provider stops retrying.
  return { status: 200, body: "OK" };
}
