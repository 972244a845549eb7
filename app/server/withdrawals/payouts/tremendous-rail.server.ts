import { ruleViolation, type Database } from "../../db/core.server";
import { getDatabase } from "../../db/database.server";
import { getEnv } from "../../runtime/env.server";
import { startIntervalWorker } from "../../runtime/interval-worker.server";
import { logValue } from "../../runtime/log.server";
import {
  getTremendousClient,
  orderRequestBody,
  TremendousError,
  type OrderRequestBody,
  type TremendousClient,
  type TremendousConfig,
  type TremendousOrder,
} from "./tremendous.server";

/**
 * Gift cards through Tremendous (docs/decisions/089): each run orders the approved gift card
 * cash-outs, one order each, reads back those whose last word is older than the reconcile delay,
 * and cancels the cards whose email bounced (the refund follows Tremendous's confirmation). The
 * order is stored with the withdrawal before the first call (claim_tremendous_order) and sent
 * unchanged, its external_id the withdrawal id, on every attempt: one order per withdrawal
 * whatever fails. What Tremendous answers is applied by apply_tremendous_order, as a webhook's is.
 */

const PER_RUN = 50;
// Tremendous allows 10 requests a second (docs/rails/tremendous.md, "Rate limit"): a server starts
// at most one order every this many milliseconds, leaving room for the others' calls.
const ORDER_CALL_SPACING_MS = 200;

export type OrderOutcome =
  | { id: string; result: "sent"; orderId: string; status: string }
  | { id: string; result: "retry"; error: string }
  | { id: string; result: "refused"; error: string }
  | { id: string; result: "skipped"; error: string };

export interface GiftCardRun {
  sent: OrderOutcome[];
  settled: { id: string; status: string; changed: boolean }[];
  canceled: { id: string; status: string; changed: boolean }[];
  errors: string[];
}

interface DueToSend {
  id: string;
  name: string;
  email: string;
  product_id: string;
  currency: string;
  value: string | number;
}

/** Applies what Tremendous said of a withdrawal's order (its answer, a webhook, a read-back, a cancellation). */
export function applyTremendousOrder(
  db: Database,
  withdrawalId: string,
  order: Pick<TremendousOrder, "orderId" | "rewardId" | "status" | "reason">,
  source: "create" | "webhook" | "reconciler",
) {
  return db.rpc<{ status: string; changed: boolean }>("apply_tremendous_order", {
    p_withdrawal_id: withdrawalId,
    p_order_id: order.orderId,
    p_reward_id: order.rewardId,
    p_status: order.status,
    p_reason: order.reason,
    p_source: source,
  });
}

async function orderOne(db: Database, client: TremendousClient, due: DueToSend): Promise<OrderOutcome> {
  const { id } = due;
  let request: OrderRequestBody;
  try {
    const claim = await db.rpc<{ request: OrderRequestBody }>("claim_tremendous_order", {
      p_withdrawal_id: id,
      p_request: orderRequestBody(due),
    });
    // The stored request, as the database keeps it: the same external_id and body on every attempt.
    request = claim.request;
  } catch (error) {
    const rule = ruleViolation(error)?.rule;
    if (rule) return { id, result: "skipped", error: `not ordered: ${rule}` };
    throw error;
  }
  let order: TremendousOrder;
  try {
    order = await client.createOrder(request);
  } catch (error) {
    if (!(error instanceof TremendousError)) throw error;
    // No answer (network, 5xx, 429 after the retries): an order may exist. The claim stays, and the
    // next run sends the same external_id, which Tremendous answers with that order.
    if (!error.refused) return { id, result: "retry", error: error.message };
    // Our key: nothing was ordered. The claim is given back; the run stops.
    if (error.ourSetup) {
      await db.rpc("release_tremendous_claim", { p_withdrawal_id: id });
      throw error;
    }
    // Refused for this order (422: the card, the amount): nothing was made, so the money goes back.
    await db.rpc("settle_withdrawal", {
      p_withdrawal_id: id,
      p_status: "failed",
      p_reason: `Tremendous refused the gift card order${error.description ? `: ${error.description}` : ""}`.slice(
        0,
        500,
      ),
    });
    return { id, result: "refused", error: error.message };
  }
  if (order.externalId !== null && order.externalId !== id) {
    // Not this withdrawal's order: nothing is recorded, and an operator is told.
    return {
      id,
      result: "retry",
      error: `Tremendous answered order ${id} with ${order.orderId} of ${order.externalId}`,
    };
  }
  await applyTremendousOrder(db, id, order, "create");
  return { id, result: "sent", orderId: order.orderId, status: order.status };
}

