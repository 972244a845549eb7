import { createHmac, randomBytes } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { scriptedFailures, startHttpStandIn, type Exchange } from "./stand-in";

/**
 * A local RazorpayX Payouts, speaking the protocol of docs/rails/razorpayx.md: HTTP Basic with the
 * key id and secret; POST /v1/payouts (the composite call to a `vpa` fund account) with the
 * mandatory X-Payout-Idempotency header: a repeat of a key with the same body gets the first
 * answer, with another body a BAD_REQUEST_ERROR; `queue_if_low_balance` with too little balance
 * makes a `queued` payout; GET /v1/payouts/{id}; errors as `{"error": {code, description, field}}`.
 * It signs webhooks as RazorpayX does (X-Razorpay-Signature: hex HMAC-SHA256 of the body with the
 * webhook secret) and can deliver them twice or out of order. Failures are scripted ahead: a 5xx,
 * a dropped connection, or a payout made and its answer lost (a crash between create and record).
 */
export const RAZORPAYX_KEY_ID = "rzp_test_standin";
export const RAZORPAYX_KEY_SECRET = "standin-key-secret";
export const RAZORPAYX_ACCOUNT_NUMBER = "7878780080316316";
export const RAZORPAYX_WEBHOOK_SECRET = "standin-webhook-secret";

export type RazorpayXFailure = "http500" | "drop" | "made-then-drop";

export interface StandInPayout {
  id: string;
  entity: "payout";
  fund_account_id: string;
  amount: number;
  currency: string;
  status: string;
  utr: string | null;
  mode: string;
  purpose: string;
  reference_id: string;
  narration: string;
  status_details: { description: string | null; source: string | null; reason: string | null };
  created_at: number;
}

const VPA = /^[a-zA-Z0-9.\-_]{2,256}@[a-zA-Z]{2,64}$/;
const KEY = /^[A-Za-z0-9 _-]{4,36}$/;

