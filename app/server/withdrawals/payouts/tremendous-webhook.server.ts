import { ruleViolation } from "../../db/core.server";
import { getDatabase } from "../../db/database.server";
import { RATE_LIMITS } from "../../http/rate-limit.server";
import { jsonError } from "../../http/responses.server";
import { getEnv } from "../../runtime/env.server";
import { logValue } from "../../runtime/log.server";
import { isObject, text } from "./rail-http.server";
import { applyTremendousOrder } from "./tremendous-rail.server";
import { readSignedWebhook } from "./signed-webhook.server";
import { tremendousSignatureValid, type GiftCardStatus } from "./tremendous.server";

/**
 * POST /api/tremendous/webhook: Tremendous reports what became of a reward or an order
 * (docs/rails/tremendous.md, "Webhooks"). Nothing is read before Tremendous-Webhook-Signature is
 * checked, in constant time, over the body's exact bytes with the webhook's private key; without a
 * key nothing is believed (503). The resource named (a reward or an order id, never our own id) is
 * matched to the withdrawal it was recorded for, and its news applied once per order and status,
 * never backwards (apply_tremendous_order). Tremendous sends every event to the one webhook, so an
 * event we do not act on, a repeat and a resource that is not ours all answer 200.
 */

/** The events that move a gift card, in the app's words. */
const EVENT_STATUS: Record<string, GiftCardStatus> = {
  "REWARDS.DELIVERY.SUCCEEDED": "delivered",
  "REWARDS.DELIVERY.FAILED": "delivery_failed",
  "REWARDS.CANCELED": "canceled",
  "ORDERS.CANCELED": "canceled",
  "ORDERS.FAILED": "failed",
};

const ID = /^[A-Za-z0-9_-]{1,100}$/;

const received = (body: Record<string, unknown>) => Response.json(body, { headers: { "Cache-Control": "no-store" } });

export async function handleTremendousWebhook(request: Request): Promise<Response> {
  const delivery = await readSignedWebhook(request, {
    name: "Tremendous",
    key: getEnv().tremendous?.webhookPrivateKey,
    signatureValid: (body, key) =>
      tremendousSignatureValid(body, request.headers.get("tremendous-webhook-signature"), key),
    refusedStatus: 401,
    limit: RATE_LIMITS.tremendousWebhook,
  });
  if (delivery instanceof Response) return delivery;
  const { event } = delivery;
  const name = isObject(event) ? text(event.event) : null;
  const payload = isObject(event) && isObject(event.payload) ? event.payload : null;
  const resource = payload && isObject(payload.resource) ? payload.resource : null;
  if (!name || !resource) return jsonError(400, "Invalid webhook event");
  const status = EVENT_STATUS[name];
  if (!status) return received({ received: true, ignored: "event type" });
  const type = text(resource.type);
  const id = text(resource.id);
  if ((type !== "rewards" && type !== "orders") || !id || !ID.test(id)) return jsonError(400, "Invalid webhook event");
  const meta = isObject(payload!.meta) ? payload!.meta : {};
  const db = await getDatabase();
  const found = await db.rpc<{ id: string; order_id: string | null } | null>("tremendous_withdrawal_of", {
    p_type: type,
    p_id: id,
  });
  if (!found?.order_id) return received({ received: true, ignored: "not a withdrawal" });
  const { id: withdrawalId, order_id: orderId } = found;
  try {
    const applied = await applyTremendousOrder(
      db,
      withdrawalId,
      { orderId, rewardId: type === "rewards" ? id : null, status, reason: text(meta.failure_reason) },
      "webhook",
    );
    if (applied.status === "not_sent") {
      console.warn(`Tremendous webhook ${logValue(name)}: ${type} ${logValue(id)} is not withdrawal ${withdrawalId}'s`);
      return received({ received: true, ignored: "not sent to Tremendous" });
    }
    return received({ received: true, withdrawal: withdrawalId, ...applied });
  } catch (error) {
    const rule = ruleViolation(error)?.rule;
    if (rule === "withdrawal_not_found") return received({ received: true, ignored: "unknown withdrawal" });
    throw error;
  }
}
