import { createHmac, randomBytes } from "node:crypto";
import { scriptedFailures, startHttpStandIn, type Exchange } from "./stand-in";

/**
 * A local Tremendous, speaking the protocol of docs/rails/tremendous.md: `Authorization: Bearer`
 * with the API key; GET /products?country=… (the catalogue, each product with its SKUs, countries
 * and currency); POST /orders whose `external_id` makes it idempotent (a repeat, whatever its body,
 * is answered 201 with the first order and makes nothing); GET /orders/{id or external_id};
 * POST /rewards/{id}/cancel (only after a delivery failure); errors as `{"errors": {message,
 * payload}}`, a 429 as `{"error": {...}}`. It signs webhooks as Tremendous's sample integration
 * shows (Tremendous-Webhook-Signature: "sha256=" and the hex HMAC-SHA256 of the body, keyed with the
 * webhook's private key). Failures are scripted ahead: a 5xx, a 429, a dropped connection, or an
 * order made and its answer lost (a crash between create and record).
 */
export const TREMENDOUS_API_KEY = "TEST_standin-api-key-0123456789";
export const TREMENDOUS_WEBHOOK_PRIVATE_KEY = "standin-webhook-private-key";

export type TremendousFailure = "http500" | "http429" | "drop" | "made-then-drop";

interface StandInReward {
  id: string;
  order_id: string;
  created_at: string;
  value: { denomination: number; currency_code: string };
  recipient: { name: string; email: string };
  delivery: { method: string; status: string };
  canceled: boolean;
}

export interface StandInOrder {
  id: string;
  external_id: string;
  created_at: string;
  status: string;
  payment: { subtotal: number; total: number; fees: number };
  rewards: StandInReward[];
}

/** The catalogue: cards in dollars and rupees, one of one value, one in euros and one broken (the app leaves both out). */
export const STAND_IN_PRODUCTS = [
  product("AMZNUS000001", "Amazon.com", "USD", ["US"], [{ min: 1, max: 2000 }]),
  product("TARGET000001", "Target", "USD", ["US"], [{ min: 5, max: 500 }]),
  product("VISA25000001", "Visa $25", "USD", ["US"], [{ min: 25, max: 25 }]),
  product("AMZNIN000001", "Amazon.in", "INR", ["IN"], [{ min: 100, max: 10000 }]),
  product("FLIPKART0001", "Flipkart", "INR", ["IN"], [{ min: 250, max: 10000 }]),
  product("ZALANDO00001", "Zalando", "EUR", ["DE"], [{ min: 5, max: 250 }]),
  {
    id: "BROKEN000001",
    name: "Broken card",
    category: "merchant_cards",
    currency_codes: ["USD"],
    skus: [],
    countries: [{ abbr: "US" }],
  },
];

function product(
  id: string,
  name: string,
  currency: string,
  countries: string[],
  skus: { min: number; max: number }[],
) {
  return {
    id,
    name,
    category: "merchant_cards",
    description: `<p>${name} gift card</p>`,
    disclosure: "",
    currency_codes: [currency],
    countries: countries.map((abbr) => ({ abbr })),
    skus: skus.map((sku) => ({ ...sku, currency_code: currency })),
    images: [{ src: `https://images.example.com/${id}.png`, type: "card", content_type: "image/png" }],
  };
}

const newId = () => randomBytes(6).toString("hex").toUpperCase();

