import type { LeaderboardPrizes } from "~/domain/prizes";
import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";
import { startIntervalWorker } from "../runtime/interval-worker.server";

/**
 * The Leaderboard's prizes for one person (leaderboard_prizes, docs/decisions/097): the table, their
 * place by offer money cleared this month and what the next prize takes, and past winners. Live, not
 * cached: every figure is read from an index.
 */
export async function getLeaderboardPrizes(userId: string): Promise<LeaderboardPrizes> {
  return (await getDatabase()).rpc<LeaderboardPrizes>("leaderboard_prizes", { p_user_id: userId });
}

interface PrizeClose {
  closed: boolean;
  reason?: string;
  month?: string;
  outcome?: string;
  awards?: number;
  paid?: number;
  held?: number;
}

/** Settles last month's prizes if no server has yet (close_prize_month): what the database answered. */
export async function closeLastMonthsPrizes(): Promise<PrizeClose> {
  return (await getDatabase()).rpc<PrizeClose>("close_prize_month", {});
}

/**
 * Every PRIZE_CLOSE_INTERVAL_SECONDS (0: never; entry.server.tsx calls it once). Every instance may
 * run it: the database settles a month once and answers "already closed" to the others.
 */
export function startPrizeClose(): void {
  startIntervalWorker(
    "monthly prizes",
    getEnv().prizeCloseIntervalMs,
    async () => {
      const result = await closeLastMonthsPrizes();
      if (result.closed) {
        console.info(
          `monthly prizes: ${result.month} settled (${result.outcome}): ${result.paid} paid, ${result.held} held for review`,
        );
      }
    },
    "could not settle last month's prizes",
  );
}