/** One run: orders what is due, reads back what has waited too long, cancels what bounced. */
export async function runTremendousOrders(
  db: Database,
  client: TremendousClient,
  config: Pick<TremendousConfig, "settleAfterSeconds">,
): Promise<GiftCardRun> {
  const due = await db.rpc<{
    send: DueToSend[];
    settle: { id: string; order_id: string }[];
    cancel: { id: string; order_id: string; reward_id: string }[];
  }>("tremendous_due", { p_limit: PER_RUN, p_settle_after_seconds: config.settleAfterSeconds });
  const run: GiftCardRun = { sent: [], settled: [], canceled: [], errors: [] };
  let lastCall = 0;
  for (const withdrawal of due.send) {
    const wait = lastCall + ORDER_CALL_SPACING_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    lastCall = Date.now();
    const outcome = await orderOne(db, client, withdrawal);
    run.sent.push(outcome);
    if (outcome.result === "retry") run.errors.push(outcome.error);
  }
  for (const { id, order_id: orderId } of due.settle) {
    try {
      const order = await client.getOrder(orderId);
      run.settled.push({ id, ...(await applyTremendousOrder(db, id, order, "reconciler")) });
    } catch (error) {
      if (!(error instanceof TremendousError)) throw error;
      run.errors.push(error.message);
    }
  }
  for (const { id, order_id: orderId, reward_id: rewardId } of due.cancel) {
    try {
      // Only once Tremendous has cancelled the card (it can no longer be used) does the money go back.
      await client.cancelReward(rewardId);
      run.canceled.push({
        id,
        ...(await applyTremendousOrder(db, id, { orderId, rewardId, status: "canceled", reason: null }, "reconciler")),
      });
    } catch (error) {
      if (!(error instanceof TremendousError)) throw error;
      run.errors.push(error.message);
    }
  }
  return run;
}

/** Reads the catalogue for the configured countries and keeps it; a failed read keeps the last good list. */
export async function refreshGiftCardCatalogue(
  db: Database,
  client: TremendousClient,
  countries: readonly string[],
): Promise<number> {
  const cards = await client.listCards(countries);
  return db.rpc<number>("record_giftcard_catalogue", { p_products: cards });
}

/** Every TREMENDOUS_INTERVAL_SECONDS (orders) and TREMENDOUS_CATALOGUE_MINUTES (the catalogue) when configured. */
export function startTremendousGiftCards(): void {
  const config = getEnv().tremendous;
  const client = getTremendousClient();
  if (!config || !client) return;
  const failure = "could not read the gift card catalogue; the last good list is kept";
  const readCatalogue = async () => {
    const kept = await refreshGiftCardCatalogue(await getDatabase(), client, config.countries);
    console.info(`tremendous: ${kept} gift card(s) in the catalogue`);
  };
  startIntervalWorker("tremendous catalogue", config.catalogueMs, readCatalogue, failure);
  // At start too: the cards are offered from the first page.
  void readCatalogue().catch((error: unknown) => console.error(`tremendous catalogue: ${failure}:`, error));
  startIntervalWorker(
    "tremendous orders",
    config.intervalMs,
    async () => {
      const run = await runTremendousOrders(await getDatabase(), client, config);
      const sent = run.sent.filter((outcome) => outcome.result === "sent").length;
      if (sent > 0 || run.settled.length > 0 || run.canceled.length > 0)
        console.info(
          `tremendous: ${sent} order(s) placed, ${run.settled.length} read back, ${run.canceled.length} cancelled`,
        );
      for (const error of run.errors) console.warn(`tremendous: ${logValue(error)}`);
    },
    "could not order the gift cards",
  );
}
