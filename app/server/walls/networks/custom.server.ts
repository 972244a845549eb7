import { TASK_ID_PATTERN } from "~/domain/tasks";
import { createHmac } from "node:crypto";
import {
  creditOrReversal,
  getPostback,
  readCoins,
  refused,
  sameHex,
  uniqueParameters,
  type WallNetwork,
} from "../network.server";

/** RFC 3986 percent-encoding: every UTF-8 byte but A-Z a-z 0-9 - . _ ~ as %XX (uppercase hex). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * What is signed: every parameter but sig as `percentEncode(key)=percentEncode(value)`, sorted by
 * that encoded key (plain ASCII order), joined with `&`. `=` and `&` inside a key or value are
 * encoded, so one string stands for one set of parameters only.
 */
export function canonicalPostback(params: ReadonlyMap<string, string>): string {
  return [...params]
    .filter(([key]) => key !== "sig")
    .map(([key, value]) => [percentEncode(key), percentEncode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join("&");
}

export function postbackSignature(params: ReadonlyMap<string, string>, secret: string): string {
  return createHmac("sha256", secret).update(canonicalPostback(params)).digest("hex");
}

/**
 * The app's own protocol (docs/offer-provider.md), for a provider that follows it: GET or POST
 * with user_id, transaction_id, amount (whole coins, negative for a reversal), optional status
 * (completed | reversed) and offer_id (the task it pays), and sig: the hex HMAC-SHA256, keyed
 * with the secret, of the canonical string (every other parameter, RFC 3986-encoded, sorted).
 */
export const custom: WallNetwork<{ secret: string }> = {
  name: "custom",
  label: "Offer provider",
  bestFor: [],
  settings: [{ suffix: "SECRET", meaning: "the postback secret", required: true, secret: true, minLength: 16 }],
  postbackQuery: null,
  senderAddresses: [],
  // sig covers every parameter, each percent-encoded: nothing can be changed or moved.
  signature: { parameters: ["sig"], bindsTransaction: true },
  configure: (settings) => ({ secret: settings.SECRET ?? "" }),
  readPostback(request, { secret }) {
    const params = uniqueParameters(request);
    if (!params) return refused(400, "a parameter appears twice");
    if (!sameHex(params.get("sig"), postbackSignature(params, secret))) return refused(403, "bad or missing signature");
    const amount = params.get("amount");
    // Whole coins only, as the protocol says.
    const coins = amount !== undefined && /^-?[0-9]{1,12}$/.test(amount) ? readCoins(amount) : null;
    if (coins?.coins === 0) return refused(400, "an amount of zero coins");
    const status = params.get("status") ?? "completed";
    if (status !== "completed" && status !== "reversed") return refused(400, "status must be completed or reversed");
    const offerId = params.get("offer_id");
    if (offerId !== undefined && !TASK_ID_PATTERN.test(offerId)) return refused(400, "an offer_id that is no task id");
    return creditOrReversal({
      reversal: status === "reversed" || coins?.negative === true,
      transactionId: params.get("transaction_id"),
      wallUserId: params.get("user_id"),
      coins,
      offerId,
    });
  },
  simulatedPostback({ secret }, postback) {
    // No offer_id: in this protocol it names one of the app's tasks, which a simulated offer is not.
    const params: [string, string][] = [
      ["user_id", postback.wallUserId],
      ["transaction_id", postback.transactionId],
      ["amount", postback.kind === "reversal" ? `-${postback.coins}` : String(postback.coins)],
      ["status", postback.kind === "reversal" ? "reversed" : "completed"],
    ];
    return getPostback("custom", [...params, ["sig", postbackSignature(new Map(params), secret)]]);
  },
  accepted: { status: 200, body: "OK" },
};
