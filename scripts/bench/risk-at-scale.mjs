// @ts-check
// The `risk` part of `npm run bench` (scripts/bench/run.mjs): withdrawal_risk timed by
// scripts/bench/risk.mjs on the database at scale (by default 1,000,000 users and 20,000,000 ledger
// rows), which scripts/bench/context.mjs seeds once for this part, the console and the throughput at
// scale. Not in risk.mjs: context.mjs imports risk.mjs (seedRisk), so this would be an import cycle there.
import { BUDGETS } from "./budgets.ts";
import { figureOf } from "./context.mjs";
import { describe, measureRisk } from "./risk.mjs";

/**
 * @param {import("./context.mjs").Bench} bench
 * @param {import("./context.mjs").Shared} shared
 */
export async function benchRisk({ settings, log, part, figures, details }, { scale, seededAtScale }) {
  const group = `Withdrawal risk, ${scale}`;
  const label = "withdrawal_risk p95, in the database";
  /** @returns {import("./context.mjs").Unmeasured[]} */
  const unmeasured = () => [{ group, label, unit: "ms", budget: { limit: BUDGETS.riskP95Ms, kind: "max" } }];
  await part("withdrawal risk at scale", unmeasured, async () => {
    const { url, seeded } = await seededAtScale();
    const result = await measureRisk({ url, users: settings.riskUsers, ledgerRows: settings.riskLedgerRows, seeded });
    details.risk = result;
    log(describe(result));
    figures.push({
      ...figureOf(unmeasured, label),
      label: `withdrawal_risk p95 over ${result.runs} accounts, in ${result.database}`,
      // Only plans that read no seeded table whole count.
      value: result.fromIndex ? result.p95 : null,
      error: result.fromIndex ? undefined : `Seq Scan on ${result.seqScans.join(", ")} (see bench-results.json)`,
      detail:
        `median ${result.median.toFixed(2)} ms, max ${result.max.toFixed(2)} ms (${result.slowest}); round trip p95 ` +
        `${result.roundTrip.p95.toFixed(2)} ms; seeded in ${result.seedSeconds.toFixed(0)} s; every statement from an index`,
    });
  });
}
