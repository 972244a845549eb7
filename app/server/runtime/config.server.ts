import type { InrRate } from "~/domain/rupees";
import { memoize } from "./cache.server";
import { getDatabase } from "../db/database.server";
import { subscribeToChannel } from "../db/live.server";

/** The constants the database enforces (app_config), as the UI shows them. */
export interface AppConfig {
  coins_per_dollar: number;
  checkin_coins: number;
  min_withdrawal: { paypal: number; upi: number; bank: number; giftcard: number };
  /** requires_earned: the friend's cleared earned money must reach qualifying_coins (docs/decisions/067). */
  referral: { reward: number; welcome_bonus: number; qualifying_coins: number; requires_earned: boolean };
  /** Bonus money waits for cleared offer earnings before it can be withdrawn (production settings). */
  bonus_locked_until_earned: boolean;
  /** Rupees per dollar for UPI, while a rate of the last seven days is in force (docs/decisions/087). */
  inr_rate: InrRate | null;
}

// The database announces every change of app_config (pg_notify('app_config')), which drops this
// copy at once; the lifetime only matters where the transport cannot listen (supabase-js).
const CONFIG_TTL_MS = 60 * 1000;
const config = memoize(CONFIG_TTL_MS, async () => {
  const db = await getDatabase();
  return db.rpc<AppConfig>("get_app_config");
});
let invalidation: Promise<unknown> | null = null;

export function getAppConfig(): Promise<AppConfig> {
  invalidation ??= subscribeToChannel("app_config", () => config.clear());
  return config.get();
}

/**
 * Drops this server's copy at once, after a change it made itself (the console's settings): the
 * next page it serves reads the new values without waiting for the database's announcement,
 * which reaches the other servers.
 */
export function forgetAppConfig(): void {
  config.clear();
}
