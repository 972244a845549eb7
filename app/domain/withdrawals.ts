// Withdrawals (docs/product.md, "Withdraw" and "Withdraw: the rules"): methods, the amount rule, statuses. Pure and
// client-safe; the form's schema lives in routes/withdraw/withdrawal-form.ts so the page does not ship zod.

import { formatDay, type TimeZone } from "./dates";
import { formatRupees } from "./rupees";
import { formatDollars } from "./money";
import { asSentence } from "./text";

export type PaymentMethod = "paypal" | "upi" | "bank" | "giftcard";

/** docs/product.md, "Withdraw: fields": the selector offers PayPal and UPI; bank exists (with its minimum) but is not offered. */
export const OFFERED_METHODS = ["paypal", "upi"] as const satisfies readonly PaymentMethod[];

export const METHOD_LABELS: Record<PaymentMethod, string> = {
  paypal: "PayPal",
  upi: "UPI (India)",
  bank: "Bank transfer",
  giftcard: "Gift card",
};

/** The short name used in history tables and messages. */
export const METHOD_NAMES: Record<PaymentMethod, string> = {
  paypal: "PayPal",
  upi: "UPI",
  bank: "Bank",
  giftcard: "Gift card",
};

export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return value === "paypal" || value === "upi" || value === "bank" || value === "giftcard";
}

/** The withdrawal form's fields, as the browser posts them. */
export interface WithdrawalFields {
  intent: "withdraw";
  amount: string;
  method: PaymentMethod;
  paypalEmail: string;
  upiId: string;
  bankDetails: string;
  /** The gift card chosen (a Tremendous product id): its value is checked against the catalogue in SQL. */
  giftcardProduct: string;
}

/**
 * Where a review of a cash-out is asked for (docs/decisions/090): paused cash-outs, or the id of a
 * withdrawal refused at review. Here, not with support, so that Withdraw's code does not carry the
 * support conversation's.
 */
export const APPEAL_OF_PAUSED = "paused";

/** The flash once a review is asked for: where it is followed. */
export const APPEAL_SENT = {
  kind: "success",
  title: "Review requested",
  description: "We will answer here, in Help & Support. You can add to it until it is resolved.",
} as const;

export const UPI_ID_HINT = "For example name@okhdfcbank or 9876543210@ybl";

export const WITHDRAWAL_MESSAGES = {
  // docs/product.md, "Withdraw" and "Withdraw: messages", word for word.
  processingNotice: "Withdrawals are typically processed within 24-48 hours.",
  submitted: "Withdrawal request submitted successfully",
  failed: "Failed to process withdrawal",
  tryLater: "Please try again later",
  noHistory: "No withdrawal history yet",
  // The app's own truth beside the spec's "24-48 hours", when it applies (issue 36).
  reviewedFirst: "Your first cash-out is reviewed first, which can take longer.",
} as const;

export function withdrawalInitiated(amount: string): string {
  return `Your $${amount} withdrawal has been initiated.`;
}

/**
 * The withdrawal toast's second sentence: where the request is now (money-timeline.ts), so that
 * "initiated" is not read as "sent".
 */
export function withdrawalRequestState(row: Pick<WithdrawalRow, "review_state" | "payment_method">): string {
  if (row.review_state === "review")
    return "It is in review: we check first cash-outs and unusual ones by hand before anything is sent.";
  return row.payment_method === "giftcard"
    ? "It is being ordered: the card is emailed to your verified address."
    : `It is sending: on its way to your ${METHOD_NAMES[row.payment_method]} account.`;
}

/**
 * docs/product.md, "Withdraw: the rules": digits with an optional decimal point and at most two decimals, more than 0, and
 * within numeric(12,2). Only ASCII digits: "٥", "1e3", "-5", "5.001" and 400 digits are not
 * amounts. Returns the amount as exact text ("5.25"), or null.
 */
export function parseAmount(input: string | undefined | null): string | null {
  const text = (input ?? "").trim();
  const match = /^(\d{0,10})(?:\.(\d{0,2}))?$/.exec(text);
  if (!match || (!match[1] && !match[2])) return null;
  const whole = (match[1] || "0").replace(/^0+(?=\d)/, "");
  const cents = (match[2] ?? "").padEnd(2, "0");
  if (whole.length > 10 || (whole === "0" && cents === "00")) return null;
  return `${whole}.${cents}`;
}

/** The offered method with the smallest minimum, and that minimum: the first cash-out possible. */
function smallestCashOut(minimums: Record<PaymentMethod, number>): [PaymentMethod, number] {
  return OFFERED_METHODS.map((method): [PaymentMethod, number] => [method, minimums[method]]).sort(
    ([, a], [, b]) => a - b,
  )[0]!;
}

const toCents = (amount: number) => Math.round(amount * 100);

