// The budgets of `npm run bench` (issue 10) and how a measured figure is judged against them.
// Kept apart from the measuring so that the judging is tested on its own
// (tests/unit/bench-budgets.test.ts) and a saved run can be judged again (`--evaluate`).

export const BUDGETS = {
  /** JavaScript a page downloads before any interaction, gzip, in KB (1 KB = 1024 bytes). */
  javascriptKb: 92,
  /** A signed-in page's requests per second, in % of /legal's on the same server in the same run. */
  throughputShare: 60,
  /** Home's share (as throughputShare): the page every visit starts on. */
  homeThroughputShare: 65,
  /** Lighthouse (mobile) scores, median of the runs. */
  lighthouse: { performance: 98, accessibility: 100, "best-practices": 100, seo: 100 },
  /** get_leaderboard with 1,000,000 users who earned this month: p95 in ms, read from an index. */
  leaderboardP95Ms: 5,
  /** withdrawal_risk (run by every withdrawal) with 1,000,000 users and 20,000,000 ledger rows: p95 in ms, from indexes. */
  riskP95Ms: 20,
  /**
   * rewards_status (read by every Home visit: the level from XP and today's three goals) with 1,000,000
   * users and 20,000,000 ledger rows: p95 in ms inside the database, every statement from an index.
   */
  rewardsP95Ms: 20,
  /**
   * Monthly prizes (docs/decisions/097) with 1,000,000 users, each with offer money cleared this month
   * and last, and 20,000,000 ledger rows: leaderboard_prizes (read by every Leaderboard visit) and
   * close_prize_month (the month-end job: places, risk scores, payments), p95 in ms inside the
   * database, every statement from an index.
   */
  prizeStandingP95Ms: 20,
  prizeCloseP95Ms: 200,
  /**
   * The operator console with 1,000,000 users and 20,000,000 ledger rows (issue 20), p95 in ms inside
   * the database, every statement from an index: the dashboard (operator_dashboard), the people
   * search (operator_find_people), the review queue (operator_withdrawal_list 'review') and the
   * queues' counts (operator_withdrawal_counts).
   */
  consoleDashboardP95Ms: 50,
  consolePeopleSearchP95Ms: 50,
  consoleReviewQueueP95Ms: 50,
  consoleQueueCountsP95Ms: 50,
  /**
   * A signed-in page with the app on that 1,000,000-user database, against the 10,000-user one, the
   * two servers taking turns (docs/decisions/108): its share of /legal's throughput there at least
   * its page's budget (throughputShare, homeThroughputShare), and its CPU time per request (the app
   * and Postgres) at most this many % above the 10,000-user one's: the page reads by index, so its
   * cost does not grow with the number of people.
   */
  scaleCpuPerRequestGrowthPercent: 15,
  /**
   * Signed postbacks from a mix of networks taken by one production server on Postgres, per second,
   * in % of /healthz's requests per second on the same server in the same run (the median over the
   * rounds of each turn of postbacks against the /healthz turns either side): a ratio, so that the
   * code is judged and not the machine.
   */
  ingestShareOfHealthz: 90,
  /** ... and their p99 latency, in times /healthz's p99 in the same turns. */
  ingestP99TimesHealthz: 1.5,
  /** ... with no answer but 2xx and no connection error. */
  ingestFailures: 0,
  /** ... every credit and reversal recorded once, each moving money once, each request logged once. */
  ingestNotExactlyOnce: 0,
  /** ... and every balance equal to its ledger afterwards (verify_all_balances). */
  ingestAuditFindings: 0,
  /**
   * Two app servers through PgBouncer in transaction mode against one straight on Postgres, the same
   * pages in the same run (issue 21): CPU time per request (the apps, Postgres and PgBouncer) at most
   * this many % above direct's. Two cores cannot show scaling out; this is its cost.
   */
  poolerCpuOverheadPercent: 10,
  /**
   * UPI cash-outs paid by RazorpayX (issue 37): 1,000 approved withdrawals through the local
   * RazorpayX, payouts made per second by one server (it keeps to RazorpayX's pace: 8 a second at most)...
   */
  payoutsPerSecond: 6,
  /** ... the signed webhooks' p99 in ms (each delivered twice, 20 at a time)... */
  payoutWebhookP99Ms: 250,
  /** ... every withdrawal paid by one payout and settled once, with one notice... */
  payoutsNotExactlyOnce: 0,
  /** ... and every balance equal to its ledger afterwards. */
  payoutAuditFindings: 0,
  /** `npm run dev` on a cold checkout: seconds to the first 200 on /. */
  devFirst200Seconds: 20,
} as const;

