import { LEADERBOARD_SIZE } from "~/domain/constants";
import { memoize } from "./cache.server";
import { getDatabase } from "./db/database.server";
import { getEnv } from "./env.server";

export interface LeaderboardEntry {
  rank: number;
  username: string;
  total_earned: number;
  is_current_user: boolean;
}

// docs/product.md, "Leaderboard: the rules": the leaderboard is refreshed every 15 minutes (LEADERBOARD_REFRESH_SECONDS); one
// cached copy serves everyone.
const leaderboard = memoize(
  () => getEnv().leaderboardRefreshMs,
  async () => {
    const db = await getDatabase();
    return db.rpc<(Omit<LeaderboardEntry, "is_current_user"> & { user_id: string })[]>("get_leaderboard", {
      p_limit: LEADERBOARD_SIZE,
    });
  },
);

/** This month's top earners, the signed-in user's row marked; no user ids leave the server. */
export async function getLeaderboard(userId: string, limit = LEADERBOARD_SIZE): Promise<LeaderboardEntry[]> {
  const rows = await leaderboard.get();
  return rows.slice(0, limit).map(({ user_id, ...row }) => ({ ...row, is_current_user: user_id === userId }));
}