/**
 * Home's card, while no cash-out is possible yet: "$0.85 more to cash out with UPI", or, when the
 * offer earnings still pending cover it, that waiting is enough. Null once a cash-out is possible,
 * or while the balance is negative (the notice says why then). Withdraw says the day
 * (cashOutWait).
 */
export function cashOutHint(
  money: { available: number; pending: number },
  minimums: Record<PaymentMethod, number>,
): string | null {
  if (money.available < 0) return null;
  const [method, minimum] = smallestCashOut(minimums);
  const missingCents = toCents(minimum) - toCents(money.available);
  if (missingCents <= 0) return null;
  const pendingCents = Math.max(toCents(money.pending), 0);
  if (pendingCents >= missingCents)
    return `You can cash out with ${METHOD_NAMES[method]} once your pending earnings clear`;
  return `${formatDollars((missingCents - pendingCents) / 100)} more to cash out with ${METHOD_NAMES[method]}`;
}

/** cash_out_outlook: what is missing to the smallest minimum offered, and when enough pending money clears to cover it. */
export interface CashOutOutlook {
  missing: number;
  enough_clears_at: string | null;
}

/**
 * Withdraw, while no cash-out is possible (issue 36): what to do, said before anything is typed.
 * "Wait until Dec 5" when offer earnings in their hold cover the missing amount by then; else
 * "Earn $1.00 more", counting what is pending. Null once a cash-out is possible.
 */
export function cashOutWait(
  outlook: CashOutOutlook,
  money: { available: number; pending: number },
  minimums: Record<PaymentMethod, number>,
  zone?: TimeZone,
): { title: string; detail: string } | null {
  const missingCents = toCents(Number(outlook.missing));
  if (!(missingCents > 0)) return null;
  const [method, minimum] = smallestCashOut(minimums);
  const need = `${METHOD_NAMES[method]}'s minimum is ${formatDollars(minimum)} and you have ${formatDollars(Math.max(money.available, 0))} available`;
  if (outlook.enough_clears_at) {
    return {
      title: `Wait until ${formatDay(outlook.enough_clears_at, zone)}`,
      detail: `${need}. Your offer earnings still pending clear by then, enough to cash out.`,
    };
  }
  const pendingCents = Math.max(toCents(money.pending), 0);
  return {
    title: `Earn ${formatDollars((missingCents - pendingCents) / 100)} more`,
    detail:
      pendingCents > 0
        ? `${need}; your ${formatDollars(pendingCents / 100)} pending counts once it clears.`
        : `${need}.`,
  };
}

/** What the amount field accepts (HTML `pattern`): the form of parseAmount, before the server checks the rest. */
export const AMOUNT_PATTERN = "[0-9]{0,10}([.][0-9]{0,2})?";

/**
 * The amount as it is typed, held to the form parseAmount accepts (docs/product.md, "Withdraw: the
 * rules"): ASCII digits and one point, at most ten digits before it and two after. "12.345" stays
 * "12.34", "1a2" becomes "12", ",5" becomes "5". One pass, no pattern that can backtrack.
 */
export function holdAmountInput(typed: string): string {
  let whole = "";
  let cents = "";
  let point = false;
  for (const character of typed) {
    if (character === "." && !point) point = true;
    else if (character >= "0" && character <= "9") {
      if (!point && whole.length < 10) whole += character;
      else if (point && cents.length < 2) cents += character;
    }
  }
  return point ? `${whole}.${cents}` : whole;
}

/** A withdrawal as the history sheet shows it (docs/product.md, "Data model": id, created_at, amount, payment_method, status). */
export interface WithdrawalRow {
  id: string;
  created_at: string;
  amount: number;
  payment_method: PaymentMethod;
  status: string;
  /** Where it is on its way (docs/decisions/068): waiting for review, approved, or refused. */
  review_state?: "review" | "approved" | "rejected";
  sent_at?: string | null;
  settled_at?: string | null;
  failure_reason?: string | null;
  /** Where it went, masked by the server (maskRecipient): "j•••@example.com". */
  recipient?: string;
  /** A pending one's "Expected by Nov 26" (withdrawalExpected), null once settled. */
  expected?: string | null;
  /** What is sent in the rail's own money, fixed when asked for (UPI: INR; docs/decisions/087). */
  payout_currency?: string | null;
  payout_amount?: number | string | null;
  /** Once paid, the payment's reference: the UTR a bank statement shows (UPI), PayPal's payout item. */
  reference?: string | null;
  /** A gift card's name, as chosen ("Amazon.com"). */
  giftcard_name?: string | null;
}

/** "Bank reference (UTR) 4011…": where to find a paid withdrawal in the person's own statement. */
export function referenceLine(row: WithdrawalRow): string | null {
  if (row.status !== "completed" || !row.reference) return null;
  if (row.payment_method === "upi") return `Bank reference (UTR) ${row.reference}`;
  return row.payment_method === "giftcard" ? `Tremendous order ${row.reference}` : `Reference ${row.reference}`;
}

