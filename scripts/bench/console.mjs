// @ts-check
// The operator console at scale (issue 20): the dashboard (operator_dashboard), the people search
// (operator_find_people) and the review queue (operator_withdrawal_list 'review' and
// operator_withdrawal_counts), timed inside the database on the risk bench's data (scripts/bench/risk.mjs:
// 1,000,000 accounts, 20,000,000 ledger rows, 1,000,000 withdrawals), with the plan of every
// statement inside each function. `npm run bench -- --only=console` runs it at that size.
//
// To the risk seeding it adds what the console reads: an owner; pending withdrawals in review (one
// account in 500: 2,000) and with PayPal (one in 70, not in review); the dashboard's counters
// rebuilt from the tables (the migration's backfill, timed), and then the rows 20 database
// connections leave between two folds (on today's figures, the running totals, the last 31 days of
// activity and the hours held money clears in): they count nothing, but a reader sums them all.
//
// benchConsole is the `console` part of `npm run bench` (scripts/bench/run.mjs), on the database at
// scale that scripts/bench/context.mjs seeds once for it, the risk part and the throughput at scale.
import { createHash } from "node:crypto";
import pg from "pg";
import { openPostgres } from "../lib/database.mjs";
import { BUDGETS } from "./budgets.ts";
import { figureOf } from "./context.mjs";
import { percentile, SEEDED, seedRisk, summarize } from "./risk.mjs";

/** The owner the console's functions are called as: the first seeded account. */
const OPERATOR = "r0000001";
const UNFOLDED_WRITERS = 20;
const pad = (/** @type {number} */ i) => `r${String(i).padStart(7, "0")}`;
const sha256 = (/** @type {string} */ text) => createHash("sha256").update(text).digest("hex");

/** Tables a console read must never read whole: the seeded ones, and the dashboard's own. */
const BIG_TABLES = [...SEEDED, "user_activity", "dashboard_counts"];

const PREPARE = `
  insert into operators (user_id, role, granted_by) values ('${OPERATOR}', 'owner', 'bench') on conflict do nothing;
  -- The seed's pending withdrawals are those of every 10th account, approved: one account in 500
  -- waits for review, one in 70 (of the others) is with PayPal.
  update withdrawals set review_state = 'review', risk_score = 60, risk_reasons = '[]'
   where status = 'pending' and substr(user_id, 2)::int % 500 = 0;
  update withdrawals set sent_at = created_at + interval '1 hour', payout_batch_id = 'bench-' || user_id,
                         payout_status = 'PENDING', payout_claimed_at = created_at + interval '1 hour'
   where status = 'pending' and review_state = 'approved' and substr(user_id, 2)::int % 70 = 0;
`;

/**
 * Adds the console's part to a database seeded by seedRisk: the owner, the queues, the counters.
 * @param {import("../lib/database.mjs").BenchDatabase} db
 */
