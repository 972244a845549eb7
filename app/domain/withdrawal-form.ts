// The withdrawal form's schema: run by the server (the page posts plain HTML, with or without
// JavaScript). Spec §5 order: a valid amount first; balance, minimum and recipient follow in SQL,
// which is the one place that can check them against the locked balance.
import { enum as oneOf, literal, object, optional, pipe, string, transform } from "zod/mini";
import { parseAmount } from "./withdrawals";

const INVALID_AMOUNT = "Please enter a valid amount";

export const withdrawalFormSchema = object({
  intent: literal("withdraw"),
  amount: pipe(
    optional(string()),
    transform((value, ctx) => {
      const amount = parseAmount(value);
      if (amount === null) ctx.issues.push({ code: "custom", message: INVALID_AMOUNT, input: value });
      return amount ?? "";
    }),
  ),
  method: oneOf(["paypal", "upi", "bank"], "Please choose a payment method"),
  paypalEmail: optional(string()),
  upiId: optional(string()),
  bankDetails: optional(string()),
});

export const sendVerificationFormSchema = object({ intent: literal("send-verification") });
