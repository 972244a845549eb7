import type { DashboardData } from "~/domain/operator-dashboard";
import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";
import { startIntervalWorker } from "../runtime/interval-worker.server";

/**
 * The console's dashboard (docs/operator-console.md, "Dashboard"), read from the counters the
 * database keeps beside every write (migration 20261202350000) in one call, which checks the role.
 */
export async function readDashboard(operatorId: string): Promise<DashboardData> {
  const db = await getDatabase();
  return db.rpc<DashboardData>("operator_dashboard", { p_operator_id: operatorId });
}

/**
 * Every DASHBOARD_FOLD_INTERVAL_SECONDS (0: never), merges the counter rows each database connection
 * wrote into one row per figure and day (entry.server.tsx calls it once). Every instance may run it:
 * the database lets one fold run at a time, and a fold never changes a figure.
 */
export function startDashboardFold(): void {
  startIntervalWorker(
    "dashboard",
    getEnv().dashboardFoldIntervalMs,
    async () => {
      const db = await getDatabase();
      await db.rpc<number>("fold_dashboard_counts");
    },
    "could not fold the dashboard's counters",
  );
}
