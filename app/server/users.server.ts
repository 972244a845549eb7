import { defaultDisplayName } from "~/domain/display-name";
import { getDatabase } from "./db/database.server";

export interface UserSummary {
  id: string;
  email: string | null;
  display_name: string;
  username: string | null;
  referral_code: string;
  preferences: { is_active?: boolean; referral_bonus?: number | string; display_name?: string };
  created_at: string;
  balance: number;
  total_earned: number;
}

/** First sign-in: profile, balance of 0 and default notification preferences. Idempotent. */
export async function provisionUser(identity: { uid: string; email?: string | null; displayName?: string | null }) {
  const db = await getDatabase();
  return db.rpc<UserSummary>("provision_user", {
    p_user_id: identity.uid,
    p_email: identity.email ?? null,
    p_display_name: defaultDisplayName(identity.displayName, identity.email),
  });
}

export async function getUserSummary(userId: string): Promise<UserSummary | null> {
  const db = await getDatabase();
  return db.rpc<UserSummary | null>("get_user_summary", { p_user_id: userId });
}
