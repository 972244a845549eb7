import type { TimeZone } from "~/domain/dates";
import {
  isPaymentMethod,
  maskRecipient,
  withdrawalExpected,
  type PaymentMethod,
  type CashOutOutlook,
  type WithdrawalRow,
} from "~/domain/withdrawals";
import type { GiftCard } from "~/domain/giftcards";
import { accountHash } from "../account/account-hash.server";
import { dbCall } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";

/** A withdrawal as the database returns it to this module: with its whole recipient. */
type StoredWithdrawal = Omit<WithdrawalRow, "recipient" | "expected"> & { recipient: string | null };

export function withdrawalsCall(userId: string) {
  return dbCall<StoredWithdrawal[]>("get_user_withdrawals", { p_user_id: userId });
}

/**
 * The history's rows: the recipient masked here ("j•••@example.com"), so the whole
 * address never reaches the page, and a pending one's expected date (the person's day, `zone`).
 */
export async function historyRows(
  rows: Promise<StoredWithdrawal[] | null>,
  zone: TimeZone,
  now = new Date(),
): Promise<WithdrawalRow[]> {
  return ((await rows) ?? []).map(({ recipient, ...row }) => ({
    ...row,
    recipient: maskRecipient(row.payment_method, recipient) ?? undefined,
    expected: withdrawalExpected(row, now, zone),
  }));
}

/** The form's starting method and recipient: those of the last withdrawal (PayPal, UPI, or the gift card chosen). */
export interface LastRecipient {
  method: "paypal" | "upi" | "giftcard";
  recipient: string;
}

export function lastRecipientCall(userId: string) {
  return dbCall<{ payment_method: string; recipient: string | null } | null>("get_last_withdrawal_recipient", {
    p_user_id: userId,
  });
}

/** What is missing to the first possible cash-out, and when pending money covers it (Withdraw's notice). */
export function cashOutOutlookCall(userId: string) {
  return dbCall<CashOutOutlook>("cash_out_outlook", { p_user_id: userId });
}

/** Whether the person's next cash-out waits for review as a first one (review on, nothing paid yet). */
export function reviewedFirstCall(userId: string) {
  return dbCall<boolean>("cash_out_reviewed_first", { p_user_id: userId });
}

export async function lastRecipient(
  read: Promise<{ payment_method: string; recipient: string | null } | null>,
): Promise<LastRecipient | null> {
  const last = await read;
  // Bank is not offered in the selector (docs/product.md, "Withdraw: fields"): it is not prefilled.
  if (!last?.recipient || !isPaymentMethod(last.payment_method) || last.payment_method === "bank") return null;
  return { method: last.payment_method, recipient: last.recipient };
}

export interface WithdrawalRequest {
  /** Exact text with two decimals ("5.25"), never a float. */
  amount: string;
  method: PaymentMethod;
  paypalEmail?: string;
  upiId?: string;
  bankDetails?: string;
  giftcardProduct?: string;
}

/**
 * The keyed hash of where a withdrawal sends the money (its chosen method's recipient), or null when
 * none is given: what the payout review matches, and what a code by email confirms (decision 092).
 */
export function recipientHashOf(request: WithdrawalRequest, accountEmail: string | null): string | null {
  // A textarea sends its line breaks as CR LF; they are kept (and hashed) as LF, as SQL keeps them.
  // A gift card goes to the account's verified address (create_withdrawal reads it): hashed as it is.
  const recipient =
    (request.method === "paypal"
      ? request.paypalEmail
      : request.method === "upi"
        ? request.upiId
        : request.method === "giftcard"
          ? accountEmail
          : request.bankDetails?.replace(/\r\n/g, "\n")) ?? "";
  return recipient.trim() ? accountHash(recipient) : null;
}

/**
 * create_withdrawal (docs/product.md, "Withdraw: the rules"): the database checks the rules in the spec's order against the locked
 * balance and reserves the amount (pending) in one transaction. Only the chosen method's
 * recipient is sent.
 */
export async function requestWithdrawal(
  userId: string,
  request: WithdrawalRequest,
  accountEmail: string | null,
): Promise<WithdrawalRow> {
  const db = await getDatabase();
  const bankDetails = request.bankDetails?.replace(/\r\n/g, "\n");
  return db.rpc<WithdrawalRow>("create_withdrawal", {
    p_user_id: userId,
    amount_param: request.amount,
    payment_method_param: request.method,
    recipient_email_param: request.method === "paypal" ? (request.paypalEmail ?? null) : null,
    recipient_upi_param: request.method === "upi" ? (request.upiId ?? null) : null,
    recipient_bank_details_param: request.method === "bank" ? { details: bankDetails ?? "" } : null,
    // Kept after the account is deleted, so the payout review can match a returning address.
    p_recipient_hash: recipientHashOf(request, accountEmail),
    p_giftcard_product_id: request.method === "giftcard" ? (request.giftcardProduct ?? null) : null,
  });
}

/**
 * Whether this method's money really moves: in production, PayPal with live credentials (the
 * Payouts API pays it), UPI and bank (the operator pays them by hand). Anything else is a test
 * ("(TEST MODE)" on the success message, docs/product.md, "Withdraw: messages").
 */
export function paysRealMoney(method: PaymentMethod): boolean {
  const env = getEnv();
  if (!env.isProduction) return false;
  if (method === "giftcard") return env.tremendous?.live === true;
  return method === "paypal" ? env.paypal?.mode === "live" : true;
}

/**
 * The gift cards Withdraw offers in `country`, read with the page's other reads; null (no read) while
 * Tremendous is not configured.
 */
export function giftCardsCall(country: string) {
  return getEnv().tremendous ? dbCall<GiftCard[]>("giftcard_catalogue", { p_country: country }) : null;
}
