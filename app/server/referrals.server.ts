import { dbCall } from "./db/core.server";
import { getDatabase } from "./db/database.server";

export interface ReferralRow {
  id: number;
  created_at: string;
  display_name: string | null;
  username: string | null;
  /** Whether the reward has been paid (the friend qualified). */
  credited: boolean;
  amount: number;
}

/** The people the user referred, newest first (docs/product.md, "Refer": filtered by referrer). */
export function referralsCall(userId: string) {
  return dbCall<ReferralRow[]>("get_referrals", { p_user_id: userId });
}

/** Whether a (normalised) code belongs to someone: sign-up checks before an account is made. */
export async function referralCodeExists(code: string): Promise<boolean> {
  const db = await getDatabase();
  return (await db.rpc<{ exists: boolean }>("referral_code_exists", { p_code: code })).exists;
}
