// Refer & Earn (docs/product.md, "Refer", "Refer: the rules" and "Refer: messages"): names, the share
// texts and what a referral promises (docs/decisions/074). Pure and client-safe.

import { formatCoins, formatDollars } from "./money";

export const REFERRAL_MESSAGES = {
  // docs/product.md, "Refer" and "Refer: messages", word for word.
  banner: "Share your code and earn $5 for each friend who joins",
  loading: "Loading referrals...",
  empty: "No referrals yet. Start sharing your code!",
  loadFailed: "Could not load referrals, please try again later",
  copied: "Referral code copied to clipboard!",
  copyFailed: "Failed to copy referral code",
  shared: "Thanks for sharing!",
  copiedForManualShare: "Referral code copied! You can now share it manually",
  shareFailed: "Failed to share referral code",
  noCode: "No referral code available to share",
} as const;

/** docs/product.md, "Refer: the rules": display name, else username, else "Unknown User". */
export function referralName(row: { display_name: string | null; username: string | null }): string {
  return row.display_name?.trim() || row.username?.trim() || "Unknown User";
}

/** "Joined today", "Joined 1 day ago", "Joined 12 days ago". */
export function joinedLabel(days: number): string {
  if (days <= 0) return "Joined today";
  return `Joined ${days} ${days === 1 ? "day" : "days"} ago`;
}

export function shareText(code: string, link: string): string {
  return `Join me on Rewards and earn coins for surveys, videos and games. Use my referral code ${code}: ${link}`;
}

/**
 * Plain links that share the code without any script (docs/product.md, "Refer"): an email, a
 * WhatsApp message and a text message, each holding shareText.
 */
export function shareLinks(code: string, link: string): { label: string; href: string }[] {
  const text = encodeURIComponent(shareText(code, link));
  return [
    { label: "Email", href: `mailto:?subject=${encodeURIComponent("Join me on Rewards")}&body=${text}` },
    { label: "WhatsApp", href: `https://wa.me/?text=${text}` },
    // "?&body=" is read by both Android and iOS messaging apps.
    { label: "SMS", href: `sms:?&body=${text}` },
  ];
}

/** What the friend must do, as the settings say: cleared offer earnings (dollars) or coins of any kind. */
export interface ReferralTerms {
  reward: number;
  welcomeBonus: number;
  qualifyingCoins: number;
  /** Dollars of offer earnings that must have cleared; null: qualifyingCoins of any kind count. */
  qualifyingEarned: number | null;
}

function qualifyingWork(terms: ReferralTerms): string {
  return terms.qualifyingEarned === null
    ? `earns ${formatCoins(terms.qualifyingCoins)}`
    : `earns ${formatDollars(terms.qualifyingEarned)} from offers (counted once the offer network's hold on it ends)`;
}

/** The condition under the banner, in plain words: "You get $5.00 once your friend verifies …". */
export function referralCondition(terms: ReferralTerms): string {
  const friend = terms.welcomeBonus > 0 ? ` Your friend gets ${formatDollars(terms.welcomeBonus)} too.` : "";
  return `You get ${formatDollars(terms.reward)} once your friend verifies their email and ${qualifyingWork(terms)}.${friend}`;
}

export interface InvitationStep {
  label: string;
  done: boolean;
  detail?: string;
}

/** get_referral_status's `invited`: what a person who joined with a code is promised and how far they are. */
export interface Invitation {
  credited: boolean;
  you_get: number;
  friend_gets: number;
  email_verified: boolean;
  requires_earned: boolean;
  progress: number;
  target: number;
}

/** Home's checklist for a person who joined with a friend's code, until both bonuses are paid. */
export function invitationChecklist(invited: Invitation): { headline: string; steps: InvitationStep[]; note: string } {
  const earned = Math.min(invited.progress, invited.target);
  const work: InvitationStep = invited.requires_earned
    ? {
        label: `Earn ${formatDollars(invited.target)} from offers`,
        done: invited.progress >= invited.target,
        detail: `${formatDollars(earned)} of ${formatDollars(invited.target)} so far. Offer earnings count once their hold ends.`,
      }
    : {
        label: `Earn ${formatCoins(invited.target)}`,
        done: invited.progress >= invited.target,
        detail: `${formatCoins(earned)} of ${formatCoins(invited.target)} so far, from check-ins and tasks.`,
      };
  const steps = [
    { label: "Create your account", done: true },
    { label: "Verify your email", done: invited.email_verified },
    work,
  ];
  return {
    headline: `You get ${formatDollars(invited.you_get)} and your friend gets ${formatDollars(invited.friend_gets)} when you finish these steps.`,
    steps,
    note: steps.every((step) => step.done)
      ? "All done: both bonuses arrive within a few minutes."
      : "Both bonuses are paid together, once every step is done.",
  };
}
