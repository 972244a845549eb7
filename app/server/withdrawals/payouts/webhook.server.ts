import { ruleViolation } from "../../db/core.server";
import { getDatabase } from "../../db/database.server";
import { getEnv } from "../../runtime/env.server";
import { discardBody, readBodyText } from "../../http/body.server";
import { logValue } from "../../runtime/log.server";
import { hitRateLimit, RATE_LIMITS } from "../../http/rate-limit.server";
import { jsonError, tooManyRequests } from "../../http/responses.server";
import { getPayPalClient, PayPalError } from "./paypal.server";
import { applyPayoutOutcome, payoutEventOutcome } from "./payout-status.server";

/**
 * POST /api/paypal/webhook: PayPal reports what became of a payout item. Nothing is believed
 * (or counted against the rate limit) before PayPal itself confirms the signature of the body as
 * received; then the item's sender_item_id (our withdrawal id) is settled once or its status
 * recorded, if that withdrawal was sent to PayPal. PayPal retries anything but a 2xx, so a
 * repeat, an event we do not act on and a payout that is not ours all answer 200.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function received(body: Json) {
  return Response.json(body, { headers: { "Cache-Control": "no-store" } });
}

/** The parsed event, or null when the body is not a PayPal event (JSON with event_type and resource). */
function parseEvent(body: string): { event: Json; type: string; resource: Json } | null {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    return null;
  }
  if (!isObject(event) || typeof event.event_type !== "string" || !isObject(event.resource)) return null;
  return { event, type: event.event_type, resource: event.resource };
}

/** The withdrawal a payout item event is about: the item's sender_item_id. */
function senderItemId(resource: Json): string | null {
  const fromItem = isObject(resource.payout_item) ? resource.payout_item.sender_item_id : undefined;
  const id = fromItem ?? resource.sender_item_id;
  return typeof id === "string" && UUID.test(id) ? id.toLowerCase() : null;
}

export async function handlePayPalWebhook(request: Request): Promise<Response> {
  const config = getEnv().paypal;
  const paypal = getPayPalClient();
  if (!config?.webhookId || !paypal) {
    discardBody(request);
    return jsonError(503, "PayPal is not configured");
  }

  // A body the sender broke off reads as empty, which is answered as malformed.
  const body = await readBodyText(request);
  if (body === null) return jsonError(413, "Payload too large");

  const parsed = parseEvent(body);
  if (!parsed) return jsonError(400, "Invalid webhook event");

  let genuine: boolean;
  try {
    // The body as received, not the parsed event: the signature covers its exact bytes.
    genuine = await paypal.verifyWebhookSignature(request.headers, body, config.webhookId);
  } catch (error) {
    if (!(error instanceof PayPalError)) throw error;
    // PayPal redelivers a webhook that was not answered 2xx, so an outage here loses nothing.
    console.error("PayPal webhook: signature check failed:", error.message);
    return jsonError(503, "Could not verify the webhook with PayPal");
  }
  if (!genuine) {
    console.warn(
      `PayPal webhook refused: signature not verified (transmission ${logValue(request.headers.get("paypal-transmission-id"))}, ${logValue(parsed.type)})`,
    );
    return jsonError(403, "Invalid signature");
  }

  // Counted from here, as postbacks are: forged deliveries cannot use up PayPal's allowance. One
  // key for PayPal as a whole (it delivers from many addresses): generous, it only stops a flood.
  const limit = await hitRateLimit(RATE_LIMITS.paypalWebhook, "paypal");
  if (!limit.allowed) return tooManyRequests(limit.retryAfterSeconds);

  const outcome = payoutEventOutcome(parsed.type, parsed.resource);
  if (!outcome) return received({ received: true, ignored: "event type" });
  const withdrawalId = senderItemId(parsed.resource);
  if (!withdrawalId) {
    console.warn(`PayPal webhook ${logValue(parsed.type)}: the payout item has no withdrawal id; ignored`);
    return received({ received: true, ignored: "not a withdrawal" });
  }
  const batchId = typeof parsed.resource.payout_batch_id === "string" ? parsed.resource.payout_batch_id : null;
  try {
    const applied = await applyPayoutOutcome(await getDatabase(), withdrawalId, outcome, batchId);
    if (applied.status === "not_sent") {
      // Genuine, but about a withdrawal this app never sent to PayPal (UPI, bank, not sent yet, or
      // another batch): PayPal cannot settle it.
      console.warn(
        `PayPal webhook ${logValue(parsed.type)}: withdrawal ${withdrawalId} was not sent to PayPal${batchId ? ` in batch ${logValue(batchId)}` : ""}; nothing changed`,
      );
      return received({ received: true, ignored: "not sent to PayPal" });
    }
    return received({ received: true, withdrawal: withdrawalId, ...applied });
  } catch (error) {
    if (ruleViolation(error)?.rule !== "withdrawal_not_found") throw error;
    console.warn(`PayPal webhook ${logValue(parsed.type)}: no withdrawal ${withdrawalId}; ignored`);
    return received({ received: true, ignored: "unknown withdrawal" });
  }
}
