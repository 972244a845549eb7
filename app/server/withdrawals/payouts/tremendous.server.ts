import { createHmac, timingSafeEqual } from "node:crypto";
import type { GiftCardCurrency } from "~/domain/giftcards";
import { withoutTrailingSlashes } from "~/domain/text";
import { getEnv, type Env } from "../../runtime/env.server";
import { isObject, railCaller, text, type Json, type RailCallOptions } from "./rail-http.server";

/**
 * Tremendous's REST API for gift cards (docs/rails/tremendous.md, each fact with its source): a
 * Bearer key, the catalogue (GET /products), an order per withdrawal whose external_id is the
 * withdrawal id (Tremendous answers a repeat with the first order, never a second one), read back
 * by id, a reward whose delivery failed cancelled, and the webhook's signature. The base URL is
 * configurable (TREMENDOUS_API_URL), so tests talk to a local server that speaks the same protocol.
 */
export type TremendousConfig = NonNullable<Env["tremendous"]>;

/** A call Tremendous refused or could not answer. */
export class TremendousError extends Error {
  name = "TremendousError";
  constructor(
    message: string,
    /** HTTP status, or null when Tremendous could not be reached. */
    readonly status: number | null,
    /** Tremendous's message, when it gave one. */
    readonly description: string | null = null,
  ) {
    super(message);
  }

  /** Tremendous said no (4xx but 429): the same request would get the same answer. */
  get refused(): boolean {
    return this.status !== null && this.status >= 400 && this.status < 500 && this.status !== 429;
  }

  /** Our key was refused: nothing about this order. */
  get ourSetup(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

/** The app's words for where an order is (tremendous_status_rank in SQL). */
export type GiftCardStatus = "pending_approval" | "scheduled" | "delivery_failed" | "delivered" | "failed" | "canceled";

/** What Tremendous says of one withdrawal's order: its id, its one reward, and where it is. */
export interface TremendousOrder {
  orderId: string;
  rewardId: string | null;
  externalId: string | null;
  status: GiftCardStatus;
  reason: string | null;
}

/** The order that pays one withdrawal (stored with it before the first call, sent unchanged every time). */
export interface OrderRequestBody {
  external_id: string;
  payment: { funding_source_id: "balance" };
  reward: {
    products: [string];
    value: { denomination: number; currency_code: GiftCardCurrency };
    recipient: { name: string; email: string };
    delivery: { method: "EMAIL" };
  };
}

/** A card of the catalogue, as record_giftcard_catalogue keeps it. */
export interface CatalogueCard {
  id: string;
  name: string;
  currency: GiftCardCurrency;
  countries: string[];
  skus: { min: number; max: number }[];
  image_url: string | null;
}

/** The order for one withdrawal: its card and value in the card's money, emailed to the verified address. */
export function orderRequestBody(withdrawal: {
  id: string;
  name: string;
  email: string;
  product_id: string;
  currency: string;
  value: string | number;
}): OrderRequestBody {
  const denomination = Number(withdrawal.value);
  if (!(denomination > 0) || (withdrawal.currency !== "USD" && withdrawal.currency !== "INR"))
    throw new Error(`Not a gift card value Tremendous takes: ${withdrawal.currency} ${withdrawal.value}`);
  return {
    external_id: withdrawal.id,
    payment: { funding_source_id: "balance" },
    reward: {
      products: [withdrawal.product_id],
      value: { denomination, currency_code: withdrawal.currency },
      recipient: { name: withdrawal.name, email: withdrawal.email },
      delivery: { method: "EMAIL" },
    },
  };
}

const ORDER_WAITING = new Set(["CART", "PENDING APPROVAL", "PENDING INTERNAL PAYMENT APPROVAL"]);

/**
 * An order as Tremendous answers it (`{"order": {...}}` or the order itself), in the app's words:
 * FAILED and CANCELED are final; EXECUTED is as far as its reward's delivery went (SUCCEEDED:
 * delivered, FAILED: the email bounced, else on its way); the approval states wait. Null when it
 * is not an order, or in a state this app does not know (nothing is guessed).
 */
export function orderFromAnswer(answer: unknown): TremendousOrder | null {
  const order = isObject(answer) && isObject(answer.order) ? answer.order : answer;
  if (!isObject(order)) return null;
  const orderId = text(order.id);
  const state = text(order.status);
  if (!orderId || !state) return null;
  const reward = Array.isArray(order.rewards) && isObject(order.rewards[0]) ? order.rewards[0] : null;
  const delivery = reward && isObject(reward.delivery) ? reward.delivery : {};
  const deliveryStatus = text(delivery.status);
  let status: GiftCardStatus | null = null;
  if (state === "FAILED") status = "failed";
  else if (state === "CANCELED") status = "canceled";
  else if (ORDER_WAITING.has(state)) status = "pending_approval";
  else if (state === "EXECUTED")
    status =
      deliveryStatus === "SUCCEEDED" ? "delivered" : deliveryStatus === "FAILED" ? "delivery_failed" : "scheduled";
  if (!status) return null;
  return {
    orderId,
    rewardId: reward ? text(reward.id) : null,
    externalId: text(order.external_id),
    status,
    reason: null,
  };
}

/** One product of GET /products as the catalogue keeps it, or null when the app cannot offer it. */
export function cardFromProduct(product: unknown): CatalogueCard | null {
  if (!isObject(product)) return null;
  const id = text(product.id);
  const name = text(product.name)?.trim();
  if (!id || !name || !Array.isArray(product.skus)) return null;
  const codes = Array.isArray(product.currency_codes) ? product.currency_codes.filter((code) => text(code)) : [];
  const skus = product.skus.filter(isObject);
  // A SKU names its currency (since 2023); an older answer only the product's one currency.
  const currency = text(skus[0]?.currency_code) ?? (codes.length === 1 ? text(codes[0]) : null);
  if (currency !== "USD" && currency !== "INR") return null;
  const amounts = skus
    .filter((sku) => (text(sku.currency_code) ?? currency) === currency)
    .map((sku) => ({ min: Number(sku.min), max: Number(sku.max) }))
    .filter(({ min, max }) => Number.isFinite(min) && Number.isFinite(max) && min > 0 && max >= min);
  const countries = (Array.isArray(product.countries) ? product.countries : [])
    .map((country) => (isObject(country) ? text(country.abbr) : text(country)))
    .filter((abbr): abbr is string => abbr !== null && /^[A-Z]{2}$/.test(abbr));
  if (amounts.length === 0 || countries.length === 0) return null;
  const images = (Array.isArray(product.images) ? product.images : []).filter(isObject);
  const image = text((images.find((entry) => entry.type === "card") ?? images[0])?.src);
  return {
    id,
    name,
    currency,
    countries,
    skus: amounts,
    image_url: image && image.length <= 508 && /^https:\/\/[^\s"<>]+$/.test(image) ? image : null,
  };
}

/**
 * Whether `header` (Tremendous-Webhook-Signature) is "sha256=" and the hex HMAC-SHA256 of the
 * body's exact bytes keyed with the webhook's private key, compared in constant time. False when it
 * is missing, names another algorithm, or is malformed.
 */
export function tremendousSignatureValid(body: Uint8Array, header: string | null, privateKey: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? "");
  if (!match) return false;
  const expected = createHmac("sha256", privateKey).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, "hex"));
}