export async function prepareConsole(db) {
  await db.exec(PREPARE);
  const started = Date.now();
  const [rebuilt] = await db.query("select rebuild_dashboard_counts() as result");
  const rebuildSeconds = (Date.now() - started) / 1000;
  // What 20 connections leave between two folds: a row each on every figure of today, on the
  // running totals, on the last days of activity (an account's earlier day is counted down when it
  // is active again) and on the hours held money clears in.
  await db.exec(`
    insert into dashboard_counts (metric, bucket, writer, n, coins, amount)
    select metric, bucket, w, 0, 0, 0
      from (select distinct metric, dashboard_day(now()) as bucket from dashboard_counts
             where bucket <> '-infinity' and metric <> 'held'
            union
            select distinct metric, bucket from dashboard_counts
             where bucket = '-infinity'
                or (metric = 'held' and bucket > now())
                or (metric in ('active_last', 'earning_last') and bucket >= now() - interval '31 days')) b,
           generate_series(1, ${UNFOLDED_WRITERS}) w
    on conflict (metric, bucket, writer) do nothing;`);
  // Two years before the seed's month, as a live database keeps every day's counters: the dashboard's
  // 30 days are then a small part of the table, as they will be (the seed alone is about those 30
  // days, and a Seq Scan over them is the right plan for a table that would never grow). The daily
  // counters are operator_dashboard's c_daily.
  await db.exec(`
    insert into dashboard_counts (metric, bucket, writer, n, coins, amount)
    select metric, dashboard_day(now() - make_interval(days => k)), 0, 1, 0, 0
      from unnest(array['signups', 'active_last', 'earning_last', 'ledger:checkin', 'ledger:task',
                        'ledger:postback', 'ledger:postback_reversal', 'ledger:referral',
                        'ledger:referral_bonus', 'ledger:bonus', 'withdrawals:paid', 'withdrawals:failed']) metric,
           generate_series(45, 775) k
    on conflict (metric, bucket, writer) do nothing;`);
  // A statement of its own: vacuum runs outside a transaction.
  await db.exec("vacuum analyze dashboard_counts, user_activity, withdrawals, operators");
  const [sizes] = await db.query(`
    select (select count(*) from dashboard_counts)::int as counter_rows,
           (select count(*) from user_activity)::int as active_accounts,
           (select count(*) from withdrawals where status = 'pending' and review_state = 'review')::int as in_review,
           (select count(*) from withdrawals where status = 'pending')::int as pending,
           (select count(*) from transaction_history
             where kind = 'earned' and user_id is not null and available_at > now())::int as held_rows`);
  return { rebuildSeconds, rebuilt: rebuilt?.result, sizes };
}

/**
 * The searches an operator makes: by email (as typed, in any case), by the start of an email or a
 * name, by referral code, by an alias
 * of an inbox (its canonical email's hash) and by a payout address (its hash): the seed's own
 * address of an account, a pair's, and the one address 20,000 accounts were paid to.
 * @param {import("../lib/database.mjs").BenchDatabase} db
 * @param {number} users
 */
async function searches(db, users) {
  const spread = Array.from({ length: 50 }, (_, k) => 1 + ((k * 104_729 + 17) % users));
  const codes = await db.query("select id, referral_code from user_profiles where id = any($1)", [spread.map(pad)]);
  const codeOf = new Map(codes.map((row) => [String(row.id), String(row.referral_code)]));
  /** @type {{ kind: string, term: string, identity: string | null, recipient: string | null }[]} */
  const list = [];
  for (const [k, i] of spread.entries()) {
    list.push({
      kind: "email",
      term: k % 2 === 0 ? `risk${i}@example.com` : `RISK${i}@Example.com`,
      identity: null,
      recipient: null,
    });
    list.push({
      kind: "referral code",
      term: (codeOf.get(pad(i)) ?? "").toLowerCase(),
      identity: null,
      recipient: null,
    });
    // The app hashes the canonical form of what was typed; the seed's identities are hashes of 'identity-<i>'.
    list.push({
      kind: "canonical email",
      term: `risk${i}+promo@example.com`,
      identity: sha256(`identity-${i}`),
      recipient: null,
    });
    // Prefixes (issue 33): a short one matches a hundred thousand accounts, a long one a few.
    list.push({
      kind: "start of email",
      term: `risk${String(i).slice(0, 1 + (k % 5))}`,
      identity: null,
      recipient: null,
    });
    list.push({
      kind: "start of name",
      term: `Risk ${String(i).slice(0, 1 + (k % 4))}`,
      identity: null,
      recipient: null,
    });
    const address = k % 10 === 0 ? "farm" : k % 10 === 1 ? `pair-${Math.floor(i / 1000)}` : `payee-${i}`;
    list.push({
      kind: `payout address${address === "farm" ? " (20,000 accounts)" : ""}`,
      term: `${address}@okaxis`,
      identity: null,
      recipient: sha256(address),
    });
  }
  return list;
}

