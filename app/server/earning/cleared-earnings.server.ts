import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";
import { startIntervalWorker } from "../runtime/interval-worker.server";

/**
 * Writes an "Earnings cleared" notice for each person whose held offer earnings cleared since the
 * last sweep (notify_cleared_earnings, docs/decisions/086): how many it wrote.
 */
export async function notifyClearedEarnings(): Promise<number> {
  return (await getDatabase()).rpc<number>("notify_cleared_earnings", {});
}

/**
 * Every REFERRAL_SETTLE_INTERVAL_SECONDS (0: never), the interval at which servers act on
 * earnings that cleared (entry.server.tsx calls it once). Every instance may run it: one sweep
 * reads each clearing once.
 */
export function startClearedEarningsNotices(): void {
  startIntervalWorker(
    "cleared earnings",
    getEnv().referralSettleIntervalMs,
    async () => {
      const written = await notifyClearedEarnings();
      if (written > 0) console.info(`cleared earnings: told ${written} person(s) their earnings cleared`);
    },
    "could not write the cleared-earnings notices",
  );
}