export async function startTremendousStandIn({ balance = 1_000_000, approvalRequired = false } = {}) {
  const failures = scriptedFailures<TremendousFailure>();
  const orders = new Map<string, StandInOrder>();
  let funds = balance;
  let products: unknown[] = STAND_IN_PRODUCTS;

  const invalid = (exchange: Exchange, status: number, message: string, payload: Record<string, unknown> = {}) =>
    exchange.json(status, { errors: { message, payload } });

  /** An order for `body`, or the 422 Tremendous would answer (nothing is made then). */
  function placeOrder(
    body: Record<string, unknown>,
  ): { order: StandInOrder } | { refused: string; payload: Record<string, unknown> } {
    const reward = (body.reward ?? {}) as {
      products?: unknown;
      value?: { denomination?: unknown; currency_code?: unknown };
      recipient?: { name?: unknown; email?: unknown };
      delivery?: { method?: unknown };
    };
    const payment = body.payment as { funding_source_id?: unknown } | undefined;
    if (payment?.funding_source_id !== "balance")
      return { refused: "Funding source not found", payload: { payment: { funding_source_id: ["is invalid"] } } };
    const ids = Array.isArray(reward.products) ? reward.products : [];
    const chosen = STAND_IN_PRODUCTS.find((candidate) => candidate.id === ids[0]);
    if (ids.length !== 1 || !chosen)
      return { refused: "Product not found", payload: { reward: { products: ["is invalid"] } } };
    const denomination = reward.value?.denomination;
    const currency = reward.value?.currency_code;
    if (typeof denomination !== "number" || currency !== chosen.currency_codes[0])
      return { refused: "Value is invalid", payload: { reward: { value: ["is invalid"] } } };
    if (!chosen.skus.some((sku) => denomination >= sku.min && denomination <= sku.max))
      return {
        refused: "Denomination is not available for this product",
        payload: { reward: { value: ["is invalid"] } },
      };
    const email = reward.recipient?.email;
    const name = reward.recipient?.name;
    if (typeof email !== "string" || !/^[^@\s]+@[^@\s]+$/.test(email) || typeof name !== "string" || !name)
      return { refused: "Recipient is invalid", payload: { reward: { recipient: ["is invalid"] } } };
    if (reward.delivery?.method !== "EMAIL")
      return { refused: "Delivery method is invalid", payload: { reward: { delivery: ["is invalid"] } } };
    // Rupees are charged at a fixed stand-in rate; what matters is that a small balance runs out.
    const cost = currency === "INR" ? denomination / 80 : denomination;
    if (cost > funds) return { refused: "Insufficient funds in the funding source", payload: {} };
    funds -= cost;
    const id = newId();
    const order: StandInOrder = {
      id,
      external_id: String(body.external_id ?? ""),
      created_at: new Date().toISOString(),
      status: approvalRequired ? "PENDING APPROVAL" : "EXECUTED",
      payment: { subtotal: cost, total: cost, fees: 0 },
      rewards: [
        {
          id: newId(),
          order_id: id,
          created_at: new Date().toISOString(),
          value: { denomination, currency_code: String(currency) },
          recipient: { name, email },
          delivery: { method: "EMAIL", status: "SCHEDULED" },
          canceled: false,
        },
      ],
    };
    orders.set(id, order);
    return { order };
  }

  const answer = (order: StandInOrder) => ({
    order: { ...order, rewards: order.rewards.map(({ canceled: _, ...reward }) => reward) },
  });

  const standIn = await startHttpStandIn((exchange) => {
    const { request } = exchange;
    if (request.headers.authorization !== `Bearer ${TREMENDOUS_API_KEY}`) {
      return invalid(exchange, 401, "Invalid API key");
    }
    const failure = failures.take(request.path);
    if (failure === "http500") return invalid(exchange, 500, "Internal server error");
    if (failure === "http429") return exchange.json(429, { error: { message: "Too many requests", payload: {} } });
    if (failure === "drop") return exchange.drop();

    if (request.method === "GET" && request.path === "/products") {
      const query = new URL(exchange.incoming.url ?? "/", "http://stand-in.local").searchParams;
      const countries = (query.get("country") ?? "").split(",").filter(Boolean);
      return exchange.json(200, {
        products: (products as (typeof STAND_IN_PRODUCTS)[number][]).filter(
          (candidate) =>
            countries.length === 0 || candidate.countries.some((country) => countries.includes(country.abbr)),
        ),
      });
    }
    if (request.method === "POST" && request.path === "/orders") {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(request.body) as Record<string, unknown>;
      } catch {
        return invalid(exchange, 400, "The request body is not valid JSON");
      }
      const externalId = body.external_id;
      const existing =
        typeof externalId === "string" ? [...orders.values()].find((order) => order.external_id === externalId) : null;
      // external_id makes the order idempotent: the first order, answered 201, nothing made.
      if (existing) return exchange.json(201, answer(existing));
      const placed = placeOrder(body);
      if ("refused" in placed) return invalid(exchange, 422, placed.refused, placed.payload);
      if (failure === "made-then-drop") return exchange.drop();
      return exchange.json(200, answer(placed.order));
    }
    const read = /^\/orders\/([A-Za-z0-9_-]+)$/.exec(request.path);
    if (request.method === "GET" && read) {
      const order = orders.get(read[1]!) ?? [...orders.values()].find((candidate) => candidate.external_id === read[1]);
      if (!order) return invalid(exchange, 404, "Resource not found");
      return exchange.json(200, answer(order));
    }
    const cancel = /^\/rewards\/([A-Za-z0-9_-]+)\/cancel$/.exec(request.path);
    if (request.method === "POST" && cancel) {
      const order = [...orders.values()].find((candidate) => candidate.rewards[0]?.id === cancel[1]);
      const reward = order?.rewards[0];
      if (!order || !reward) return invalid(exchange, 404, "Resource not found");
      if (reward.delivery.status !== "FAILED")
        return invalid(exchange, 422, "Only rewards with a delivery failure can be canceled");
      reward.canceled = true;
      funds += order.payment.total;
      const { canceled: _, ...shown } = reward;
      return exchange.json(200, { reward: shown });
    }
    invalid(exchange, 404, "Resource not found");
  });

  /** Signs and posts one webhook event to the app, as Tremendous does. */
  async function deliver(
    appUrl: string,
    event: string,
    resource: { id: string; type: "rewards" | "orders" },
    meta: Record<string, unknown> = {},
    privateKey = TREMENDOUS_WEBHOOK_PRIVATE_KEY,
  ) {
    const body = JSON.stringify({
      event,
      uuid: randomBytes(16).toString("hex"),
      created_utc: new Date().toISOString(),
      payload: { resource, meta },
    });
    const response = await fetch(new URL("/api/tremendous/webhook", appUrl), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "tremendous-webhook-signature": `sha256=${createHmac("sha256", privateKey).update(body).digest("hex")}`,
      },
      body,
    });
    return {
      status: response.status,
      body: (await response.json().catch(() => null)) as Record<string, unknown> | null,
    };
  }

  return {
    url: standIn.url,
    requests: standIn.requests,
    close: standIn.close,
    ...failures,
    /** The app's environment for this stand-in. */
    env: {
      TREMENDOUS_API_KEY,
      TREMENDOUS_API_URL: standIn.url,
      TREMENDOUS_WEBHOOK_PRIVATE_KEY,
      TREMENDOUS_COUNTRIES: "US,IN",
    },
    /** The orders made for `externalId` (a withdrawal id). */
    ordersFor: (externalId: string) => [...orders.values()].filter((order) => order.external_id === externalId),
    /** Moves an order's reward on, as Tremendous's email delivery does (SUCCEEDED, FAILED). */
    advance(orderId: string, deliveryStatus: "SUCCEEDED" | "FAILED" | "SCHEDULED", orderStatus = "EXECUTED") {
      const order = orders.get(orderId)!;
      order.status = orderStatus;
      order.rewards[0]!.delivery.status = deliveryStatus;
      return order;
    },
    /** Whether a reward was cancelled (its value back in the stand-in's balance). */
    canceled: (rewardId: string) =>
      [...orders.values()].some((order) => order.rewards[0]?.id === rewardId && order.rewards[0].canceled),
    /** Replaces the catalogue (a later read lists these). */
    setProducts(next: unknown[]) {
      products = next;
    },
    deliver,
  };
}

export type TremendousStandIn = Awaited<ReturnType<typeof startTremendousStandIn>>;
