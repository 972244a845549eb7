import { ruleViolation } from "../../db/core.server";
import { getDatabase } from "../../db/database.server";
import { RATE_LIMITS } from "../../http/rate-limit.server";
import { jsonError } from "../../http/responses.server";
import { getEnv } from "../../runtime/env.server";
import { logValue } from "../../runtime/log.server";
import { applyRazorpayXPayout } from "./razorpayx-rail.server";
import { payoutFromEntity, razorpayxSignatureValid } from "./razorpayx.server";
import { readSignedWebhook } from "./signed-webhook.server";

/**
 * POST /api/razorpayx/webhook: RazorpayX reports what became of a payout (docs/rails/razorpayx.md,
 * "Webhooks"). Nothing is read before X-Razorpay-Signature is checked, in constant time, over the
 * body's exact bytes with the webhook secret; without a secret nothing is believed (503). Then the
 * payout's `reference_id` (our withdrawal id) is settled or its status kept, once per payout and
 * status, never backwards (apply_razorpayx_payout). RazorpayX redelivers anything but a 2xx, so a
 * repeat, an event we do not act on and a payout that is not ours all answer 200.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const received = (body: Record<string, unknown>) => Response.json(body, { headers: { "Cache-Control": "no-store" } });

export async function handleRazorpayXWebhook(request: Request): Promise<Response> {
  const delivery = await readSignedWebhook(request, {
    name: "RazorpayX",
    key: getEnv().razorpayx?.webhookSecret,
    signatureValid: (body, secret) =>
      razorpayxSignatureValid(body, request.headers.get("x-razorpay-signature"), secret),
    refusedStatus: 403,
    limit: RATE_LIMITS.razorpayxWebhook,
    logDetail: `event ${logValue(request.headers.get("x-razorpay-event-id"))}`,
  });
  if (delivery instanceof Response) return delivery;
  const { event } = delivery;
  const name = typeof event === "object" && event !== null ? (event as { event?: unknown }).event : undefined;
  if (typeof name !== "string") return jsonError(400, "Invalid webhook event");
  if (!name.startsWith("payout.")) return received({ received: true, ignored: "event type" });
  const payload = (event as { payload?: { payout?: { entity?: unknown } } }).payload;
  const payout = payoutFromEntity(payload?.payout?.entity);
  if (!payout) return jsonError(400, "Invalid webhook event");
  const withdrawalId = payout.referenceId && UUID.test(payout.referenceId) ? payout.referenceId.toLowerCase() : null;
  if (!withdrawalId) return received({ received: true, ignored: "not a withdrawal" });
  try {
    const applied = await applyRazorpayXPayout(await getDatabase(), withdrawalId, payout, "webhook");
    if (applied.status === "not_sent") {
      console.warn(
        `RazorpayX webhook ${logValue(name)}: withdrawal ${withdrawalId} is not paid by RazorpayX as ${logValue(payout.id)}; nothing changed`,
      );
      return received({ received: true, ignored: "not sent to RazorpayX" });
    }
    return received({ received: true, withdrawal: withdrawalId, ...applied });
  } catch (error) {
    const rule = ruleViolation(error)?.rule;
    if (rule === "withdrawal_not_found") return received({ received: true, ignored: "unknown withdrawal" });
    if (rule === "invalid_payout_status") return received({ received: true, ignored: "unknown status" });
    throw error;
  }
}