/**
 * @param {{ url: string, users: number, ledgerRows: number, runs?: number,
 *   seeded?: Awaited<ReturnType<typeof seedRisk>> }} options
 */
export async function measureConsole({ url, users, ledgerRows, runs = 200, seeded }) {
  const db = await openPostgres(url);
  const plansClient = new pg.Client({ connectionString: url });
  try {
    const seed = seeded ?? (await seedRisk(db, users, ledgerRows));
    const prepared = await prepareConsole(db);
    const found = await searches(db, users);
    // Review queue pages: the first, the ones after it (each from the last row of the one before),
    // and the first of one payment method.
    /** @type {{ at: string | null, id: string | null, method: string | null }[]} */
    const pages = [{ at: null, id: null, method: null }];
    for (let page = 0; page < 10; page++) {
      const before = pages.at(-1);
      const [row] = await db.query(
        "select operator_withdrawal_list($1, 'review', $2, null, $3, $4, 51) -> 49 as last",
        [OPERATOR, before?.method ?? null, before?.at ?? null, before?.id ?? null],
      );
      const last = /** @type {{ created_at: string, id: string } | null | undefined} */ (row?.last);
      if (!last) break;
      pages.push({ at: last.created_at, id: last.id, method: null });
    }
    pages.push({ at: null, id: null, method: "paypal" });

    const literal = (/** @type {string | null} */ text) => (text === null ? "null" : `'${text.replace(/'/g, "''")}'`);
    const calls = {
      dashboard: Array.from({ length: runs }, () => ({ sql: `operator_dashboard('${OPERATOR}')`, kind: "dashboard" })),
      people: found.map((search) => ({
        sql: `operator_find_people('${OPERATOR}', ${literal(search.term)}, ${literal(search.identity)}, ${literal(search.recipient)})`,
        kind: search.kind,
      })),
      review: Array.from({ length: runs }, (_, k) => {
        const page = /** @type {(typeof pages)[number]} */ (pages[k % pages.length]);
        return {
          sql: `operator_withdrawal_list('${OPERATOR}', 'review', ${literal(page.method)}, null, ${literal(page.at)}::timestamptz, ${literal(page.id)}::uuid, 51)`,
          kind: page.method ? "first page, PayPal only" : page.at ? "a later page" : "first page",
        };
      }),
      counts: Array.from({ length: runs }, () => ({
        sql: `operator_withdrawal_counts('${OPERATOR}')`,
        kind: "counts",
      })),
    };

    // Each call timed inside the database (clock_timestamp around it), after a warm-up pass.
    await db.exec("create temporary table if not exists console_times (part text, kind text, ms double precision)");
    /** @type {Record<string, { runs: number, median: number, p95: number, max: number, byKind: Record<string, { runs: number, median: number, max: number }>, roundTrip: { median: number, p95: number } }>} */
    const timings = {};
    for (const [part, list] of Object.entries(calls)) {
      const values = list.map((call) => `(${literal(call.kind)}, ${literal(call.sql)})`).join(", ");
      const loop = (/** @type {boolean} */ record) => `
        do $$
        declare
          t0 timestamptz;
          c record;
        begin
          for c in select * from (values ${values}) v(kind, sql) loop
            t0 := clock_timestamp();
            execute 'select ' || c.sql;
            ${record ? `insert into console_times values ('${part}', c.kind, extract(epoch from clock_timestamp() - t0) * 1000);` : ""}
          end loop;
        end
        $$;`;
      await db.exec(loop(false));
      await db.exec(loop(true));
      const rows = await db.query("select kind, ms from console_times where part = $1 order by ms", [part]);
      const times = rows.map((row) => Number(row.ms));
      /** @type {Record<string, { runs: number, median: number, max: number }>} */
      const byKind = {};
      for (const kind of new Set(rows.map((row) => String(row.kind)))) {
        const of = rows.filter((row) => row.kind === kind).map((row) => Number(row.ms));
        byKind[kind] = { runs: of.length, median: percentile(of, 0.5), max: /** @type {number} */ (of.at(-1)) };
      }
      /** @type {number[]} */
      const roundTrips = [];
      for (const call of list.slice(0, 50)) {
        const t0 = performance.now();
        await db.query(`select ${call.sql} is not null as ok`);
        roundTrips.push(performance.now() - t0);
      }
      roundTrips.sort((a, b) => a - b);
      timings[part] = {
        runs: times.length,
        median: percentile(times, 0.5),
        p95: percentile(times, 0.95),
        max: /** @type {number} */ (times.at(-1)),
        byKind,
        roundTrip: { median: percentile(roundTrips, 0.5), p95: percentile(roundTrips, 0.95) },
      };
    }

    // The plan of every statement inside each function (auto_explain, EXPLAIN ANALYZE's figures),
    // for one call of each kind; a Seq Scan on a big table fails the part's figure.
    await plansClient.connect();
    /** @type {string[]} */
    let notices = [];
    plansClient.on("notice", (notice) => notices.push(notice.message ?? ""));
    await plansClient.query("load 'auto_explain'");
    await plansClient.query(`set auto_explain.log_min_duration = 0;
                             set auto_explain.log_nested_statements = on;
                             set auto_explain.log_analyze = on;
                             set auto_explain.log_buffers = on;
                             set auto_explain.log_timing = off;
                             set auto_explain.log_level = 'notice'`);
    /** @type {Record<string, { kind: string, summary: string[], seqScans: string[], plans: string[] }[]>} */
    const plans = {};
    for (const [part, list] of Object.entries(calls)) {
      plans[part] = [];
      for (const kind of new Set(list.map((call) => call.kind))) {
        const call = /** @type {{ sql: string }} */ (list.find((candidate) => candidate.kind === kind));
        notices = [];
        await plansClient.query(`select ${call.sql} is not null as ok`);
        // Leave out the call itself and require_operator_role's lookup of one row (it is in every one).
        const statements = notices.filter((plan) => !/Query Text: select operator_/.test(plan));
        const seqScans = [
          ...new Set(statements.flatMap((plan) => [...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => String(m[1])))),
        ].filter((table) => BIG_TABLES.includes(table));
        plans[part].push({ kind, summary: summarize(statements), seqScans, plans: statements });
      }
    }
    const seqScans = Object.fromEntries(
      Object.entries(plans).map(([part, list]) => [
        part,
        list.flatMap((entry) => entry.seqScans.map((table) => `${table} (${entry.kind})`)),
      ]),
    );
    return {
      database: db.name,
      users,
      ledgerRows,
      counts: seed.counts,
      seedSeconds: seed.seedSeconds,
      ...prepared,
      timings,
      plans,
      seqScans,
    };
  } finally {
    await plansClient.end().catch(() => {});
    await db.close();
  }
}

