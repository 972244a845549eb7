import type { Invitation } from "~/domain/referral-promise";
import { dbCall } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";
import { startIntervalWorker } from "../runtime/interval-worker.server";

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

export interface ReferralStatus {
  /** As a referrer: the friends who joined and whose bonus is not paid yet, and what it will be. */
  pending_count: number;
  pending_amount: number;
  /** As the friend: null when the account joined without a code, and once the bonuses are paid. */
  invited: Invitation | null;
}

/** Home's referral parts: the pending bonus beside the earned one, and the invited person's steps. */
export function referralStatusCall(userId: string) {
  return dbCall<ReferralStatus>("get_referral_status", { p_user_id: userId });
}

/** Whether a (normalised) code belongs to someone: sign-up checks before an account is made. */
export async function referralCodeExists(code: string): Promise<boolean> {
  const db = await getDatabase();
  return (await db.rpc<{ exists: boolean }>("referral_code_exists", { p_code: code })).exists;
}

interface SettleResult {
  credited: number;
  skipped: number;
}

// Referrals credited per call of the worker's loop.
const SETTLE_BATCH = 200;

/** Credits every qualifying referral, a batch at a time, until a batch credits none. */
async function settleAll(): Promise<number> {
  const db = await getDatabase();
  let total = 0;
  for (;;) {
    const { credited } = await db.rpc<SettleResult>("credit_cleared_referrals", { p_limit: SETTLE_BATCH });
    total += credited;
    // A batch of held candidates only (skipped) is left to whoever holds them, or the next run.
    if (credited < SETTLE_BATCH) return total;
  }
}

/**
 * Every REFERRAL_SETTLE_INTERVAL_SECONDS (0: never), credits the referrals whose friend's earnings
 * have cleared (entry.server.tsx calls it once). Every instance may run it: the database credits
 * each referral once.
 */
export function startReferralSettlement(): void {
  startIntervalWorker(
    "referrals",
    getEnv().referralSettleIntervalMs,
    async () => {
      const credited = await settleAll();
      if (credited > 0) console.info(`referrals: credited ${credited} referral(s) whose earnings cleared`);
    },
    "could not credit cleared referrals",
  );
}