export const JAVASCRIPT_PAGES = [
  "/auth",
  "/",
  "/earn",
  "/leaderboard",
  "/withdraw",
  "/referral",
  "/profile",
  "/levels",
];
export const THROUGHPUT_BASELINE = "/legal";
export const THROUGHPUT_PAGES = ["/", "/earn", "/leaderboard", "/withdraw", "/referral", "/profile"];
export const LIGHTHOUSE_PAGES = ["/auth", "/", "/earn", "/withdraw", "/profile"];

export interface Budget {
  limit: number;
  /** "max": the figure must be at most the limit; "min": at least. */
  kind: "max" | "min";
}

/** One measured figure. `value` null: it could not be measured (`error` says why), which fails its budget. */
export interface Figure {
  group: string;
  label: string;
  value: number | null;
  unit: "KB" | "%" | "ms" | "s" | "req/s" | "postbacks/s" | "points" | "×" | "";
  budget?: Budget;
  /** Shown beside the figure: what it was measured from (req/s, p99, the plan). */
  detail?: string;
  error?: string;
}

export type Result = "PASS" | "FAIL" | "INFO";
export type JudgedFigure = Figure & { result: Result };

export function judge(figure: Figure): JudgedFigure {
  if (!figure.budget) return { ...figure, result: "INFO" };
  const { limit, kind } = figure.budget;
  const { value } = figure;
  const pass = value !== null && Number.isFinite(value) && (kind === "max" ? value <= limit : value >= limit);
  return { ...figure, result: pass ? "PASS" : "FAIL" };
}

/** 0 when every budgeted figure passed; 1 when one failed, or when nothing was judged at all. */
export function exitCode(figures: readonly JudgedFigure[]): 0 | 1 {
  const budgeted = figures.filter((figure) => figure.result !== "INFO");
  return budgeted.length > 0 && budgeted.every((figure) => figure.result === "PASS") ? 0 : 1;
}

function format(value: number | null, unit: Figure["unit"]): string {
  if (value === null || !Number.isFinite(value)) return "—";
  const digits = unit === "KB" || unit === "s" || unit === "points" ? 1 : unit === "ms" || unit === "×" ? 2 : 0;
  const number = value.toFixed(digits);
  return unit === "%" ? `${number} %` : unit ? `${number} ${unit}` : number;
}

function formatBudget(figure: Figure): string {
  if (!figure.budget) return "";
  return `${figure.budget.kind === "max" ? "≤" : "≥"} ${format(figure.budget.limit, figure.unit)}`;
}

/** The table `npm run bench` prints: one line per figure under its group's heading. */
export function formatTable(figures: readonly JudgedFigure[]): string {
  const rows = figures.map((figure) => ({
    group: figure.group,
    cells: [
      `  ${figure.label}`,
      format(figure.value, figure.unit),
      formatBudget(figure),
      figure.result === "INFO" ? "" : figure.result,
      figure.error ? `error: ${figure.error}` : (figure.detail ?? ""),
    ],
  }));
  const header = ["Figure", "Measured", "Budget", "Result", "Details"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row.cells[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd();
  const out = [line(header), widths.map((width) => "─".repeat(width)).join("  ")];
  let group: string | undefined;
  for (const row of rows) {
    if (row.group !== group) out.push((group = row.group));
    out.push(line(row.cells));
  }
  const failed = figures.filter((figure) => figure.result === "FAIL").length;
  const passed = figures.filter((figure) => figure.result === "PASS").length;
  out.push("", `${passed} within budget, ${failed} over budget`);
  return out.join("\n");
}
