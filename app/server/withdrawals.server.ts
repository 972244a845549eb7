import type { PaymentMethod, WithdrawalRow } from "~/domain/withdrawals";
import { accountHash } from "./account-hash.server";
import { getDatabase } from "./db/database.server";
import { getEnv } from "./env.server";

export async function listWithdrawals(userId: string): Promise<WithdrawalRow[]> {
  const db = await getDatabase();
  return db.rpc<WithdrawalRow[]>("get_user_withdrawals", { p_user_id: userId });
}

export interface WithdrawalRequest {
  /** Exact text with two decimals ("5.25"), never a float. */
  amount: string;
  method: PaymentMethod;
  paypalEmail?: string;
  upiId?: string;
  bankDetails?: string;
}

/**
 * create_withdrawal (docs/product.md, "Withdraw: the rules"): the database checks the rules in the spec's order against the locked
 * balance and reserves the amount (pending) in one transaction. Only the chosen method's
 * recipient is sent.
 */
export async function requestWithdrawal(userId: string, request: WithdrawalRequest): Promise<WithdrawalRow> {
  const db = await getDatabase();
  // A textarea sends its line breaks as CR LF; they are kept (and hashed) as LF, as SQL keeps them.
  const bankDetails = request.bankDetails?.replace(/\r\n/g, "\n");
  const recipient =
    (request.method === "paypal" ? request.paypalEmail : request.method === "upi" ? request.upiId : bankDetails) ?? "";
  return db.rpc<WithdrawalRow>("create_withdrawal", {
    p_user_id: userId,
    amount_param: request.amount,
    payment_method_param: request.method,
    recipient_email_param: request.method === "paypal" ? (request.paypalEmail ?? null) : null,
    recipient_upi_param: request.method === "upi" ? (request.upiId ?? null) : null,
    recipient_bank_details_param: request.method === "bank" ? { details: bankDetails ?? "" } : null,
    // Kept after the account is deleted, so the payout review can match a returning address.
    p_recipient_hash: recipient.trim() ? accountHash(recipient) : null,
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
  return method === "paypal" ? env.paypal?.mode === "live" : true;
}
