import { createHmac, timingSafeEqual } from "node:crypto";
import { withoutTrailingSlashes } from "~/domain/text";
import { getEnv, type Env } from "../../runtime/env.server";
import { isObject, railCaller, text, type RailCallOptions } from "./rail-http.server";

/**
 * RazorpayX Payouts over its REST API (docs/rails/razorpayx.md, each fact with its source): HTTP
 * Basic with the key id and secret, a payout to a UPI ID made with the composite call, read back by
 * id, and the webhook's signature. The base URL is configurable (RAZORPAYX_API_URL), so tests talk to
 * a local server that speaks the same protocol.
 */
export type RazorpayXConfig = NonNullable<Env["razorpayx"]>;

export type RazorpayXClientOptions = RailCallOptions;

/** A call RazorpayX refused or could not answer: its `error.code`, `field` and `description`. */
export class RazorpayXError extends Error {
  name = "RazorpayXError";
  constructor(
    message: string,
    /** HTTP status, or null when RazorpayX could not be reached. */
    readonly status: number | null,
    /** RazorpayX's error code (BAD_REQUEST_ERROR, ...), or NETWORK_ERROR. */
    readonly code: string,
    readonly field: string | null = null,
    readonly description: string | null = null,
  ) {
    super(message);
  }

  /** RazorpayX said no (4xx): the same request would get the same answer. */
  get refused(): boolean {
    return this.status !== null && this.status >= 400 && this.status < 500 && this.status !== 429;
  }

  /** The idempotency key was used with another body (or is missing): a payout may exist. */
  get aboutIdempotency(): boolean {
    return this.field === "X-Payout-Idempotency" || /idempoten/i.test(this.description ?? "");
  }

