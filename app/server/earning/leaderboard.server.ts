import { LEADERBOARD_COUNTED_RANKS, LEADERBOARD_SIZE } from "~/domain/constants";
import { memoize } from "../runtime/cache.server";
import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";

export interface LeaderboardEntry {
  rank: number;
  username: string;
  total_earned: number;
  is_current_user: boolean;
}

// docs/product.md, "Leaderboard: the rules": the leaderboard is refreshed every 15 minutes (LEADERBOARD_REFRESH_SECONDS); one
// cached copy serves everyone, with the time it was computed ("Updated 5 minutes ago").
const leaderboard = memoize(
  () => getEnv().leaderboardRefreshMs,
  async () => {
    const db = await getDatabase();
    const rows = await db.rpc<(Omit<LeaderboardEntry, "is_current_user"> & { user_id: string })[]>("get_leaderboard", {
      p_limit: LEADERBOARD_SIZE,
    });
    return { rows, computedAt: Date.now() };
  },
);

/** A person's own row below the board; `rank` is null beyond LEADERBOARD_COUNTED_RANKS ("1,000+"). */
type LeaderboardPosition = Omit<LeaderboardEntry, "rank"> & { rank: number | null };

// Live, not kept: the count of the people ahead stops at LEADERBOARD_COUNTED_RANKS index entries
// (under a millisecond at a million earners, docs/benchmarks.md), so a person who just earned
// finds themselves at once.
async function position(userId: string): Promise<Omit<LeaderboardPosition, "is_current_user"> | null> {
  const db = await getDatabase();
  return db.rpc("get_leaderboard_position", { p_user_id: userId, p_within: LEADERBOARD_COUNTED_RANKS });
}

/** This month's top earners, the signed-in user's row marked; no user ids leave the server. */
export async function getLeaderboard(userId: string, limit = LEADERBOARD_SIZE): Promise<LeaderboardEntry[]> {
  const { rows } = await leaderboard.get();
  const top = rows.slice(0, limit).map(({ user_id, ...row }) => ({ ...row, is_current_user: user_id === userId }));
  if (top.length > 0) return top;
  // The board was computed before anyone earned this month (it is kept for minutes): a person who
  // has earned since sees their own row, as the Leaderboard page shows it, not "No data available".
  const own = await position(userId);
  return own && own.rank !== null ? [{ ...own, rank: own.rank, is_current_user: true }] : [];
}

/**
 * The leaderboard page: the board, how many whole minutes ago it was computed, and the signed-in
 * person's own place when they earned this month but are not on the board (else null).
 */
export async function getLeaderboardPage(
  userId: string,
  now = Date.now(),
): Promise<{ rows: LeaderboardEntry[]; updatedMinutesAgo: number; own: LeaderboardPosition | null }> {
  const { rows, computedAt } = await leaderboard.get();
  const board = rows.map(({ user_id, ...row }) => ({ ...row, is_current_user: user_id === userId }));
  const own = board.some((row) => row.is_current_user) ? null : await position(userId);
  return {
    rows: board,
    updatedMinutesAgo: Math.max(0, Math.floor((now - computedAt) / 60_000)),
    own: own ? { ...own, is_current_user: true } : null,
  };
}
