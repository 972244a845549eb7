import { formatDollars } from "~/domain/money";
import { PROCESSING_HOURS, type PaymentMethod } from "~/domain/withdrawals";

// Help & Support (docs/product.md, "Profile: help and support"): the FAQ, its four answers as the spec states them. They differ from
// the Withdraw screen (24-48 hours, per-method minimums); the spec keeps both, and so do we, with the app's own
// truth beside them (issue 36, "When money arrives"): the minimums as configured, and where the person's own
// cash-out is expected.
export interface FaqEntry {
  question: string;
  answer: string;
  /** What holds in this app, said after the spec's answer. */
  inApp?: string;
  link?: { to: string; label: string };
}

export function faqEntries(minimums: Record<PaymentMethod, number> | null): FaqEntry[] {
  return [
    {
      question: "How do I earn?",
      answer: "Complete tasks in the Earn section, refer friends with your referral code, and check in every day.",
    },
    {
      question: "How do I withdraw my earnings?",
      answer: "Go to Withdraw, enter the amount and your payment details. The minimum withdrawal is $5.",
      ...(minimums
        ? {
            inApp: `In this app the minimum depends on the method: PayPal ${formatDollars(minimums.paypal)}, UPI ${formatDollars(minimums.upi)}.`,
          }
        : {}),
    },
    {
      question: "When will I get paid?",
      answer: "Payments are made within 3-5 business days.",
      inApp: `In this app a cash-out is usually paid within ${PROCESSING_HOURS} hours of the request; a first cash-out is reviewed first, which can take longer.`,
      link: { to: "/withdraw?history=1", label: "See when yours is expected" },
    },
    {
      question: "Is there a limit to how much I can earn?",
      answer: "No, there is no limit to how much you can earn.",
    },
  ];
}