/** @param {Awaited<ReturnType<typeof measureConsole>>} result */
export function describe(result) {
  const lines = [
    `${result.database}: ${result.sizes?.counter_rows} counter rows (${UNFOLDED_WRITERS} unfolded writers), ` +
      `${result.sizes?.active_accounts} accounts in user_activity, ${result.sizes?.in_review} withdrawals in review of ` +
      `${result.sizes?.pending} pending, ${result.sizes?.held_rows} ledger rows in a hold; counters rebuilt from the tables in ` +
      `${result.rebuildSeconds.toFixed(1)} s`,
  ];
  for (const [part, timing] of Object.entries(result.timings)) {
    lines.push(
      `${part}: median ${timing.median.toFixed(2)} ms, p95 ${timing.p95.toFixed(2)} ms, max ${timing.max.toFixed(2)} ms over ` +
        `${timing.runs} calls in the database; round trip median ${timing.roundTrip.median.toFixed(2)} ms, p95 ${timing.roundTrip.p95.toFixed(2)} ms`,
    );
    for (const [kind, of] of Object.entries(timing.byKind))
      if (kind !== part)
        lines.push(`  ${kind} (${of.runs}): median ${of.median.toFixed(2)} ms, max ${of.max.toFixed(2)} ms`);
    const scans = result.seqScans[part] ?? [];
    lines.push(scans.length > 0 ? `  SEQ SCAN on a big table: ${scans.join(", ")}` : "  no Seq Scan on a big table");
    for (const entry of result.plans[part] ?? []) {
      lines.push(`  the statements inside it that read a table (${entry.kind}):`);
      // The role check's arithmetic reads nothing; a statement run once per row is shown once.
      /** @type {Map<string, number>} */
      const seen = new Map();
      for (const line of entry.summary.filter((one) => !one.endsWith("no table read")))
        seen.set(line, (seen.get(line) ?? 0) + 1);
      for (const [line, times] of seen)
        lines.push(`    - ${times > 1 ? `(×${times}) ` : ""}${line.replace(/\n/g, "\n    ")}`);
    }
  }
  return lines.join("\n");
}