function errorFromAnswer(status: number, payload: unknown, what: string): TremendousError {
  // Errors come as {"errors": {"message", "payload"}}; a 429 as {"error": {"message"}}.
  const body = isObject(payload) ? payload : {};
  const error = isObject(body.errors) ? body.errors : isObject(body.error) ? body.error : {};
  const message = text(error.message);
  const fields = isObject(error.payload) ? JSON.stringify(error.payload).slice(0, 300) : "";
  return new TremendousError(
    `${what}: Tremendous ${status}${message ? `: ${message}` : ""}${fields ? ` ${fields}` : ""}`,
    status,
    message,
  );
}

export function createTremendousClient(config: TremendousConfig, options: RailCallOptions = {}) {
  const call = railCaller(
    withoutTrailingSlashes(config.apiUrl),
    `Bearer ${config.apiKey}`,
    // Beyond 10 requests a second Tremendous answers 429: wait a second, then try again.
    { backoffMs: (retry) => 1000 * 2 ** (retry - 1), ...options },
    (what, cause) => new TremendousError(`${what}: Tremendous could not be reached (${cause.message})`, null),
  );

  async function send(what: string, method: "GET" | "POST", path: string, body?: string) {
    const answer = await call(what, method, path, body);
    if (!answer.ok) throw errorFromAnswer(answer.status, answer.payload, what);
    return answer.payload;
  }

  function orderOf(answer: unknown, what: string): TremendousOrder {
    const order = orderFromAnswer(answer);
    if (!order) throw new TremendousError(`${what}: Tremendous's answer is not an order this app knows`, 200);
    return order;
  }

  return {
    /** The cards sold in `countries` (the products Tremendous lists for them). */
    async listCards(countries: readonly string[]): Promise<CatalogueCard[]> {
      const what = "the catalogue";
      const answer = await send(what, "GET", `/products?country=${encodeURIComponent(countries.join(","))}`);
      const products = isObject(answer) && Array.isArray(answer.products) ? answer.products : null;
      if (!products) throw new TremendousError(`${what}: Tremendous's answer has no products`, 200);
      return products.flatMap((product) => {
        const card = cardFromProduct(product);
        return card ? [card] : [];
      });
    },

    /**
     * Places the order `body` describes. Its external_id is the withdrawal id: Tremendous answers a
     * repeat with the first order (201), so a retry never orders twice.
     */
    async createOrder(body: OrderRequestBody): Promise<TremendousOrder> {
      const what = `order ${body.external_id}`;
      return orderOf(await send(what, "POST", "/orders", JSON.stringify(body)), what);
    },

    /** An order read back by id (the reconciler's way to settle one whose webhook was lost). */
    async getOrder(orderId: string): Promise<TremendousOrder> {
      const what = `order ${orderId}`;
      return orderOf(await send(what, "GET", `/orders/${encodeURIComponent(orderId)}`), what);
    },

    /** Cancels a reward whose delivery failed: its value goes back to the balance at Tremendous. */
    async cancelReward(rewardId: string): Promise<Json> {
      const what = `reward ${rewardId}`;
      const answer = await send(what, "POST", `/rewards/${encodeURIComponent(rewardId)}/cancel`);
      return isObject(answer) ? answer : {};
    },
  };
}

export type TremendousClient = ReturnType<typeof createTremendousClient>;

let processClient: { config: TremendousConfig; client: TremendousClient } | undefined;

/** The client for this process's configuration, or null when Tremendous is not configured. */
export function getTremendousClient(): TremendousClient | null {
  const config = getEnv().tremendous;
  if (!config) return null;
  if (processClient?.config !== config) processClient = { config, client: createTremendousClient(config) };
  return processClient.client;
}