  /** Our credentials or account were refused: nothing about this payout. */
  get ourSetup(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

/** A payout as RazorpayX describes it (its entity). */
export interface RazorpayXPayout {
  id: string;
  status: string;
  utr: string | null;
  /** Our withdrawal id, as sent. */
  referenceId: string | null;
  /** Why it waits or failed (status_details.description). */
  reason: string | null;
}

/** A UPI ID's validation (a fund account validation): its status and, once completed, the result. */
export interface UpiValidation {
  id: string;
  /** created (waiting for the bank), completed, or failed (no answer). */
  status: string;
  /** active or valid: the UPI ID exists; invalid: it does not. */
  accountStatus: string | null;
  registeredName: string | null;
}

/** The request that pays one withdrawal (stored with it before the first call, sent unchanged every time). */
export interface PayoutRequestBody {
  account_number: string;
  amount: number;
  currency: "INR";
  mode: "UPI";
  purpose: "payout";
  fund_account: {
    account_type: "vpa";
    vpa: { address: string };
    contact: { name: string; type: "customer"; reference_id: string };
  };
  queue_if_low_balance: boolean;
  reference_id: string;
  narration: string;
}

const RUPEES = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/** Rupees as the database writes them ("416.25", 416.25) in paise, exactly; null when not an amount. */
export function rupeesToPaise(rupees: string | number): number | null {
  const match = RUPEES.exec(String(rupees));
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/**
 * The composite payout to a UPI ID for one withdrawal: the amount in paise, `reference_id` the
 * withdrawal id. The contact is named for the app, not the person: a name RazorpayX refused would
 * refuse the payout; the person's account id is its reference.
 */
export function payoutRequestBody(
  withdrawal: { id: string; user_id: string; recipient_upi: string; payout_amount: string | number },
  config: Pick<RazorpayXConfig, "accountNumber" | "queueIfLowBalance">,
): PayoutRequestBody {
  const paise = rupeesToPaise(withdrawal.payout_amount);
  if (paise === null || paise < 100) throw new Error(`Not a rupee amount RazorpayX pays: ${withdrawal.payout_amount}`);
  return {
    account_number: config.accountNumber,
    amount: paise,
    currency: "INR",
    mode: "UPI",
    purpose: "payout",
    fund_account: {
      account_type: "vpa",
      vpa: { address: withdrawal.recipient_upi },
      contact: { name: "Rewards member", type: "customer", reference_id: withdrawal.user_id },
    },
    queue_if_low_balance: config.queueIfLowBalance,
    reference_id: withdrawal.id,
    narration: "Rewards cash out",
  };
}

/** A payout entity as RazorpayX sends it (an answer, a webhook's payload.payout.entity), or null. */
export function payoutFromEntity(entity: unknown): RazorpayXPayout | null {
  if (!isObject(entity)) return null;
  const id = text(entity.id);
  const status = text(entity.status);
  if (!id || !status) return null;
  const details = isObject(entity.status_details) ? entity.status_details : {};
  return {
    id,
    status,
    utr: text(entity.utr),
    referenceId: text(entity.reference_id),
    reason: text(details.description) ?? text(entity.failure_reason),
  };
}

/** A validation entity (`fund_account.validation`), its result under `validation_results` or `results`. */
export function validationFromEntity(entity: unknown): UpiValidation | null {
  if (!isObject(entity)) return null;
  const id = text(entity.id);
  const status = text(entity.status);
  if (!id || !status) return null;
  const results = isObject(entity.validation_results)
    ? entity.validation_results
    : isObject(entity.results)
      ? entity.results
      : {};
  return { id, status, accountStatus: text(results.account_status), registeredName: text(results.registered_name) };
}

/**
 * Whether `signature` (X-Razorpay-Signature) is the hex HMAC-SHA256 of the body's exact bytes keyed
 * with the webhook secret, compared in constant time. False when it is missing or malformed.
 */
export function razorpayxSignatureValid(body: Uint8Array, signature: string | null, secret: string): boolean {
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = createHmac("sha256", secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(signature, "hex"));
}

function errorFromAnswer(status: number, payload: unknown, what: string): RazorpayXError {
  const error = isObject(payload) && isObject(payload.error) ? payload.error : {};
  const code = text(error.code) ?? `HTTP_${status}`;
  const description = text(error.description);
  const field = text(error.field);
  return new RazorpayXError(
    `${what}: RazorpayX ${status} ${code}${description ? `: ${description}` : ""}${field ? ` (${field})` : ""}`,
    status,
    code,
    field,
    description,
  );
}

export function createRazorpayXClient(config: RazorpayXConfig, options: RazorpayXClientOptions = {}) {
  const authorization = `Basic ${Buffer.from(`${config.keyId}:${config.keySecret}`).toString("base64")}`;
  const call = railCaller(
    withoutTrailingSlashes(config.apiUrl),
    authorization,
    options,
    (what, cause) =>
      new RazorpayXError(`${what}: RazorpayX could not be reached (${cause.message})`, null, "NETWORK_ERROR"),
  );

  /** One call with retries on network errors, 5xx and 429 (a payout's retry sends the same key and body). */
  async function send(
    what: string,
    method: "GET" | "POST",
    path: string,
    body?: string,
    headers?: Record<string, string>,
  ) {
    const answer = await call(what, method, path, body, headers);
    if (!answer.ok) throw errorFromAnswer(answer.status, answer.payload, what);
    return answer.payload;
  }

  function payoutOf(answer: unknown, what: string): RazorpayXPayout {
    const payout = payoutFromEntity(answer);
    if (!payout) throw new RazorpayXError(`${what}: RazorpayX's answer is not a payout`, 200, "UNEXPECTED_ANSWER");
    return payout;
  }

  return {
    /**
     * Creates the payout `body` describes with `idempotencyKey` (the withdrawal id): RazorpayX answers
     * every repeat of the key with the first answer, so a retry never pays twice.
     */
    async createPayout(idempotencyKey: string, body: PayoutRequestBody): Promise<RazorpayXPayout> {
      const what = `payout ${idempotencyKey}`;
      return payoutOf(
        await send(what, "POST", "/v1/payouts", JSON.stringify(body), { "X-Payout-Idempotency": idempotencyKey }),
        what,
      );
    },

    /**
     * Creates a contact and a `vpa` fund account and validates it in one call (the composite
     * validation), `referenceId` our withdrawal id. Not offered in test mode, and only for RazorpayX Lite.
     */
    async validateUpiId(address: string, referenceId: string, contactReference: string): Promise<UpiValidation> {
      const what = `validation of a UPI ID for ${referenceId}`;
      const answer = await send(
        what,
        "POST",
        "/v1/fund_accounts/validations",
        JSON.stringify({
          source_account_number: config.accountNumber,
          reference_id: referenceId,
          fund_account: {
            account_type: "vpa",
            vpa: { address },
            contact: { name: "Rewards member", type: "customer", reference_id: contactReference },
          },
        }),
      );
      const validation = validationFromEntity(answer);
      if (!validation)
        throw new RazorpayXError(`${what}: RazorpayX's answer is not a validation`, 200, "UNEXPECTED_ANSWER");
      return validation;
    },

    /** A validation read back by id, while it was `created`. */
    async getValidation(validationId: string): Promise<UpiValidation> {
      const what = `validation ${validationId}`;
      const validation = validationFromEntity(
        await send(what, "GET", `/v1/fund_accounts/validations/${encodeURIComponent(validationId)}`),
      );
      if (!validation)
        throw new RazorpayXError(`${what}: RazorpayX's answer is not a validation`, 200, "UNEXPECTED_ANSWER");
      return validation;
    },

    /** A payout read back by id (the reconciler's way to settle one whose webhook was lost). */
    async getPayout(payoutId: string): Promise<RazorpayXPayout> {
      const what = `payout ${payoutId}`;
      return payoutOf(await send(what, "GET", `/v1/payouts/${encodeURIComponent(payoutId)}`), what);
    },
  };
}

export type RazorpayXClient = ReturnType<typeof createRazorpayXClient>;

let processClient: { config: RazorpayXConfig; client: RazorpayXClient } | undefined;

/** The client for this process's configuration, or null when RazorpayX is not configured. */
export function getRazorpayXClient(): RazorpayXClient | null {
  const config = getEnv().razorpayx;
  if (!config) return null;
  if (processClient?.config !== config) processClient = { config, client: createRazorpayXClient(config) };
  return processClient.client;
}
