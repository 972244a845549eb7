import { withoutTrailingSlashes } from "~/domain/text";
import { getEnv, type Env } from "../../runtime/env.server";

/**
 * PayPal Payouts over its REST API: an OAuth2 client-credentials token, one payout per
 * withdrawal, reading a payout batch back, and checking a webhook's signature. The base URL is
 * configurable (PAYPAL_API_URL), so tests talk to a local server that speaks the same protocol.
 */
export type PayPalConfig = NonNullable<Env["paypal"]>;

export interface PayPalClientOptions {
  /** Tries per call, the first included; network errors, 5xx and 429 are tried again. */
  attempts?: number;
  /** The wait before retry number `retry` (1, 2, ...) when PayPal sends no Retry-After. */
  backoffMs?: (retry: number) => number;
  /** How a wait is spent; tests pass one that records the waits instead of sleeping. */
  sleep?: (ms: number) => Promise<void>;
  /** One request's time limit; a request that runs out is a network error (and tried again). */
  timeoutMs?: number;
}

/** A call PayPal refused or could not answer. `paypalName` is PayPal's error name (a stable code). */
export class PayPalError extends Error {
  name = "PayPalError";
  constructor(
    message: string,
    /** HTTP status, or null when PayPal could not be reached. */
    readonly status: number | null,
    /** PayPal's `name` (e.g. INSUFFICIENT_FUNDS), `error` of the token endpoint, or NETWORK_ERROR. */
    readonly paypalName: string,
    /** `details[].issue` codes (e.g. SENDER_BATCH_ID_ALREADY_USED). */
    readonly issues: string[] = [],
    readonly debugId: string | null = null,
  ) {
    super(message);
  }

  /** PayPal said no (4xx): trying the same call again would get the same answer. */
  get refused(): boolean {
    return this.status !== null && this.status >= 400 && this.status < 500 && this.status !== 429;
  }
}

export interface PayoutRequest {
  /** Our withdrawal id: PayPal's sender_batch_id, sender_item_id and PayPal-Request-Id. */
  withdrawalId: string;
  /** Dollars with two decimals, e.g. "5.25". */
  amount: string;
  currency: string;
  /** The recipient's PayPal email. */
  receiver: string;
  note?: string;
}

export interface PayoutBatchItem {
  payoutItemId: string | null;
  transactionId: string | null;
  transactionStatus: string;
  senderItemId: string | null;
  errors: { name?: string; message?: string } | null;
}

export interface PayoutBatch {
  batchId: string;
  batchStatus: string;
  items: PayoutBatchItem[];
}

/** The PAYPAL-* headers PayPal signs a webhook delivery with (lower-cased, as Headers gives them). */
const WEBHOOK_SIGNATURE_HEADERS = {
  auth_algo: "paypal-auth-algo",
  cert_url: "paypal-cert-url",
  transmission_id: "paypal-transmission-id",
  transmission_sig: "paypal-transmission-sig",
  transmission_time: "paypal-transmission-time",
} as const;

// A token is replaced this long before PayPal says it expires, so no call goes out with a token
// that dies on the way.
const TOKEN_EXPIRY_MARGIN_MS = 60_000;
// The longest Retry-After we sit through; an operator command should not hang for an hour.
const MAX_RETRY_AFTER_MS = 60_000;
const AMOUNT = /^\d{1,10}\.\d{2}$/;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** Retry-After in seconds or as an HTTP date, as milliseconds; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(ms)) return null;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

function errorFromAnswer(status: number, payload: unknown, what: string): PayPalError {
  const body = isObject(payload) ? payload : {};
  // REST errors carry name/message/details; the token endpoint carries error/error_description.
  const paypalName = text(body.name) ?? text(body.error) ?? `HTTP_${status}`;
  const message = text(body.message) ?? text(body.error_description) ?? `PayPal answered ${status}`;
  const issues = Array.isArray(body.details)
    ? body.details.flatMap((detail) => (isObject(detail) && text(detail.issue) ? [detail.issue as string] : []))
    : [];
  const suffix = issues.length > 0 ? ` (${issues.join(", ")})` : "";
  return new PayPalError(
    `${what}: PayPal ${status} ${paypalName}: ${message}${suffix}`,
    status,
    paypalName,
    issues,
    text(body.debug_id),
  );
}

