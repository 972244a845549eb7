import { defaultDisplayName } from "~/domain/display-name";
import type { MoneyParts } from "~/domain/money";
import { bonusState, type MoneyState } from "~/domain/money-timeline";
import { identityHash } from "./account-hash.server";
import type { SessionUser } from "../auth/session.server";
import { dbCall } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { read } from "../db/reads.server";

export interface UserSummary {
  id: string;
  email: string | null;
  email_verified: boolean;
  display_name: string;
  username: string | null;
  referral_code: string;
  preferences: { is_active?: boolean; display_name?: string };
  created_at: string;
  balance: number;
  total_earned: number;
  /** Dollars credited for referrals: rewards as a referrer and the welcome bonus as a friend. */
  referral_earned: number;
  /** What can be withdrawn now (money_available, docs/decisions/066). */
  available: number;
  /** Offer earnings still in their hold. */
  pending: number;
  /** When the next pending amount clears (ISO), null when nothing is pending. */
  next_clear_at: string | null;
  /** Bonus money not yet unlocked by cleared offer earnings. */
  bonus_locked: number;
  /** Cleared offer earnings still needed to unlock all of it; null: it never unlocks (ratio 0). */
  earned_to_unlock: number | null;
  /** Owed from an earlier account of the same email, not yet paid by offer earnings (decision 078). */
  carried_debt: number;
  /** An operator paused this account's cash-outs (docs/decisions/068). */
  payouts_paused: boolean;
}

/**
 * First sign-in: profile, balance of 0 and default notification preferences. Idempotent. A
 * referral code applies only when the profile is made here (else it is ignored); an unknown one
 * is refused (`invalid_referral_code`) and nothing is made. An email whose identity (its
 * canonical form, docs/decisions/064) belongs to another live account is refused
 * (`email_identity_taken`) and nothing is made.
 */
export async function provisionUser(identity: {
  uid: string;
  email?: string | null;
  displayName?: string | null;
  referralCode?: string | null;
  emailVerified?: boolean;
}) {
  const db = await getDatabase();
  return db.rpc<UserSummary>("provision_user", {
    p_user_id: identity.uid,
    p_email: identity.email ?? null,
    p_display_name: defaultDisplayName(identity.displayName, identity.email),
    p_referral_code: identity.referralCode ?? null,
    p_email_verified: identity.emailVerified ?? false,
    p_identity_hash: identityHash(identity.email),
  });
}

/** Whether a live account has this email's identity under another of its aliases. */
export async function identityTaken(email: string): Promise<boolean> {
  const hash = identityHash(email);
  if (!hash) return false;
  const db = await getDatabase();
  return db.rpc<boolean>("identity_taken", { p_identity_hash: hash, p_email: email });
}

export function userSummaryCall(userId: string) {
  return dbCall<UserSummary | null>("get_user_summary", { p_user_id: userId });
}

/**
 * The signed-in user's summary (`summary`: its read, if already under way with the page's other
 * reads); a user without a profile (made before provisioning) gets one now.
 */
export async function loadUserSummary(
  user: SessionUser,
  summary: Promise<UserSummary | null> = read(userSummaryCall(user.uid)),
): Promise<UserSummary> {
  return withMoneyParts(
    (await summary) ?? (await provisionUser({ uid: user.uid, email: user.email, displayName: user.name })),
  );
}

/**
 * The money fields as numbers and the clearing time as ISO, whatever the transport made of the
 * jsonb (Postgres writes "2026-12-03 10:00:00.123456+00"); an account without a balance row has
 * none of them, and nothing to withdraw.
 */
function withMoneyParts(summary: UserSummary): UserSummary {
  const amount = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));
  return {
    ...summary,
    available: amount(summary.available),
    pending: amount(summary.pending),
    next_clear_at: summary.next_clear_at ? new Date(summary.next_clear_at).toISOString() : null,
    bonus_locked: amount(summary.bonus_locked),
    earned_to_unlock: summary.earned_to_unlock === null ? null : amount(summary.earned_to_unlock),
    carried_debt: amount(summary.carried_debt),
  };
}

/** The balance card's figures (Home and Withdraw). */
export function moneyParts(summary: UserSummary): MoneyParts {
  return {
    balance: summary.balance,
    available: summary.available,
    pending: summary.pending,
    nextClearAt: summary.next_clear_at,
    bonusLocked: summary.bonus_locked,
    earnedToUnlock: summary.earned_to_unlock,
    carriedDebt: summary.carried_debt,
  };
}

/**
 * Where bonus money just credited to the person is (money-timeline.ts): locked while any of their
 * bonus is, since the newest bonus is the last to unlock. Null when it cannot be read: the toast
 * then names no state rather than guess one.
 */
export async function creditedBonusState(userId: string): Promise<MoneyState | null> {
  try {
    const money = await read(
      dbCall<{ bonus_locked: number | string } | null>("money_available", { p_user_id: userId }),
    );
    return money ? bonusState(Number(money.bonus_locked) > 0) : null;
  } catch (error) {
    console.error("money state failed to load:", error instanceof Response ? `HTTP ${error.status}` : error);
    return null;
  }
}
