import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import type http from "node:http";
import { scriptedFailures, startHttpStandIn } from "./stand-in";

/**
 * A local stand-in for PayPal's REST API, written from PayPal's documentation independently of the
 * app's client: OAuth2 client-credentials tokens that expire, Payouts (create with PayPal-Request-Id
 * idempotency and a refusal for a reused sender_batch_id, read a batch back with per-item
 * statuses the test sets), and webhook signature verification over the event's exact text (as
 * PayPal signs the delivery's bytes). Failures can be injected on the
 * next N calls: a 500, a dropped connection (before or after the work is done), a 429 with
 * Retry-After, and expired tokens (401). Every request is recorded.
 */

export type Failure =
  | { kind: "500"; afterProcessing?: boolean }
  | { kind: "drop"; afterProcessing?: boolean }
  | { kind: "429"; retryAfterSeconds: number };

interface Item {
  payout_item_id: string;
  transaction_id?: string;
  transaction_status: string;
  payout_batch_id: string;
  payout_item: {
    recipient_type: string;
    amount: { value: string; currency: string };
    receiver: string;
    sender_item_id: string;
  };
  errors?: { name: string; message: string };
}

interface Batch {
  payout_batch_id: string;
  sender_batch_header: Record<string, unknown>;
  items: Item[];
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

const SIGNING_KEY = randomBytes(32);

const id = (length: number) =>
  randomBytes(length)
    .toString("base64url")
    .replace(/[^A-Za-z0-9]/g, "")
    .toUpperCase()
    .slice(0, length);

/** The digest of the delivery's body: its exact bytes, as PayPal sent them. */
function eventDigest(rawEvent: string) {
  return createHash("sha256").update(Buffer.from(rawEvent, "utf8")).digest("hex");
}

/** What PayPal would sign: the transmission, the webhook it was sent for and the body's digest. */
function signature(transmissionId: string, time: string, webhookId: string, rawEvent: string) {
  return createHmac("sha256", SIGNING_KEY)
    .update(`${transmissionId}|${time}|${webhookId}|${eventDigest(rawEvent)}`)
    .digest("base64");
}

/**
 * The text of a top-level member's value in a JSON object, exactly as written (with the whitespace
 * around it), or null. The signature covers the delivery's bytes, so the check must see the
 * `webhook_event` the app sent as text, not as a value JSON.parse would make of it.
 */
function rawMember(json: string, name: string): string | null {
  let at = 0;
  const space = () => {
    while (/\s/.test(json[at] ?? "")) at++;
  };
  /** Moves past a string, from its opening quote. */
  const skipString = () => {
    at++;
    while (at < json.length && json[at] !== '"') at += json[at] === "\\" ? 2 : 1;
    at++;
  };
  /** Moves to the comma or brace that ends a member's value: nested ones by depth, strings whole. */
  const skipValue = () => {
    let depth = 0;
    while (at < json.length) {
      const character = json[at]!;
      if (character === '"') {
        skipString();
        continue;
      }
      if (depth === 0 && (character === "," || character === "}")) return;
      if (character === "{" || character === "[") depth++;
      if (character === "}" || character === "]") depth--;
      at++;
    }
  };
  space();
  if (json[at] !== "{") return null;
  at++;
  for (;;) {
    space();
    if (json[at] !== '"') return null;
    const keyStart = at;
    skipString();
    const key = JSON.parse(json.slice(keyStart, at)) as string;
    space();
    if (json[at] !== ":") return null;
    at++;
    const valueStart = at;
    skipValue();
    if (key === name) return json.slice(valueStart, at);
    if (json[at] !== ",") return null;
    at++;
  }
}

export async function startPayPalStandIn({
  clientId = "test-client-id",
  clientSecret = "test-client-secret",
  webhookId = "WH-TEST-0001",
} = {}) {
  const failures = scriptedFailures<Failure>();
  const tokens = new Map<string, number>(); // token → expires at (ms)
  const batchesById = new Map<string, Batch>();
  const batchesBySenderId = new Map<string, Batch>();
  const answersByRequestId = new Map<string, Answer>();
  const refusals = new Map<string, Answer>(); // receiver → PayPal's refusal
  const state = {
    tokenTtlSeconds: 32_400,
    tokensIssued: 0,
    /** "auto" checks the signature; SUCCESS or FAILURE answer that whatever is sent. */
    verification: "auto" as "auto" | "SUCCESS" | "FAILURE",
    /** The text of each `webhook_event` it was asked to verify, as it arrived. */
    verifiedEvents: [] as string[],
    /** How long a payout's answer takes after the payout is made (a slow PayPal), in ms. */
    payoutDelayMs: 0,
  };

  const error = (status: number, name: string, message: string, details?: unknown[]): Answer => ({
    status,
    body: { name, message, debug_id: id(13), ...(details ? { details } : {}) },
  });

  function authorised(request: http.IncomingMessage): boolean {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    const expiresAt = token ? tokens.get(token) : undefined;
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  function issueToken(request: http.IncomingMessage, body: string): Answer {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
    if (request.headers.authorization !== expected) {
      return { status: 401, body: { error: "invalid_client", error_description: "Client Authentication failed" } };
    }
    if (new URLSearchParams(body).get("grant_type") !== "client_credentials") {
      return { status: 400, body: { error: "unsupported_grant_type", error_description: "Grant Type is NULL" } };
    }
    const token = `A21AA${id(40)}`;
    tokens.set(token, Date.now() + state.tokenTtlSeconds * 1000);
    state.tokensIssued += 1;
    return {
      status: 200,
      body: {
        scope: "https://uri.paypal.com/services/payments/payouts",
        access_token: token,
        token_type: "Bearer",
        app_id: "APP-TEST",
        expires_in: state.tokenTtlSeconds,
        nonce: id(20),
      },
    };
  }

  function createPayout(request: http.IncomingMessage, body: string): Answer {
    const requestId = request.headers["paypal-request-id"];
    const key = typeof requestId === "string" ? requestId : null;
    // Idempotency: a repeat of a request id gets the first answer, and nothing is paid again.
    if (key && answersByRequestId.has(key)) return answersByRequestId.get(key)!;
    let payload: { sender_batch_header?: Record<string, unknown>; items?: Item["payout_item"][] };
    try {
      payload = JSON.parse(body) as typeof payload;
    } catch {
      return error(400, "MALFORMED_REQUEST", "Incoming JSON request does not map to API request");
    }
    const senderBatchId = payload.sender_batch_header?.sender_batch_id;
    const items = payload.items ?? [];
    const invalid =
      typeof senderBatchId !== "string" ||
      items.length === 0 ||
      items.some(
        (item) =>
          item.recipient_type !== "EMAIL" ||
          !/^\d+\.\d{2}$/.test(item.amount?.value ?? "") ||
          item.amount?.currency !== "USD" ||
          !/^[^@\s]+@[^@\s]+$/.test(item.receiver ?? "") ||
          typeof item.sender_item_id !== "string",
      );
    if (invalid) {
      return error(400, "VALIDATION_ERROR", "Invalid request - see details", [
        { field: "items", location: "body", issue: "REQUIRED_FIELD_MISSING" },
      ]);
    }
    if (batchesBySenderId.has(senderBatchId)) {
      return error(400, "USER_BUSINESS_ERROR", "User business error.", [
        {
          field: "SENDER_BATCH_ID",
          location: "body",
          issue: "SENDER_BATCH_ID_ALREADY_USED",
          description: "Batch with given sender_batch_id already exists",
        },
      ]);
    }
    const refusal = items.map((item) => refusals.get(item.receiver)).find(Boolean);
    if (refusal) return refusal;
    const batchId = id(13);
    const batch: Batch = {
      payout_batch_id: batchId,
      sender_batch_header: payload.sender_batch_header!,
      items: items.map((item) => ({
        payout_item_id: id(13),
        transaction_status: "PENDING",
        payout_batch_id: batchId,
        payout_item: { ...item },
      })),
    };
    batchesById.set(batchId, batch);
    batchesBySenderId.set(senderBatchId, batch);
    const answer: Answer = {
      status: 201,
      body: {
        batch_header: {
          payout_batch_id: batchId,
          batch_status: "PENDING",
          sender_batch_header: batch.sender_batch_header,
        },
        links: [{ href: `/v1/payments/payouts/${batchId}`, rel: "self", method: "GET" }],
      },
    };
    if (key) answersByRequestId.set(key, answer);
    return answer;
  }

  function batchStatus(batch: Batch) {
    const statuses = batch.items.map((item) => item.transaction_status);
    return statuses.every((status) => status === "PENDING")
      ? "PENDING"
      : statuses.every((status) => status === "SUCCESS")
        ? "SUCCESS"
        : "PROCESSING";
  }

  function readBatch(batchId: string): Answer {
    const batch = batchesById.get(batchId);
    if (!batch) return error(404, "INVALID_RESOURCE_ID", "Requested resource ID was not found.");
    return {
      status: 200,
      body: {
        batch_header: {
          payout_batch_id: batch.payout_batch_id,
          batch_status: batchStatus(batch),
          sender_batch_header: batch.sender_batch_header,
        },
        items: batch.items,
      },
    };
  }

  function verifySignature(body: string): Answer {
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return error(400, "MALFORMED_REQUEST", "Incoming JSON request does not map to API request");
    }
    const required = [
      "auth_algo",
      "cert_url",
      "transmission_id",
      "transmission_sig",
      "transmission_time",
      "webhook_id",
    ];
    const rawEvent = rawMember(body, "webhook_event");
    if (
      required.some((field) => typeof payload[field] !== "string") ||
      typeof payload.webhook_event !== "object" ||
      rawEvent === null
    ) {
      return error(400, "VALIDATION_ERROR", "Invalid request - see details");
    }
    state.verifiedEvents.push(rawEvent);
    // Checked over the event's text as it arrived: one that was re-serialised on the way differs.
    const genuine =
      payload.webhook_id === webhookId &&
      payload.transmission_sig ===
        signature(payload.transmission_id as string, payload.transmission_time as string, webhookId, rawEvent);
    const verdict = state.verification === "auto" ? (genuine ? "SUCCESS" : "FAILURE") : state.verification;
    return { status: 200, body: { verification_status: verdict } };
  }

  function route(request: http.IncomingMessage, path: string, body: string): Answer {
    if (request.method === "POST" && path === "/v1/oauth2/token") return issueToken(request, body);
    if (!authorised(request)) {
      return {
        status: 401,
        body: { error: "invalid_token", error_description: "Token signature verification failed" },
      };
    }
    if (request.method === "POST" && path === "/v1/payments/payouts") return createPayout(request, body);
    const batch = /^\/v1\/payments\/payouts\/([^/]+)$/.exec(path);
    if (request.method === "GET" && batch) return readBatch(decodeURIComponent(batch[1]!));
    if (request.method === "POST" && path === "/v1/notifications/verify-webhook-signature")
      return verifySignature(body);
    return error(404, "RESOURCE_NOT_FOUND", "The requested resource was not found");
  }

  const internalError = { name: "INTERNAL_SERVICE_ERROR", message: "An internal service error has occurred." };
  const server = await startHttpStandIn(({ request, incoming, json, drop }) => {
    const failure = failures.take(request.path);
    if (failure?.kind === "429") {
      json(
        429,
        { name: "RATE_LIMIT_REACHED", message: "Too many requests. Blocked due to rate limiting." },
        { "retry-after": String(failure.retryAfterSeconds) },
      );
      return;
    }
    // A failure "after processing" does the work (a payout is made) and then loses the answer.
    if (failure && !failure.afterProcessing) {
      if (failure.kind === "drop") drop();
      else json(500, internalError);
      return;
    }
    const answer = route(incoming, request.path, request.body);
    const delay = request.method === "POST" && request.path === "/v1/payments/payouts" ? state.payoutDelayMs : 0;
    setTimeout(() => {
      if (failure?.kind === "drop") drop();
      else if (failure?.kind === "500") json(500, internalError);
      else json(answer.status, answer.body, answer.headers);
    }, delay);
  });
  const { url, requests } = server;

  function item(senderItemId: string): Item {
    const batch = batchesBySenderId.get(senderItemId);
    const found = batch?.items.find((candidate) => candidate.payout_item.sender_item_id === senderItemId);
    if (!found) throw new Error(`the stand-in holds no payout for ${senderItemId}`);
    return found;
  }

  return {
    url,
    clientId,
    clientSecret,
    webhookId,
    state,
    requests,
    /** The environment that points the app (or the operator command) at this stand-in. */
    env: {
      PAYPAL_CLIENT_ID: clientId,
      PAYPAL_CLIENT_SECRET: clientSecret,
      PAYPAL_API_URL: url,
      PAYPAL_WEBHOOK_ID: webhookId,
    },
    /** The next `count` requests (to paths matching `path`, if given) fail as `failure` says. */
    failNext: failures.failNext,
    /** Forgets injected failures that have not happened. */
    clearFailures: failures.clearFailures,
    /** PayPal's memory of request ids runs out (batches stay): a repeat is judged by sender_batch_id. */
    forgetRequestIds() {
      answersByRequestId.clear();
    },
    /** Every token issued so far stops working (PayPal answers 401). */
    expireTokens() {
      for (const token of tokens.keys()) tokens.set(token, 0);
    },
    /** PayPal refuses payouts to `receiver` with this answer (e.g. 422 INSUFFICIENT_FUNDS). */
    refuseReceiver(receiver: string, status: number, name: string, message: string) {
      refusals.set(receiver, error(status, name, message));
    },
    acceptReceiver(receiver: string) {
      refusals.delete(receiver);
    },
    /** How many payouts PayPal made for a withdrawal (idempotent repeats are not payouts). */
    payoutsMade(senderItemId: string): number {
      return [...batchesById.values()]
        .flatMap((batch) => batch.items)
        .filter((candidate) => candidate.payout_item.sender_item_id === senderItemId).length;
    },
    /** The payout item of a withdrawal, as PayPal holds it. */
    item,
    /** Sets what PayPal reports for a withdrawal's payout item. */
    setItemStatus(senderItemId: string, status: string, errors?: { name: string; message: string }) {
      const target = item(senderItemId);
      target.transaction_status = status;
      if (status === "SUCCESS") target.transaction_id ??= id(17);
      if (errors) target.errors = errors;
    },
    /** A PAYMENT.PAYOUTS-ITEM.* event about a withdrawal's payout item, shaped as PayPal sends it. */
    itemEvent(senderItemId: string, eventType: string, errors?: { name: string; message: string }) {
      const target = item(senderItemId);
      return {
        id: `WH-${id(17)}`,
        event_version: "1.0",
        create_time: new Date().toISOString(),
        resource_type: "payouts_item",
        event_type: eventType,
        summary: `Payout item ${eventType.split(".").pop()?.toLowerCase()}`,
        resource: { ...target, ...(errors ? { errors } : {}) },
        links: [],
      };
    },
    /**
     * PAYPAL-* headers that this stand-in verifies as genuine for a delivery whose body is exactly
     * `body` (a string), or JSON.stringify(body) for an event object.
     */
    signedHeaders(body: unknown): Record<string, string> {
      const transmissionId = randomUUID();
      const time = new Date().toISOString();
      const raw = typeof body === "string" ? body : JSON.stringify(body);
      return {
        "paypal-auth-algo": "SHA256withRSA",
        "paypal-cert-url": "https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-test",
        "paypal-transmission-id": transmissionId,
        "paypal-transmission-sig": signature(transmissionId, time, webhookId, raw),
        "paypal-transmission-time": time,
      };
    },
    /** Recorded requests to a path. */
    requestsTo(method: string, path: string | RegExp) {
      return requests.filter(
        (request) =>
          request.method === method && (typeof path === "string" ? request.path === path : path.test(request.path)),
      );
    },
    close: server.close,
  };
}

export type PayPalStandIn = Awaited<ReturnType<typeof startPayPalStandIn>>;