async function readJson(response: Response): Promise<unknown> {
  const body = await response.text().catch(() => "");
  try {
    return body === "" ? null : (JSON.parse(body) as unknown);
  } catch {
    return null;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createPayPalClient(config: PayPalConfig, options: PayPalClientOptions = {}) {
  const attempts = Math.max(1, options.attempts ?? 4);
  const backoffMs = options.backoffMs ?? ((retry: number) => 500 * 2 ** (retry - 1));
  const sleep = options.sleep ?? defaultSleep;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const baseUrl = withoutTrailingSlashes(config.apiUrl);
  const basicAuth = `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString("base64")}`;

  let token: { value: string; refreshAt: number } | null = null;
  let tokenInFlight: Promise<string> | null = null;

  interface Call {
    what: string;
    method: "GET" | "POST";
    path: string;
    body?: string;
    contentType?: string;
    headers?: Record<string, string>;
    /** false for the token endpoint itself (Basic auth). */
    bearer: boolean;
  }

  /** One call with retries: network errors, 5xx and 429; a 401 renews the token once. */
  async function send(call: Call): Promise<unknown> {
    let retries = 0;
    let renewedToken = false;
    for (;;) {
      const authorization = call.bearer ? `Bearer ${await accessToken()}` : basicAuth;
      let response: Response;
      try {
        response = await fetch(baseUrl + call.path, {
          method: call.method,
          headers: {
            accept: "application/json",
            authorization,
            ...(call.body !== undefined ? { "content-type": call.contentType ?? "application/json" } : {}),
            ...call.headers,
          },
          body: call.body,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        if (retries + 1 >= attempts) {
          throw new PayPalError(
            `${call.what}: PayPal could not be reached (${(error as Error).message})`,
            null,
            "NETWORK_ERROR",
          );
        }
        retries += 1;
        await sleep(backoffMs(retries));
        continue;
      }
      const payload = await readJson(response);
      if (response.status === 401 && call.bearer && !renewedToken) {
        // The token expired or was revoked early: forget it (unless another call already has).
        renewedToken = true;
        if (token?.value === authorization.slice("Bearer ".length)) token = null;
        continue;
      }
      const transient = response.status === 429 || response.status >= 500;
      if (transient && retries + 1 < attempts) {
        retries += 1;
        await sleep(retryAfterMs(response.headers.get("retry-after")) ?? backoffMs(retries));
        continue;
      }
      if (!response.ok) throw errorFromAnswer(response.status, payload, call.what);
      return payload;
    }
  }

  async function fetchToken(): Promise<string> {
    const requestedAt = Date.now();
    const payload = await send({
      what: "PayPal access token",
      method: "POST",
      path: "/v1/oauth2/token",
      body: "grant_type=client_credentials",
      contentType: "application/x-www-form-urlencoded",
      bearer: false,
    });
    const value = isObject(payload) ? text(payload.access_token) : null;
    const expiresIn = isObject(payload) ? Number(payload.expires_in) : NaN;
    if (!value || !Number.isFinite(expiresIn)) {
      throw new PayPalError("PayPal access token: the answer has no access_token", 200, "UNEXPECTED_ANSWER");
    }
    token = { value, refreshAt: requestedAt + Math.max(0, expiresIn * 1000 - TOKEN_EXPIRY_MARGIN_MS) };
    return value;
  }

  /** The cached token while it is good; calls that arrive together share one token request. */
  function accessToken(): Promise<string> {
    if (token && Date.now() < token.refreshAt) return Promise.resolve(token.value);
    tokenInFlight ??= fetchToken().finally(() => (tokenInFlight = null));
    return tokenInFlight;
  }

  return {
    /**
     * Pays one withdrawal. The withdrawal id is the batch's sender_batch_id (PayPal refuses a second
     * batch with it) and the PayPal-Request-Id (a repeat gets the first answer), so a retry, a
     * second run or a second operator never pays twice.
     */
    async createPayout(payout: PayoutRequest): Promise<{ batchId: string; batchStatus: string }> {
      if (!AMOUNT.test(payout.amount)) throw new Error(`Not an amount with two decimals: ${payout.amount}`);
      const answer = await send({
        what: `payout ${payout.withdrawalId}`,
        method: "POST",
        path: "/v1/payments/payouts",
        headers: { "PayPal-Request-Id": payout.withdrawalId },
        body: JSON.stringify({
          sender_batch_header: {
            sender_batch_id: payout.withdrawalId,
            email_subject: "You have a payout!",
            email_message: "Your withdrawal has been paid to this PayPal account.",
          },
          items: [
            {
              recipient_type: "EMAIL",
              amount: { value: payout.amount, currency: payout.currency },
              receiver: payout.receiver,
              sender_item_id: payout.withdrawalId,
              ...(payout.note ? { note: payout.note } : {}),
            },
          ],
        }),
        bearer: true,
      });
      const header = isObject(answer) && isObject(answer.batch_header) ? answer.batch_header : null;
      const batchId = header ? text(header.payout_batch_id) : null;
      if (!header || !batchId) {
        throw new PayPalError(
          `payout ${payout.withdrawalId}: PayPal's answer has no payout_batch_id`,
          200,
          "UNEXPECTED_ANSWER",
        );
      }
      return { batchId, batchStatus: text(header.batch_status) ?? "PENDING" };
    },

    /** A payout batch with the status of each item. */
    async getPayoutBatch(batchId: string): Promise<PayoutBatch> {
      const answer = await send({
        what: `payout batch ${batchId}`,
        method: "GET",
        path: `/v1/payments/payouts/${encodeURIComponent(batchId)}`,
        bearer: true,
      });
      const body = isObject(answer) ? answer : {};
      const header = isObject(body.batch_header) ? body.batch_header : {};
      const items = Array.isArray(body.items) ? body.items.filter(isObject) : [];
      return {
        batchId: text(header.payout_batch_id) ?? batchId,
        batchStatus: text(header.batch_status) ?? "UNKNOWN",
        items: items.map((item) => ({
          payoutItemId: text(item.payout_item_id),
          transactionId: text(item.transaction_id),
          transactionStatus: text(item.transaction_status) ?? "UNKNOWN",
          senderItemId: isObject(item.payout_item) ? text(item.payout_item.sender_item_id) : null,
          errors: isObject(item.errors) ? (item.errors as PayoutBatchItem["errors"]) : null,
        })),
      };
    },

    /**
     * Asks PayPal whether a webhook delivery is genuine: its PAYPAL-* headers, our webhook id and
     * the event exactly as received. `rawEvent` is the delivery's body, which must be JSON (the
     * caller has parsed it): it goes into the request unchanged, because the signature covers those
     * bytes and re-serialising (key order, spacing, escapes, large numbers) would change them.
     * False when a signature header is missing (nothing is asked then).
     */
    async verifyWebhookSignature(headers: Headers, rawEvent: string, webhookId: string): Promise<boolean> {
      const signature: Record<string, string> = {};
      for (const [field, header] of Object.entries(WEBHOOK_SIGNATURE_HEADERS)) {
        const value = headers.get(header);
        if (!value) return false;
        signature[field] = value;
      }
      // Only a JSON object is spliced in: anything else could break out of its place in the request.
      if (!isObject(parseJson(rawEvent))) return false;
      const fields = JSON.stringify({ ...signature, webhook_id: webhookId });
      const answer = await send({
        what: "webhook signature check",
        method: "POST",
        path: "/v1/notifications/verify-webhook-signature",
        body: `${fields.slice(0, -1)},"webhook_event":${rawEvent}}`,
        bearer: true,
      });
      return isObject(answer) && answer.verification_status === "SUCCESS";
    },
  };
}

export type PayPalClient = ReturnType<typeof createPayPalClient>;

// One client per process, so the server's calls share one cached token.
let processClient: { config: PayPalConfig; client: PayPalClient } | undefined;

/** The client for this process's configuration, or null when PayPal is not configured. */
export function getPayPalClient(): PayPalClient | null {
  const config = getEnv().paypal;
  if (!config) return null;
  if (processClient?.config !== config) processClient = { config, client: createPayPalClient(config) };
  return processClient.client;
}
