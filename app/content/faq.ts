// Help & Support (docs/product.md, "Profile: help and support"): the FAQ, its four answers as the spec states them. They differ from
// the Withdraw screen (24-48 hours, per-method minimums); the spec keeps both, and so do we.
export const FAQ: readonly { question: string; answer: string }[] = [
  {
    question: "How do I earn?",
    answer: "Complete tasks in the Earn section, refer friends with your referral code, and check in every day.",
  },
  {
    question: "How do I withdraw my earnings?",
    answer: "Go to Withdraw, enter the amount and your payment details. The minimum withdrawal is $5.",
  },
  {
    question: "When will I get paid?",
    answer: "Payments are made within 3-5 business days.",
  },
  {
    question: "Is there a limit to how much I can earn?",
    answer: "No, there is no limit to how much you can earn.",
  },
];