export async function startRazorpayXStandIn({ balancePaise = 1_000_000_000 } = {}) {
  const failures = scriptedFailures<RazorpayXFailure>();
  const payouts = new Map<string, StandInPayout>();
  /** Idempotency key → the body first sent with it, and the answer saved for it. */
  const keys = new Map<string, { body: unknown; status: number; answer: unknown }>();
  let balance = balancePaise;
  const validations = new Map<
    string,
    {
      id: string;
      status: string;
      validation_results: { account_status: string | null; registered_name: string | null };
    } & Record<string, unknown>
  >();
  /** The UPI IDs asked to be validated, in order. */
  const validationCalls: string[] = [];

  /** RazorpayX's error body for a request it refuses (docs/rails/razorpayx.md: code, description, field, ...). */
  const badRequest = (description: string, field: string | null) => ({
    error: {
      code: "BAD_REQUEST_ERROR",
      description,
      source: "business",
      step: "NA",
      reason: "input_validation_failed",
      metadata: {},
      field,
    },
  });
  const refuse = (exchange: Exchange, status: number, description: string, field: string | null = null) =>
    exchange.json(status, badRequest(description, field));

  function createPayout(body: Record<string, unknown>): { status: number; answer: unknown } {
    const fundAccount = body.fund_account as { account_type?: unknown; vpa?: { address?: unknown } } | undefined;
    const address = fundAccount?.vpa?.address;
    const bad = (description: string, field: string) => ({ status: 400, answer: badRequest(description, field) });
    if (body.account_number !== RAZORPAYX_ACCOUNT_NUMBER)
      return bad("The account number is invalid.", "account_number");
    if (!Number.isInteger(body.amount) || (body.amount as number) < 100)
      return bad("The amount must be at least 100.", "amount");
    if (body.currency !== "INR") return bad("The currency must be INR.", "currency");
    if (body.mode !== "UPI") return bad("The mode is invalid.", "mode");
    if (typeof body.purpose !== "string") return bad("The purpose field is required.", "purpose");
    // RazorpayX checks the UPI ID's form itself (here, one starting "refused" stands for one it refuses).
    if (
      fundAccount?.account_type !== "vpa" ||
      typeof address !== "string" ||
      !VPA.test(address) ||
      address.startsWith("refused")
    )
      return bad("Invalid VPA. Please enter a valid Virtual Payment Address", "fund_account.vpa.address");
    // A UPI ID the bank network does not know: made, then failed (as the network answers).
    const unknownVpa = address.startsWith("unknown");
    const amount = body.amount as number;
    const queued = !unknownVpa && amount > balance && body.queue_if_low_balance === true;
    if (!unknownVpa && amount > balance && !queued)
      return bad("Your account does not have enough balance to carry out the payout operation.", "amount");
    if (!unknownVpa && !queued) balance -= amount;
    const payout: StandInPayout = {
      id: `pout_${randomBytes(7).toString("hex")}`,
      entity: "payout",
      fund_account_id: `fa_${randomBytes(7).toString("hex")}`,
      amount,
      currency: "INR",
      status: unknownVpa ? "failed" : queued ? "queued" : "processing",
      utr: null,
      mode: "UPI",
      purpose: body.purpose as string,
      reference_id: String(body.reference_id ?? ""),
      narration: String(body.narration ?? ""),
      status_details: unknownVpa
        ? { description: "The beneficiary VPA is invalid.", source: "beneficiary_bank", reason: "invalid_vpa" }
        : queued
          ? {
              description: "Payout is queued as your business account balance is low.",
              source: "business",
              reason: "low_balance",
            }
          : { description: null, source: null, reason: null },
      created_at: Math.floor(Date.now() / 1000),
    };
    payouts.set(payout.id, payout);
    return { status: 200, answer: payout };
  }

  const standIn = await startHttpStandIn((exchange) => {
    const { request } = exchange;
    const expected = `Basic ${Buffer.from(`${RAZORPAYX_KEY_ID}:${RAZORPAYX_KEY_SECRET}`).toString("base64")}`;
    if (request.headers.authorization !== expected) {
      exchange.json(401, { error: { code: "BAD_REQUEST_ERROR", description: "Authentication failed", field: null } });
      return;
    }
    const failure = failures.take(request.path);
    if (failure === "http500")
      return exchange.json(500, {
        error: {
          code: "SERVER_ERROR",
          description: "We are facing some trouble completing your request at the moment.",
        },
      });
    if (failure === "drop") return exchange.drop();

    if (request.method === "POST" && request.path === "/v1/payouts") {
      const key = request.headers["x-payout-idempotency"];
      if (typeof key !== "string" || key === "")
        return refuse(exchange, 400, "Idempotency key is missing", "X-Payout-Idempotency");
      if (!KEY.test(key)) return refuse(exchange, 400, "The idempotency key is invalid", "X-Payout-Idempotency");
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(request.body) as Record<string, unknown>;
      } catch {
        return refuse(exchange, 400, "The request body is not valid JSON");
      }
      const seen = keys.get(key);
      if (seen) {
        if (!isDeepStrictEqual(seen.body, body))
          return refuse(
            exchange,
            400,
            "Different request body sent for the same Idempotency Header",
            "X-Payout-Idempotency",
          );
        return exchange.json(seen.status, seen.answer);
      }
      const made = createPayout(body);
      keys.set(key, { body, ...made });
      if (failure === "made-then-drop") return exchange.drop();
      return exchange.json(made.status, made.answer);
    }
    if (request.method === "POST" && request.path === "/v1/fund_accounts/validations") {
      const body = JSON.parse(request.body || "null") as {
        source_account_number?: unknown;
        fund_account?: { account_type?: unknown; vpa?: { address?: unknown } };
      } | null;
      const address = body?.fund_account?.vpa?.address;
      if (
        body?.source_account_number !== RAZORPAYX_ACCOUNT_NUMBER ||
        body.fund_account?.account_type !== "vpa" ||
        typeof address !== "string"
      )
        return refuse(exchange, 400, "The fund account is invalid.", "fund_account");
      validationCalls.push(address);
      // A UPI ID starting "ghost" does not exist; one starting "slow" is answered later (created, then completed).
      const validation = {
        id: `fav_${randomBytes(7).toString("hex")}`,
        entity: "fund_account.validation",
        status: address.startsWith("slow") ? "created" : "completed",
        validation_results: address.startsWith("slow")
          ? { account_status: null, registered_name: null }
          : address.startsWith("ghost")
            ? { account_status: "invalid", registered_name: null }
            : { account_status: "active", registered_name: "Asha Verma" },
        reference_id: (body as { reference_id?: unknown }).reference_id ?? null,
      };
      validations.set(validation.id, validation);
      return exchange.json(200, validation);
    }
    const validationRead = /^\/v1\/fund_accounts\/validations\/([A-Za-z0-9_]+)$/.exec(request.path);
    if (request.method === "GET" && validationRead) {
      const validation = validations.get(validationRead[1]!);
      if (!validation) return refuse(exchange, 400, "The id provided does not exist", "id");
      // Read back, the bank has answered.
      validation.status = "completed";
      validation.validation_results = { account_status: "active", registered_name: "Asha Verma" };
      return exchange.json(200, validation);
    }
    const read = /^\/v1\/payouts\/([A-Za-z0-9_]+)$/.exec(request.path);
    if (request.method === "GET" && read) {
      const payout = payouts.get(read[1]!);
      if (!payout) return refuse(exchange, 400, "The id provided does not exist", "id");
      return exchange.json(200, payout);
    }
    refuse(exchange, 404, "The requested URL was not found on the server.");
  });

  /** Signs and posts one webhook event about `payout` to the app, as RazorpayX does. */
  async function deliver(appUrl: string, event: string, payout: StandInPayout, secret = RAZORPAYX_WEBHOOK_SECRET) {
    const body = JSON.stringify({
      entity: "event",
      account_id: "acc_standin",
      event,
      contains: ["payout"],
      payload: { payout: { entity: payout } },
      created_at: Math.floor(Date.now() / 1000),
    });
    const response = await fetch(new URL("/api/razorpayx/webhook", appUrl), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-razorpay-signature": createHmac("sha256", secret).update(body).digest("hex"),
        "x-razorpay-event-id": `evt_${randomBytes(7).toString("hex")}`,
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
      RAZORPAYX_KEY_ID,
      RAZORPAYX_KEY_SECRET,
      RAZORPAYX_ACCOUNT_NUMBER,
      RAZORPAYX_WEBHOOK_SECRET,
      RAZORPAYX_API_URL: standIn.url,
    },
    /** The payouts made for `referenceId` (a withdrawal id). */
    payoutsFor: (referenceId: string) => [...payouts.values()].filter((payout) => payout.reference_id === referenceId),
    /** Moves a payout on, as the bank network does (the UTR comes with `processed`). */
    advance(payoutId: string, status: string, details: Partial<StandInPayout["status_details"]> = {}) {
      const payout = payouts.get(payoutId)!;
      payout.status = status;
      if (status === "processed") payout.utr = `UTR${randomBytes(5).toString("hex").toUpperCase()}`;
      payout.status_details = { description: null, source: null, reason: null, ...details };
      return { ...payout };
    },
    deliver,
    validationCalls,
    /** Adds to the business balance (queued payouts then wait for `advance`). */
    fund(paise: number) {
      balance += paise;
    },
  };
}

export type RazorpayXStandIn = Awaited<ReturnType<typeof startRazorpayXStandIn>>;