/**
 * A UPI withdrawal's rupees, as fixed when it was asked for: "₹415.20 sent" once paid, "₹415.20 to
 * be sent" while on its way; nothing for one refused (nothing was sent) or paid in dollars.
 */
export function rupeesLine(row: WithdrawalRow): string | null {
  if (row.payout_currency !== "INR" || row.payout_amount == null || row.status === "failed") return null;
  const rupees = formatRupees(Number(row.payout_amount));
  if (row.payment_method === "giftcard") return `A ${rupees} card`;
  return row.status === "completed" ? `${rupees} sent` : `${rupees} to be sent`;
}

/**
 * What a withdrawal's state (its badge, money-timeline.ts) means, in plain words under it (issue 18,
 * item 3): who has it now, or why it came back. Never the name of another state.
 */
export function withdrawalStepMeaning(row: WithdrawalRow): string | null {
  const method = METHOD_NAMES[row.payment_method] ?? "the payment service";
  if (row.payment_method === "giftcard") return giftCardStepMeaning(row);
  if (row.status === "completed") return `The money went to your ${method} account.`;
  if (row.status === "failed") {
    const why = asSentence(row.failure_reason);
    return row.review_state === "rejected"
      ? `We did not send it${why ? `: ${why}` : "."} The money is back in your balance.`
      : `${method} could not pay it${why ? `: ${why}` : "."} The money is back in your balance.`;
  }
  if (row.status !== "pending") return null;
  if (row.review_state === "review") {
    return "We check first cash-outs and unusual ones by hand before anything is sent.";
  }
  return row.sent_at
    ? `We sent it; ${method} is confirming the payment.`
    : `We are sending it to your ${method} account.`;
}

/** withdrawalStepMeaning for a gift card: it is ordered, then emailed; a refusal says why. */
function giftCardStepMeaning(row: WithdrawalRow): string | null {
  const card = row.giftcard_name ? `${row.giftcard_name} gift card` : "gift card";
  if (row.status === "completed") return `Your ${card} was emailed to your verified address.`;
  if (row.status === "failed") {
    const why = asSentence(row.failure_reason);
    const refused = row.review_state === "rejected" ? "We did not order it" : "It could not be delivered";
    return `${refused}${why ? `: ${why}` : "."} The money is back in your balance.`;
  }
  if (row.status !== "pending") return null;
  if (row.review_state === "review")
    return "We check first cash-outs and unusual ones by hand before anything is sent.";
  return row.sent_at ? `We ordered your ${card}; it is on its way to your email.` : `We are ordering your ${card}.`;
}

/** docs/product.md, "Withdraw": "Withdrawals are typically processed within 24-48 hours." */
export const PROCESSING_HOURS = 48;

/**
 * When a pending withdrawal should arrive, from its request and the 48 hours the notice promises:
 * "Expected by Nov 26"; a review can take longer, and one past that day says it is late. Null once
 * it is paid or failed. The day is the person's (`zone`).
 */
export function withdrawalExpected(
  row: Pick<WithdrawalRow, "created_at" | "status" | "review_state">,
  now: Date,
  zone?: TimeZone,
) {
  if (row.status !== "pending") return null;
  const due = new Date(new Date(row.created_at).getTime() + PROCESSING_HOURS * 60 * 60 * 1000);
  const late = now.getTime() > due.getTime();
  const day = formatDay(due.toISOString(), zone);
  if (row.review_state === "review") {
    return late
      ? `Expected by ${day}; this review is taking longer, your money is safe.`
      : `Expected by ${day}; a review can take longer.`;
  }
  return late ? `Expected by ${day}; it is taking longer than usual, your money is safe.` : `Expected by ${day}`;
}

const MASK = "•••";

/**
 * Where a withdrawal went, masked for the history: "j•••@example.com" (PayPal), "ab•••@upi" (UPI),
 * "•••1234" (bank details: their last four letters or digits). Enough for the person to recognise
 * their own address, never the whole of it; the mask's length says nothing of the address's.
 */
export function maskRecipient(method: PaymentMethod, recipient: string | null | undefined): string | null {
  const text = (recipient ?? "").trim();
  if (!text) return null;
  if (method === "bank") {
    const tail = text.replace(/[^0-9A-Za-z]/g, "").slice(-4);
    return tail.length === 4 ? `${MASK}${tail}` : MASK;
  }
  const at = text.lastIndexOf("@");
  const name = at === -1 ? text : text.slice(0, at);
  const domain = at === -1 ? "" : text.slice(at);
  // PayPal shows one character of the name; a UPI handle two (often a phone number: never more).
  const shown = Array.from(name).slice(0, method === "upi" ? 2 : 1);
  if (shown.length >= Array.from(name).length) shown.pop();
  return `${shown.join("")}${MASK}${domain}`;
}