/**
 * The `console` part: the dashboard, people search, review queue and queue counts on the database at scale.
 * @param {import("./context.mjs").Bench} bench
 * @param {import("./context.mjs").Shared} shared
 */
export async function benchConsole({ settings, log, part, figures, details }, { scale, seededAtScale }) {
  const group = `Operator console, ${scale}: p95 in the database`;
  const parts = /** @type {const} */ ([
    ["dashboard", "operator_dashboard", BUDGETS.consoleDashboardP95Ms],
    [
      "people",
      "operator_find_people (email, start of email or name, referral code, canonical email, payout address)",
      BUDGETS.consolePeopleSearchP95Ms,
    ],
    ["review", "operator_withdrawal_list, the review queue's pages", BUDGETS.consoleReviewQueueP95Ms],
    ["counts", "operator_withdrawal_counts", BUDGETS.consoleQueueCountsP95Ms],
  ]);
  /** @returns {import("./context.mjs").Unmeasured[]} */
  const unmeasured = () =>
    parts.map(([, label, limit]) => ({ group, label, unit: "ms", budget: { limit, kind: "max" } }));
  await part("operator console at scale", unmeasured, async () => {
    const { url, seeded } = await seededAtScale();
    const result = await measureConsole({
      url,
      users: settings.riskUsers,
      ledgerRows: settings.riskLedgerRows,
      seeded,
    });
    details.console = result;
    log(describe(result));
    for (const [key, label] of parts) {
      const timing = /** @type {NonNullable<typeof result.timings[string]>} */ (result.timings[key]);
      const scans = result.seqScans[key] ?? [];
      const slowest = Object.entries(timing.byKind).sort(([, a], [, b]) => b.max - a.max)[0];
      figures.push({
        ...figureOf(unmeasured, label),
        // Only plans that read no big table whole count.
        value: scans.length === 0 ? timing.p95 : null,
        error: scans.length === 0 ? undefined : `Seq Scan on ${scans.join(", ")} (see bench-results.json)`,
        detail:
          `median ${timing.median.toFixed(2)} ms, max ${timing.max.toFixed(2)} ms` +
          (slowest && slowest[0] !== key ? ` (${slowest[0]})` : "") +
          ` over ${timing.runs} calls; round trip p95 ${timing.roundTrip.p95.toFixed(2)} ms; every statement from an index`,
      });
    }
    figures.push({
      group,
      label: "the counters rebuilt from the tables (the migration's backfill)",
      value: result.rebuildSeconds,
      unit: "s",
      detail: `${result.sizes?.counter_rows} counter rows, ${result.sizes?.active_accounts} active accounts`,
    });
  });
}
