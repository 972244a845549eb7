// The withdrawal form's schema: run by the server (the page posts plain HTML, with or without
// JavaScript). The order of docs/product.md, "Withdraw: the rules": a valid amount first; the available
// amount (docs/decisions/066), minimum and recipient follow in SQL, the one place that can check them
// under the balance row's lock.
import {
  discriminatedUnion,
  enum as oneOf,
  literal,
  object,
  optional,
  pipe,
  string,
  superRefine,
  transform,
} from "zod/mini";
import { EMAIL_CODE_FIELD } from "~/domain/email-codes";
import { hasHiddenCharacters } from "~/domain/hidden-characters";
import { ruleMessage } from "~/domain/rules";
import { ticketAnswerProblem } from "~/domain/support-forms";
import { sendVerificationFormSchema } from "~/domain/verification-form";
import { parseAmount } from "~/domain/withdrawals";

const INVALID_AMOUNT = "Please enter a valid amount";

/** The form field that holds each method's recipient. */
export const RECIPIENT_FIELDS = {
  paypal: "paypalEmail",
  upi: "upiId",
  bank: "bankDetails",
  giftcard: "giftcardProduct",
} as const;

/**
 * Whether a recipient holds a character create_withdrawal refuses (hidden-characters.ts). Bank
 * details come from a textarea, whose line breaks (sent as CR LF) are kept as line breaks.
 */
function recipientHasHiddenCharacters(method: keyof typeof RECIPIENT_FIELDS, recipient: string): boolean {
  return hasHiddenCharacters(method === "bank" ? recipient.replace(/\r?\n/g, "") : recipient);
}

/**
 * The withdrawal's fields under one of its intents: "withdraw" (the form), and the code step's
 * "withdraw-code" (the values again, with the code from the email) and "withdraw-resend"
 * (docs/decisions/092).
 */
const withdrawalForm = <Intent extends "withdraw" | "withdraw-code" | "withdraw-resend">(intent: Intent) =>
  object({
    intent: literal(intent),
    [EMAIL_CODE_FIELD]: optional(string()),
    amount: pipe(
      optional(string()),
      transform((value, ctx) => {
        const amount = parseAmount(value);
        if (amount === null) ctx.issues.push({ code: "custom", message: INVALID_AMOUNT, input: value });
        return amount ?? "";
      }),
    ),
    method: oneOf(["paypal", "upi", "bank", "giftcard"], "Please choose a payment method"),
    paypalEmail: optional(string()),
    upiId: optional(string()),
    bankDetails: optional(string()),
    giftcardProduct: optional(string()),
  }).check(
    // The chosen method's recipient only: the others are not sent to the database. Runs once the
    // amount is valid (the order of docs/product.md, "Withdraw: the rules").
    superRefine((value, ctx) => {
      const field = RECIPIENT_FIELDS[value.method];
      const recipient = value[field];
      if (recipient && recipientHasHiddenCharacters(value.method, recipient)) {
        ctx.addIssue({
          code: "custom",
          message: ruleMessage("recipient_hidden_characters"),
          path: [field],
          input: recipient,
        });
      }
    }),
  );

export const withdrawalFormSchema = withdrawalForm("withdraw");

/**
 * "Ask for a review" (docs/decisions/090): of paused cash-outs (`appealOf` "paused") or of a
 * withdrawal refused at review (its id); submit_appeal decides what may be appealed. The message
 * follows a ticket answer's rules, as it starts a support conversation.
 */
export const appealFormSchema = object({
  intent: literal("appeal"),
  appealOf: pipe(
    optional(string()),
    transform((value) => (value ?? "").trim()),
  ),
  message: pipe(
    optional(string()),
    transform((value, ctx) => {
      // Browsers send a textarea's line breaks as CRLF.
      const message = (value ?? "").replaceAll("\r\n", "\n").trim();
      const problem = ticketAnswerProblem(message);
      if (problem) ctx.issues.push({ code: "custom", message: ruleMessage(problem), input: value });
      return message;
    }),
  ),
});

/** Withdraw's forms, read by its action: the withdrawal, "Send verification email" and "Ask for a review". */
export const withdrawFormsSchema = discriminatedUnion("intent", [
  withdrawalFormSchema,
  withdrawalForm("withdraw-code"),
  withdrawalForm("withdraw-resend"),
  sendVerificationFormSchema,
  appealFormSchema,
]);
