import { LEADERBOARD_SIZE } from "~/domain/constants";
import { memoize } from "./cache.server";
import { getDatabase } from "./db.server";
import { getEnv } from "./env.server";

export interface CheckinStatus {
  today: string;
  checked_in_today: boolean;
  recent_dates: string[];
}

export interface LeaderboardEntry {
  rank: number;
  username: string;
  total_earned: number;
  is_current_user: boolean;
}

export async function getCheckinStatus(userId: string): Promise<CheckinStatus> {
  const db = await getDatabase();
  return db.rpc<CheckinStatus>("get_checkin_status", { p_user_id: userId });
}

/** Spec §4 check-in: 10 coins once per day; a repeat raises "Already checked in today!". */
export async function checkIn(userId: string) {
  const db = await getDatabase();
  return db.rpc<{ coins: number; amount: number; balance: number }>("daily_checkin", { p_user_id: userId });
}

const RATE_TTL_MS = 5 * 60 * 1000;
const coinRate = memoize(RATE_TTL_MS, async () => {
  const db = await getDatabase();
  return (await db.rpc<{ coins_per_dollar: number }>("get_app_config")).coins_per_dollar;
});

/** Coins per dollar, as the database converts them. */
export function getCoinsPerDollar(): Promise<number> {
  return coinRate.get();
}

// Spec §9: the leaderboard is refreshed every 15 minutes (LEADERBOARD_REFRESH_SECONDS); one
// cached copy serves everyone.
const leaderboard = memoize(() => getEnv().leaderboardRefreshMs, async () => {
  const db = await getDatabase();
  return db.rpc<(Omit<LeaderboardEntry, "is_current_user"> & { user_id: string })[]>("get_leaderboard", {
    p_limit: LEADERBOARD_SIZE,
  });
});

/** This month's top earners, the signed-in user's row marked; no user ids leave the server. */
export async function getLeaderboard(userId: string, limit = LEADERBOARD_SIZE): Promise<LeaderboardEntry[]> {
  const rows = await leaderboard.get();
  return rows.slice(0, limit).map(({ user_id, ...row }) => ({ ...row, is_current_user: user_id === userId }));
}

export function clearLeaderboardCache() {
  leaderboard.clear();
}
