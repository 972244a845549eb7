export type OnboardingIcon = "tasks" | "referrals" | "withdraw";

export interface OnboardingSlide {
  icon: OnboardingIcon;
  title: string;
  description: string;
}

export const ONBOARDING_SLIDES: readonly OnboardingSlide[] = [
  {
    icon: "tasks",
    title: "Complete Tasks, Earn Rewards",
    description: "Take surveys, watch videos and complete offers to earn real money.",
  },
  {
    icon: "referrals",
    title: "Refer Friends, Multiply Earnings",
    description: "Invite your friends and earn a bonus for every friend that joins.",
  },
  {
    icon: "withdraw",
    // The spec's title; the description says what holds here (issue 36, docs/decisions/080): PayPal
    // and UPI are the methods offered, and a cash-out usually arrives within 48 hours, the first
    // after a review.
    title: "Withdraw to PayPal Instantly",
    description: "Cash out your earnings via PayPal or UPI, usually within 48 hours of your request.",
  },
];
