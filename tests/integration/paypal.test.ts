import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createPayPalClient, PayPalError, retryAfterMs } from "~/server/withdrawals/payouts/paypal.server";
import { payoutEventOutcome, payoutOutcome } from "~/server/withdrawals/payouts/payout-status.server";
import { startPayPalStandIn, type PayPalStandIn } from "../support/paypal";

describe("the PayPal Payouts client against a local PayPal", () => {
  let paypal: PayPalStandIn;

  beforeAll(async () => {
    paypal = await startPayPalStandIn();
  });
  afterEach(() => {
    vi.useRealTimers();
    paypal.clearFailures();
    paypal.state.tokenTtlSeconds = 32_400;
    paypal.requests.length = 0;
  });
  afterAll(() => paypal.close());

  /** A client with its own token cache whose waits are recorded instead of slept. */
  function client(options: { attempts?: number } = {}) {
    const waits: number[] = [];
    const instance = createPayPalClient(
      {
        clientId: paypal.clientId,
        clientSecret: paypal.clientSecret,
        mode: "sandbox",
        apiUrl: paypal.url,
        webhookId: null,
      },
      { attempts: options.attempts ?? 4, backoffMs: (retry) => retry * 10, sleep: async (ms) => void waits.push(ms) },
    );
    return { paypal: instance, waits };
  }

  const payout = (withdrawalId = randomUUID(), receiver = "friend@example.com") => ({
    withdrawalId,
    amount: "5.25",
    currency: "USD",
    receiver,
  });

  const tokenRequests = () => paypal.requestsTo("POST", "/v1/oauth2/token");
  const createRequests = () => paypal.requestsTo("POST", "/v1/payments/payouts");

  it("gets a token with Basic client credentials, then reuses it for every call", async () => {
    const { paypal: api } = client();
    const first = await api.createPayout(payout());
    await api.getPayoutBatch(first.batchId);
    await api.createPayout(payout());
    expect(tokenRequests()).toHaveLength(1);
    const [token] = tokenRequests();
    const basic = Buffer.from(`${paypal.clientId}:${paypal.clientSecret}`).toString("base64");
    expect(token!.headers.authorization).toBe(`Basic ${basic}`);
    expect(token!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(token!.body).toBe("grant_type=client_credentials");
    const bearers = new Set(paypal.requests.slice(1).map((request) => request.headers.authorization));
    expect([...bearers]).toHaveLength(1);
    expect([...bearers][0]).toMatch(/^Bearer A21AA/);
  });

  it("asks for a new token a minute before the old one expires, not earlier", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-23T10:00:00Z") });
    paypal.state.tokenTtlSeconds = 3600;
    const { paypal: api } = client();
    const { batchId } = await api.createPayout(payout());
    vi.setSystemTime(new Date("2026-11-23T10:58:59Z"));
    await api.getPayoutBatch(batchId);
    expect(tokenRequests()).toHaveLength(1);
    vi.setSystemTime(new Date("2026-11-23T10:59:01Z"));
    await api.getPayoutBatch(batchId);
    expect(tokenRequests()).toHaveLength(2);
  });

  it("calls that arrive together share one token request", async () => {
    const { paypal: api } = client();
    await Promise.all([api.createPayout(payout()), api.createPayout(payout()), api.createPayout(payout())]);
    expect(tokenRequests()).toHaveLength(1);
  });

  it("a 401 on a later call drops the token and retries once with a new one", async () => {
    const { paypal: api, waits } = client();
    const { batchId } = await api.createPayout(payout());
    paypal.expireTokens();
    const batch = await api.getPayoutBatch(batchId);
    expect(batch.batchId).toBe(batchId);
    expect(tokenRequests()).toHaveLength(2);
    expect(paypal.requestsTo("GET", `/v1/payments/payouts/${batchId}`).map((request) => request.status)).toEqual([
      401, 200,
    ]);
    expect(waits).toEqual([]);
  });

  it("a 401 that a new token does not cure is reported, not retried again", async () => {
    const { paypal: api } = client();
    paypal.state.tokenTtlSeconds = 0; // every token is dead on arrival
    const error = await api.getPayoutBatch("ANYBATCH").catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(PayPalError);
    expect(error).toMatchObject({ status: 401, paypalName: "invalid_token" });
    expect(paypal.requestsTo("GET", "/v1/payments/payouts/ANYBATCH")).toHaveLength(2);
  });

  it("retries a 500 and a dropped connection with backoff, then succeeds", async () => {
    const { paypal: api, waits } = client();
    const { batchId } = await api.createPayout(payout());
    paypal.failNext(1, { kind: "500" }, /^\/v1\/payments\/payouts\//);
    paypal.failNext(1, { kind: "drop" }, /^\/v1\/payments\/payouts\//);
    const batch = await api.getPayoutBatch(batchId);
    expect(batch.items).toHaveLength(1);
    expect(paypal.requestsTo("GET", `/v1/payments/payouts/${batchId}`).map((request) => request.status)).toEqual([
      500,
      "dropped",
      200,
    ]);
    expect(waits).toEqual([10, 20]);
  });

  it("gives up after the configured number of attempts with a network error", async () => {
    const { paypal: api, waits } = client({ attempts: 3 });
    await api.createPayout(payout()); // token in hand
    paypal.failNext(3, { kind: "drop" }, /^\/v1\/payments\/payouts$/);
    const error = await api.createPayout(payout()).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(PayPalError);
    expect(error).toMatchObject({ status: null, paypalName: "NETWORK_ERROR", refused: false });
    expect(createRequests().slice(1)).toHaveLength(3);
    expect(waits).toEqual([10, 20]);
  });

  it("waits as long as a 429's Retry-After says before trying again", async () => {
    const { paypal: api, waits } = client();
    paypal.failNext(1, { kind: "429", retryAfterSeconds: 3 }, /^\/v1\/payments\/payouts$/);
    await api.createPayout(payout());
    expect(createRequests().map((request) => request.status)).toEqual([429, 201]);
    expect(waits).toEqual([3000]);
  });

  it("reads Retry-After as seconds or as a date, and caps it at a minute", () => {
    const now = Date.parse("2026-11-23T10:00:00Z");
    expect(retryAfterMs("2", now)).toBe(2000);
    expect(retryAfterMs("Mon, 23 Nov 2026 10:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs("86400", now)).toBe(60_000);
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it("does not retry a business refusal (4xx) and reports PayPal's name and message", async () => {
    const { paypal: api, waits } = client();
    paypal.refuseReceiver("broke@example.com", 422, "INSUFFICIENT_FUNDS", "Sender does not have sufficient funds.");
    const error = await api
      .createPayout(payout(randomUUID(), "broke@example.com"))
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(PayPalError);
    expect(error).toMatchObject({ status: 422, paypalName: "INSUFFICIENT_FUNDS", refused: true });
    expect((error as Error).message).toContain("Sender does not have sufficient funds.");
    expect(createRequests()).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("refused credentials are reported from the token endpoint and not retried", async () => {
    const api = createPayPalClient(
      { clientId: "someone", clientSecret: "wrong", mode: "sandbox", apiUrl: paypal.url, webhookId: null },
      { sleep: async () => {} },
    );
    const error = await api.createPayout(payout()).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ status: 401, paypalName: "invalid_client" });
    expect(tokenRequests()).toHaveLength(1);
    expect(createRequests()).toHaveLength(0);
  });

  it("sends one EMAIL payout whose sender_batch_id, sender_item_id and PayPal-Request-Id are the withdrawal id", async () => {
    const { paypal: api } = client();
    const withdrawalId = randomUUID();
    const result = await api.createPayout(payout(withdrawalId));
    expect(result).toEqual({ batchId: expect.stringMatching(/^[A-Z0-9]{13}$/), batchStatus: "PENDING" });
    const [request] = createRequests();
    expect(request!.headers["paypal-request-id"]).toBe(withdrawalId);
    expect(request!.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(request!.body) as { sender_batch_header: object; items: object[] };
    expect(body.sender_batch_header).toMatchObject({ sender_batch_id: withdrawalId });
    expect(body.items).toEqual([
      {
        recipient_type: "EMAIL",
        amount: { value: "5.25", currency: "USD" },
        receiver: "friend@example.com",
        sender_item_id: withdrawalId,
      },
    ]);
  });

  it("a repeated create (same PayPal-Request-Id) gets the first answer and PayPal pays once", async () => {
    const { paypal: api } = client();
    const withdrawalId = randomUUID();
    const first = await api.createPayout(payout(withdrawalId));
    const second = await api.createPayout(payout(withdrawalId));
    expect(second).toEqual(first);
    expect(paypal.payoutsMade(withdrawalId)).toBe(1);
  });

  it("an answer lost after PayPal made the payout is retried with the same request id and pays once", async () => {
    const { paypal: api } = client();
    await api.createPayout(payout()); // token in hand
    const withdrawalId = randomUUID();
    paypal.failNext(1, { kind: "drop", afterProcessing: true }, /^\/v1\/payments\/payouts$/);
    paypal.failNext(1, { kind: "500", afterProcessing: true }, /^\/v1\/payments\/payouts$/);
    const result = await api.createPayout(payout(withdrawalId));
    expect(result.batchId).toBe(paypal.item(withdrawalId).payout_batch_id);
    const attempts = createRequests().slice(1);
    expect(attempts.map((request) => request.status)).toEqual(["dropped", 500, 201]);
    expect(new Set(attempts.map((request) => request.headers["paypal-request-id"]))).toEqual(new Set([withdrawalId]));
    expect(paypal.payoutsMade(withdrawalId)).toBe(1);
  });

  it("a withdrawal id PayPal holds a batch for but whose request id it has forgotten is refused with SENDER_BATCH_ID_ALREADY_USED, not retried", async () => {
    const { paypal: api, waits } = client();
    const withdrawalId = randomUUID();
    await api.createPayout(payout(withdrawalId));
    paypal.forgetRequestIds(); // PayPal remembers request ids for a limited time only
    const error = await api.createPayout(payout(withdrawalId)).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(PayPalError);
    expect(error).toMatchObject({
      status: 400,
      paypalName: "USER_BUSINESS_ERROR",
      issues: ["SENDER_BATCH_ID_ALREADY_USED"],
      refused: true,
    });
    expect(createRequests()).toHaveLength(2);
    expect(waits).toEqual([]);
    expect(paypal.payoutsMade(withdrawalId)).toBe(1);
  });

  it("reads a batch back: each item's status, sender_item_id, payout_item_id and errors", async () => {
    const { paypal: api } = client();
    const withdrawalId = randomUUID();
    const { batchId } = await api.createPayout(payout(withdrawalId));
    paypal.setItemStatus(withdrawalId, "RETURNED", {
      name: "RECEIVER_UNREGISTERED",
      message: "Receiver is unregistered",
    });
    const batch = await api.getPayoutBatch(batchId);
    expect(batch).toEqual({
      batchId,
      batchStatus: "PROCESSING",
      items: [
        {
          payoutItemId: paypal.item(withdrawalId).payout_item_id,
          transactionId: null,
          transactionStatus: "RETURNED",
          senderItemId: withdrawalId,
          errors: { name: "RECEIVER_UNREGISTERED", message: "Receiver is unregistered" },
        },
      ],
    });
  });

  it("verifies a webhook through PayPal: SUCCESS when genuine, FAILURE when tampered, no call without the PAYPAL-* headers", async () => {
    const { paypal: api } = client();
    const withdrawalId = randomUUID();
    await api.createPayout(payout(withdrawalId));
    const event = paypal.itemEvent(withdrawalId, "PAYMENT.PAYOUTS-ITEM.SUCCEEDED");
    const headers = new Headers(paypal.signedHeaders(event));
    expect(await api.verifyWebhookSignature(headers, JSON.stringify(event), paypal.webhookId)).toBe(true);
    const [check] = paypal.requestsTo("POST", "/v1/notifications/verify-webhook-signature");
    expect(JSON.parse(check!.body)).toEqual({
      auth_algo: "SHA256withRSA",
      cert_url: headers.get("paypal-cert-url"),
      transmission_id: headers.get("paypal-transmission-id"),
      transmission_sig: headers.get("paypal-transmission-sig"),
      transmission_time: headers.get("paypal-transmission-time"),
      webhook_id: paypal.webhookId,
      webhook_event: event,
    });
    const tampered = { ...event, event_type: "PAYMENT.PAYOUTS-ITEM.FAILED" };
    expect(await api.verifyWebhookSignature(headers, JSON.stringify(tampered), paypal.webhookId)).toBe(false);
    expect(await api.verifyWebhookSignature(headers, JSON.stringify(event), "WH-SOMEONE-ELSE")).toBe(false);
    headers.delete("paypal-transmission-sig");
    expect(await api.verifyWebhookSignature(headers, JSON.stringify(event), paypal.webhookId)).toBe(false);
    expect(paypal.requestsTo("POST", "/v1/notifications/verify-webhook-signature")).toHaveLength(3);
  });

  it("sends the webhook event to PayPal as the exact text received (spacing, key order, escapes and large numbers kept), and asks nothing for a body that is not a JSON object", async () => {
    const { paypal: api } = client();
    const withdrawalId = randomUUID();
    await api.createPayout(payout(withdrawalId));
    const event = paypal.itemEvent(withdrawalId, "PAYMENT.PAYOUTS-ITEM.SUCCEEDED");
    // What JSON.stringify(JSON.parse(raw)) would change: the spacing, the escapes (\u00e9, \/),
    // and a number beyond double precision.
    const raw = ` {\n  "note" : "Pay\\u00e9 \\/ ok",\r\n\t"big": 12345678901234567890123,\n  ${JSON.stringify(event, null, 4).slice(1)}\n`;
    expect(JSON.stringify(JSON.parse(raw))).not.toBe(raw);
    const before = paypal.requestsTo("POST", "/v1/notifications/verify-webhook-signature").length;
    expect(await api.verifyWebhookSignature(new Headers(paypal.signedHeaders(raw)), raw, paypal.webhookId)).toBe(true);
    expect(paypal.state.verifiedEvents.at(-1)).toBe(raw);
    // A re-serialised event is not what PayPal signed.
    const reserialised = JSON.stringify(JSON.parse(raw));
    expect(
      await api.verifyWebhookSignature(new Headers(paypal.signedHeaders(raw)), reserialised, paypal.webhookId),
    ).toBe(false);
    // Only a JSON object is spliced into the request.
    for (const notAnObject of ["", "[1]", '"text"', '{"a": 1}, "webhook_id": "WH-X"', "{"]) {
      expect(
        await api.verifyWebhookSignature(new Headers(paypal.signedHeaders(notAnObject)), notAnObject, paypal.webhookId),
        JSON.stringify(notAnObject),
      ).toBe(false);
    }
    expect(paypal.requestsTo("POST", "/v1/notifications/verify-webhook-signature")).toHaveLength(before + 2);
  });
});

describe("what a PayPal payout status means for the withdrawal", () => {
  it("SUCCESS completes it with the payout item id as reference (the transaction id without one)", () => {
    expect(payoutOutcome({ transactionStatus: "SUCCESS", payoutItemId: "ITEM1", transactionId: "TX1" })).toEqual({
      settle: "completed",
      payoutStatus: "SUCCESS",
      reference: "ITEM1",
    });
    expect(payoutOutcome({ transactionStatus: "SUCCESS", transactionId: "TX1" })).toMatchObject({ reference: "TX1" });
  });

  it.each(["FAILED", "RETURNED", "BLOCKED", "REFUNDED", "REVERSED"])("%s fails it with a reason", (status) => {
    const outcome = payoutOutcome({ transactionStatus: status });
    expect(outcome).toMatchObject({ settle: "failed", payoutStatus: status });
    expect(outcome.settle === "failed" && outcome.reason.length).toBeGreaterThan(0);
  });

  it("a failure's reason carries PayPal's error message and fits the database column", () => {
    expect(
      payoutOutcome({
        transactionStatus: "RETURNED",
        errors: { name: "RECEIVER_UNREGISTERED", message: "Receiver is unregistered" },
      }),
    ).toEqual({
      settle: "failed",
      payoutStatus: "RETURNED",
      reason: "The payout was not claimed and PayPal returned it: Receiver is unregistered",
    });
    const long = payoutOutcome({ transactionStatus: "FAILED", errors: { name: "X", message: "x".repeat(900) } });
    expect(long.settle === "failed" && long.reason.length).toBe(500);
  });

  it.each(["UNCLAIMED", "PENDING", "ONHOLD", "HELD", "SOMETHING_NEW"])(
    "%s leaves it pending and is recorded",
    (status) => {
      expect(payoutOutcome({ transactionStatus: status })).toEqual({ settle: null, payoutStatus: status });
    },
  );

  it.each([
    ["PAYMENT.PAYOUTS-ITEM.SUCCEEDED", "completed", "SUCCESS"],
    ["PAYMENT.PAYOUTS-ITEM.FAILED", "failed", "FAILED"],
    ["PAYMENT.PAYOUTS-ITEM.RETURNED", "failed", "RETURNED"],
    ["PAYMENT.PAYOUTS-ITEM.BLOCKED", "failed", "BLOCKED"],
    ["PAYMENT.PAYOUTS-ITEM.REFUNDED", "failed", "REFUNDED"],
    ["PAYMENT.PAYOUTS-ITEM.CANCELED", "failed", "CANCELED"],
    ["PAYMENT.PAYOUTS-ITEM.DENIED", "failed", "DENIED"],
    ["PAYMENT.PAYOUTS-ITEM.UNCLAIMED", null, "UNCLAIMED"],
    ["PAYMENT.PAYOUTS-ITEM.HELD", null, "ONHOLD"],
  ])("the event %s settles as %s (item status %s)", (eventType, settle, payoutStatus) => {
    expect(payoutEventOutcome(eventType, { payout_item_id: "ITEM9" })).toMatchObject({ settle, payoutStatus });
  });

  it("the SUCCEEDED event's reference is the event resource's payout_item_id", () => {
    expect(
      payoutEventOutcome("PAYMENT.PAYOUTS-ITEM.SUCCEEDED", { payout_item_id: "ITEM9", transaction_id: "TX9" }),
    ).toEqual({ settle: "completed", payoutStatus: "SUCCESS", reference: "ITEM9" });
  });

  it("events that are not about a payout item, or unknown item events, mean nothing", () => {
    expect(payoutEventOutcome("PAYMENT.PAYOUTSBATCH.SUCCESS", {})).toBeNull();
    expect(payoutEventOutcome("PAYMENT.SALE.COMPLETED", {})).toBeNull();
    expect(payoutEventOutcome("PAYMENT.PAYOUTS-ITEM.SOMETHING", {})).toBeNull();
  });
});
