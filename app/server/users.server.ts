import { defaultDisplayName } from "~/domain/display-name";
import { identityHash } from "./account-hash.server";
import type { SessionUser } from "./auth/session.server";
import { dbCall } from "./db/core.server";
import { getDatabase } from "./db/database.server";
import { read } from "./db/reads.server";

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
  return (await summary) ?? provisionUser({ uid: user.uid, email: user.email, displayName: user.name });
}
