// @ts-check
// UPI cash-outs paid by RazorpayX (issue 37, docs/decisions/088): 1,000 approved UPI withdrawals,
// rupees fixed, paid by one production server on Postgres through the local RazorpayX of the tests
// (tests/support/razorpayx.ts, bundled), 5 % of its first answers failing (a 5xx, or a payout made
// and its answer lost); then every payout processed and its signed webhook delivered twice, 20 at a
// time. Printed: payouts per second (the server keeps to RazorpayX's pace of under 10 a second), the
// webhooks' p99, every withdrawal paid exactly once (one payout, one settlement, one notice), and
// the ledger audit. benchPayouts is the `payouts` part of `npm run bench` (scripts/bench/run.mjs).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import pg from "pg";
import { openPostgres } from "../lib/database.mjs";
import { BUDGETS } from "./budgets.ts";

const WITHDRAWALS = 1_000;
const FAILING_SHARE = 0.05;
const WEBHOOK_CONCURRENCY = 20;
const RATE = 83.25;

/** @typedef {import("./context.mjs").Unmeasured} Unmeasured */

/**
 * The tests' RazorpayX stand-in, bundled into `workDir` (its imports are written for the test runner).
 * @param {string} workDir
 * @returns {Promise<typeof import("../../tests/support/razorpayx.ts")>}
 */
async function loadStandIn(workDir) {
  const outfile = path.join(workDir, "razorpayx-stand-in.mjs");
  await build({
    entryPoints: ["tests/support/razorpayx.ts"],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    logLevel: "warning",
  });
  return import(pathToFileURL(outfile).href);
}

/**
 * 1,000 people with money and one approved UPI withdrawal each, in rupees, made by create_withdrawal.
 * @param {import("../lib/database.mjs").BenchDatabase} db
 */
async function seedWithdrawals(db) {
  await db.query("select apply_demo_settings()");
  await db.query(
    "select apply_app_config_patch(jsonb_build_object('usd_inr_rate', $1::numeric), 'bench', null, 'bench')",
    [RATE],
  );
  await db.query(
    `select provision_user('payout-' || i, 'payout-' || i || '@example.com', 'Payee ' || i, null, true)
       from generate_series(1, $1::int) i`,
    [WITHDRAWALS],
  );
  await db.query(
    `select add_user_coins('payout-' || i, 500), record_email_verified('payout-' || i)
       from generate_series(1, $1::int) i`,
    [WITHDRAWALS],
  );
  for (let i = 1; i <= WITHDRAWALS; i++) {
    await db.query("select create_withdrawal($1, 2, 'upi', null, $2)", [`payout-${i}`, `payee${i}@okaxis`]);
  }
  const [counts] = await db.query(
    `select count(*) filter (where review_state = 'approved' and payout_currency = 'INR')::int as ready from withdrawals`,
  );
  if (counts?.ready !== WITHDRAWALS) throw new Error(`${counts?.ready} withdrawals ready to pay, not ${WITHDRAWALS}`);
}

/** @param {number[]} values @param {number} share */
const percentile = (values, share) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
};

/**
 * @param {import("./context.mjs").Bench} bench
 * @param {import("./context.mjs").Shared} shared
 */
