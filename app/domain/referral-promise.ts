// What a referral promises, in plain words (docs/decisions/074): the condition under the Refer
// banner and the invited friend's checklist on Home. A module of its own, so that Home does not
// carry Refer's texts. Pure and client-safe.

import { formatCoins, formatDollars } from "./money";

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

/** get_referral_status's `invited`: what a person who joined with a code is promised and how far they are, until it is paid. */
export interface Invitation {
  you_get: number;
  friend_gets: number;
  email_verified: boolean;
  requires_earned: boolean;
  progress: number;
  target: number;
}

export interface InvitationChecklist {
  headline: string;
  steps: InvitationStep[];
  note: string;
}

/** Home's checklist for a person who joined with a friend's code, until both bonuses are paid. */
export function invitationChecklist(invited: Invitation): InvitationChecklist {
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

/**
 * The share link's page (docs/decisions/096): what the invited person gets and how, from the
 * settings alone; nothing the person who shared the link chose (not their name) is shown.
 */
export function invitationLanding(terms: ReferralTerms): { promise: string; steps: string[]; note: string } {
  const work =
    terms.qualifyingEarned === null
      ? `Earn ${formatCoins(terms.qualifyingCoins)}`
      : `Earn ${formatDollars(terms.qualifyingEarned)} from offers (counted once the offer network's hold on it ends)`;
  return {
    promise:
      terms.welcomeBonus > 0
        ? `Join with this invitation: you get ${formatDollars(terms.welcomeBonus)}, and the friend who invited you gets ${formatDollars(terms.reward)}.`
        : `Join with this invitation: the friend who invited you gets ${formatDollars(terms.reward)}.`,
    steps: ["Create your account with this invitation", "Verify your email", work],
    note: "Both bonuses are paid together once every step is done. They are bonus money: they unlock for cash-out as your offer earnings clear.",
  };
}
