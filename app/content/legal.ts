// Text of the /legal page: three tabs, each with five sections (the page numbers them).

import { LEGAL_HEADINGS, type LegalTabId } from "./legal-headings";

export type { LegalTabId } from "./legal-headings";

export interface LegalSection {
  title: string;
  paragraphs: string[];
}

export interface LegalDocument {
  id: LegalTabId;
  tab: string;
  title: string;
  updated: string;
  sections: LegalSection[];
}

const UPDATED = "November 22, 2026";

const TERMS: LegalDocument = {
  ...LEGAL_HEADINGS.terms,
  updated: UPDATED,
  sections: [
    {
      title: "Acceptance of these terms",
      paragraphs: [
        "By creating an account or using Rewards, you agree to these terms. If you don't agree, please don't use the app.",
        "You must be old enough to agree to these terms where you live, and old enough to use the offer providers whose tasks you take part in.",
      ],
    },
    {
      title: "Your account",
      paragraphs: [
        "You sign in with your email and password or with your Google account. Keep your login details private: you are responsible for what happens in your account.",
        "One account per person. Creating extra accounts, sharing an account, or using bots, scripts, VPNs or emulators to earn coins is not allowed.",
        "You can delete your account at any time from your Profile. We may suspend or close accounts that break these terms.",
      ],
    },
    {
      title: "Rewards and payouts",
      paragraphs: [
        "You earn coins by completing offers from third-party providers (surveys, videos, app installs, games), by the daily check-in bonus (10 coins), and by referring friends ($5 for each referred friend). Coins and balances have no cash value until they are withdrawn.",
        "You can withdraw to PayPal (minimum $5) or UPI (minimum $1). Every withdrawal is checked for fraud, and first cash-outs and unusual ones are reviewed by hand before anything is sent; a withdrawal is typically processed within 24-48 hours, and a review can take longer. Offer providers decide whether a task counts as completed, so a reward may arrive late or not at all.",
        "If we suspect fraud or abuse, we may withhold, reverse or cancel rewards, referral bonuses and payouts, including ones already credited, while we look into it or permanently.",
      ],
    },
    {
      title: "Limitation of liability",
      paragraphs: [
        "Rewards is provided as it is. We try to keep it running and accurate, but we can't promise it will always be available or free of errors.",
        "Offers are run by third parties. We are not responsible for their apps, websites, products or how they handle your data. As far as the law allows, our liability to you is limited to the balance in your account.",
      ],
    },
    {
      title: "Changes to these terms",
      paragraphs: [
        "We may update these terms as the app changes. The date at the top shows the latest version, and we will tell you in the app about important changes.",
        "If you keep using Rewards after a change, you accept the new terms. If you don't, you can withdraw your eligible balance and delete your account.",
      ],
    },
  ],
};

const PRIVACY: LegalDocument = {
  ...LEGAL_HEADINGS.privacy,
  updated: UPDATED,
  sections: [
    {
      title: "Data we collect",
      paragraphs: [
        "Account data: your email address, and your name and profile picture if you sign in with Google. Passwords and sign-in are handled by Firebase Authentication; we never see your password.",
        "Activity data: the offers you complete, coins earned, check-ins, referrals, leaderboard position and withdrawal history. For payouts we store the PayPal email or UPI ID you give us.",
        "Technical data: basic device and browser details and, if you turn on push notifications, a notification token.",
      ],
    },
    {
      title: "How we use your data",
      paragraphs: [
        "We use your data to run your account, credit rewards, process withdrawals, show the monthly leaderboard and send the notifications you asked for.",
        "We also use it to spot fraud, such as duplicate accounts or fake task completions, and to fix problems in the app.",
      ],
    },
    {
      title: "Sharing your data",
      paragraphs: [
        "We never sell your personal data. We share only what is needed: a user ID with offer providers so they can credit your tasks, your payout details with PayPal or UPI payment services, and data with the services that host the app (Firebase for sign-in and notifications, Supabase for our database).",
        "The leaderboard shows your display name and total earned for the month to other users. We may also share data when the law requires it.",
      ],
    },
    {
      title: "Your rights",
      paragraphs: [
        "You can ask us for a copy of your data, ask us to correct it, or ask us to delete it. Contact our support team and we'll reply within 30 days.",
        "Deleting your account from your Profile removes your account and personal data: your profile, sign-in, activity, settings, devices and feedback. We keep the records of money that moved (earnings and withdrawals), no longer linked to you, for as long as the law or fraud checks require. Your email address, payout addresses, device and network area are kept only as one-way coded fingerprints, so that we can recognise an address used for fraud before and give each person the one-time rewards only once; they cannot be turned back into the addresses.",
      ],
    },
    {
      title: "Security",
      paragraphs: [
        "Your data is stored in a Postgres database hosted by Supabase and sent over encrypted connections. Access is limited to the people and services that need it.",
        "No system is perfectly secure. Use a strong password, and tell us straight away if you think someone else has used your account.",
      ],
    },
  ],
};

const COOKIES: LegalDocument = {
  ...LEGAL_HEADINGS.cookies,
  updated: UPDATED,
  sections: [
    {
      title: "Types of cookies",
      paragraphs: [
        "Cookies are small text files that a website stores in your browser. Rewards uses only essential cookies, which the app needs to work, and one preference cookie that remembers a choice you made.",
        "We do not set advertising or tracking cookies ourselves.",
      ],
    },
    {
      title: "How we use cookies",
      paragraphs: [
        "Session cookie: keeps you signed in for up to 14 days. It is HttpOnly, so scripts on the page cannot read it.",
        'Flash-message cookie: carries a short message, like "Withdrawal requested", to the next page, then expires right away.',
        "hasSeenOnboarding: remembers that you have seen the intro slides, so they are not shown again.",
        "Device cookie: a random number, HttpOnly, that lets us recognise accounts made on the same browser, to keep rewards fair. We keep only a one-way coded fingerprint of it with your account.",
      ],
    },
    {
      title: "Managing cookies",
      paragraphs: [
        "You can view and delete cookies in your browser settings. If you block or delete the session cookie, you will be signed out and need to sign in again.",
        "Deleting hasSeenOnboarding only means you will see the intro slides again.",
      ],
    },
    {
      title: "Third-party cookies",
      paragraphs: [
        "When you open an offer, the offer provider's page may set its own cookies, for example to track whether you finished the task. Those cookies are controlled by the provider and covered by its own policy, not this one.",
        "Google may set cookies during Google sign-in, under Google's own policy.",
      ],
    },
    {
      title: "Changes to this policy",
      paragraphs: ["If we add or change cookies, we will update this policy and the date at the top of it."],
    },
  ],
};

export const LEGAL_DOCUMENTS: readonly LegalDocument[] = [TERMS, PRIVACY, COOKIES];

// Unknown or missing id falls back to the terms tab.
export function findLegalDocument(id: string | null | undefined): LegalDocument {
  return LEGAL_DOCUMENTS.find((doc) => doc.id === id) ?? TERMS;
}