export async function benchPayouts({ log, part, figures, details, workDir }, { databaseOfItsOwn, withApp }) {
  const group = `UPI payouts through a local RazorpayX on Postgres, ${WITHDRAWALS.toLocaleString("en")} withdrawals, one server`;
  /** @returns {Unmeasured[]} */
  const unmeasured = () => [
    {
      group,
      label: "payouts made per second",
      unit: "req/s",
      budget: { limit: BUDGETS.payoutsPerSecond, kind: "min" },
    },
    { group, label: "webhook p99 latency", unit: "ms", budget: { limit: BUDGETS.payoutWebhookP99Ms, kind: "max" } },
    {
      group,
      label: "withdrawals not paid exactly once",
      unit: "",
      budget: { limit: BUDGETS.payoutsNotExactlyOnce, kind: "max" },
    },
    {
      group,
      label: "ledger audit findings afterwards",
      unit: "",
      budget: { limit: BUDGETS.payoutAuditFindings, kind: "max" },
    },
  ];
  await part("UPI payouts through RazorpayX", unmeasured, async () => {
    const databaseUrl = await databaseOfItsOwn("payouts");
    const db = await openPostgres(databaseUrl);
    try {
      await seedWithdrawals(db);
    } finally {
      await db.close();
    }
    const { startRazorpayXStandIn } = await loadStandIn(workDir);
    const razorpayx = await startRazorpayXStandIn();
    const failing = Math.round(WITHDRAWALS * FAILING_SHARE);
    razorpayx.failNext(Math.ceil(failing / 2), "http500", /^\/v1\/payouts$/);
    razorpayx.failNext(Math.floor(failing / 2), "made-then-drop", /^\/v1\/payouts$/);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await withApp(
        "Postgres (payouts)",
        {
          DATABASE_URL: databaseUrl,
          ...razorpayx.env,
          RAZORPAYX_INTERVAL_SECONDS: "1",
          RAZORPAYX_SETTLE_AFTER_MINUTES: "60",
        },
        async (app) => {
          const started = Date.now();
          const sentCount = async () =>
            (await client.query("select count(*)::int as n from withdrawals where sent_at is not null")).rows[0].n;
          for (let sent = await sentCount(); sent < WITHDRAWALS; sent = await sentCount()) {
            if (Date.now() - started > 600_000) throw new Error(`only ${sent} payouts made in 10 minutes`);
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
          const seconds = (Date.now() - started) / 1000;
          const perSecond = WITHDRAWALS / seconds;
          log(`  ${WITHDRAWALS} payouts made in ${seconds.toFixed(1)} s: ${perSecond.toFixed(1)} a second`);

          // Every payout processed; each webhook delivered twice, 20 at a time.
          const { rows } = await client.query("select id from withdrawals");
          const deliveries = rows.flatMap((row) => {
            const [payout] = razorpayx.payoutsFor(row.id);
            if (!payout) throw new Error(`no payout for ${row.id}`);
            const processed = razorpayx.advance(payout.id, "processed");
            return [processed, processed];
          });
          /** @type {number[]} */
          const latencies = [];
          let failed = 0;
          let next = 0;
          await Promise.all(
            Array.from({ length: WEBHOOK_CONCURRENCY }, async () => {
              while (next < deliveries.length) {
                const payout = /** @type {(typeof deliveries)[number]} */ (deliveries[next++]);
                const begun = performance.now();
                const answer = await razorpayx.deliver(app.url, "payout.processed", payout);
                latencies.push(performance.now() - begun);
                if (answer.status !== 200) failed++;
              }
            }),
          );
          const p99 = percentile(latencies, 0.99);
          log(
            `  ${deliveries.length} webhooks: p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, ${failed} not 200`,
          );

          // Exactly once: one payout a withdrawal, each paid once with one notice; the ledger audit.
          const [check] = (
            await client.query(`
              select (select count(*) from withdrawals where status <> 'completed')::int as unpaid,
                     (select count(*) from (select user_id from user_notices where kind = 'withdrawal_completed'
                                             group by user_id having count(*) <> 1) n)::int as notices_not_once,
                     (select count(*) from user_notices where kind = 'withdrawal_completed')::int as notices,
                     (select count(*) from withdrawals w where w.reference is null)::int as without_reference,
                     jsonb_array_length(verify_all_balances()) as audit_findings`)
          ).rows;
          const payoutsNotOnce = rows.filter((row) => razorpayx.payoutsFor(row.id).length !== 1).length;
          const notExactlyOnce =
            check.unpaid +
            check.notices_not_once +
            Math.abs(check.notices - WITHDRAWALS) +
            check.without_reference +
            payoutsNotOnce +
            failed;
          details.payouts = {
            seconds,
            perSecond,
            webhooks: deliveries.length,
            p99,
            failed,
            ...check,
            payoutsNotOnce,
            failing,
          };
          const [rate, webhook, once, audit] = unmeasured();
          figures.push(
            {
              .../** @type {Unmeasured} */ (rate),
              value: perSecond,
              detail: `${seconds.toFixed(1)} s, ${failing} first answers failing`,
            },
            {
              .../** @type {Unmeasured} */ (webhook),
              value: p99,
              detail: `${deliveries.length} signed deliveries (each twice), ${WEBHOOK_CONCURRENCY} at a time`,
            },
            {
              .../** @type {Unmeasured} */ (once),
              value: notExactlyOnce,
              detail: `unpaid ${check.unpaid}, payouts not one ${payoutsNotOnce}, notices not one ${check.notices_not_once}`,
            },
            { .../** @type {Unmeasured} */ (audit), value: check.audit_findings },
          );
        },
      );
    } finally {
      await client.end();
      await razorpayx.close();
    }
  });
}
