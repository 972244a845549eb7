// @ts-check
// Postback ingestion (issue 19, section 5): signed postbacks from a mix of networks, sent by
// autocannon to one production server on Postgres, then checked: every credit and reversal
// recorded exactly once, every balance equal to its ledger, every request sent written to
// postback_log once. The postbacks are built beforehand (scripts/bench/postback-pool.ts, by each
// network's own simulatedPostback), so the load generator only sends bytes. Their rate and p99 are
// judged against /healthz's on the same server (issue 35), as the throughput part judges pages
// against /legal: the two take turns, each turn of postbacks between two of /healthz, and the
// figure is the median over the rounds of the postbacks' rate divided by the mean of the two
// /healthz turns around it, so that the machine's speed and its other load weigh on both alike.
// benchIngest is the `ingest` part of `npm run bench` (scripts/bench/run.mjs).
import path from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { build } from "esbuild";
import pg from "pg";
import { openPostgres } from "../lib/database.mjs";
import { BUDGETS } from "./budgets.ts";
import { seed } from "./seed.mjs";
import { cpuSeconds, median, processTree } from "./throughput.mjs";

/** @typedef {import("./postback-pool.ts").PooledPostback} PooledPostback */
/** @typedef {import("./context.mjs").Unmeasured} Unmeasured */
/** @typedef {{ app: () => number[], postgres: () => number[] }} Pids The processes whose CPU a turn counts. */

/** Shares of the pool: networks retry (repeats) and take credits back (reversals). */
const REPEAT_SHARE = 0.1;
const REVERSAL_SHARE = 0.05;
const WARM_UP_SECONDS = 3;
/**
 * The postbacks' seconds are sent in this many turns, each between two turns of /healthz (as many
 * seconds of /healthz in all). Load from elsewhere comes and goes over seconds: one turn it slowed
 * moves the median of five rounds' ratios little, the ratio of the totals a lot.
 */
const ROUNDS = 5;
/** Postbacks taken before the run, in provider_postbacks and postback_log alike. */
const HISTORY_ROWS = 100_000;

/**
 * The postbacks of the last weeks, as a live database holds them, then VACUUM ANALYZE of everything:
 * on empty tables the planner's statistics say "tiny", and the statements of take_postback (plans
 * cached per connection) scan whole tables that grow by a thousand rows a second; and the fresh
 * server's first autovacuum round, a minute after it started, would otherwise vacuum and analyze
 * every table just seeded in the middle of the run. The ledger is not touched: these are
 * bookkeeping rows only. Before the app server starts (VACUUM beside its start-up work can deadlock).
 * @param {import("../lib/database.mjs").BenchDatabase} db
 */
export async function seedPostbackHistory(db) {
  const [people] = await db.query("select count(*)::int as n from user_profiles");
  await db.query(
    `insert into provider_postbacks (provider, transaction_id, kind, user_id, coins, amount, available_at, created_at)
     select (array['bitlabs', 'torox', 'lootably', 'revlum', 'cpx', 'custom'])[1 + i % 6], 'history-' || i, 'credit',
            'bench-' || (1 + i % ($2::int - 1)), 100, 1.00, now() - make_interval(days => i % 30),
            now() - make_interval(days => i % 30)
       from generate_series(1, $1::int) i`,
    [HISTORY_ROWS, people?.n],
  );
  await db.query(
    `insert into postback_log (received_at, network, method, query, body, verdict, transaction_id, coins)
     select created_at, provider, 'GET', 'history', '', 'credited', transaction_id, coins
       from provider_postbacks where transaction_id like 'history-%'`,
  );
  await db.query("vacuum analyze");
}

/** What the run is checked against: counts taken before and after it. */
const COUNTS = `select (select count(*) from provider_postbacks where kind = 'credit')::int as credits,
                       (select count(*) from transaction_history where transaction_type = 'postback')::int as credit_rows,
                       (select count(*) from provider_postbacks where kind = 'reversal' and amount < 0)::int as reversals,
                       (select count(*) from transaction_history where transaction_type = 'postback_reversal')::int as reversal_rows`;

/**
 * scripts/bench/postback-pool.ts bundled into `workDir` and loaded: the network modules import
 * through `~/`, which only a bundler resolves.
 * @param {string} workDir
 * @returns {Promise<typeof import("./postback-pool.ts")>}
 */
export async function loadPostbackPool(workDir) {
  const outfile = path.join(workDir, "postback-pool.mjs");
  await build({
    entryPoints: ["scripts/bench/postback-pool.ts"],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    tsconfig: "tsconfig.json",
    logLevel: "warning",
  });
  return import(pathToFileURL(outfile).href);
}

/**
 * autocannon sending the pool in order from `start.next` on, each connection taking the next
 * postback as it sends one (so no two requests share a place in the pool). The result is a turn's,
 * to be added up with the others' (`turns`).
 * @param {{ baseUrl: string, pool: PooledPostback[], cursor: { next: number }, connections: number, seconds: number }} options
 */
function sendPool({ baseUrl, pool, cursor, connections, seconds }) {
  return autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    skipAggregateResult: true,
    requests: [
      {
        // Called once for every request written (autocannon builds each just before sending it).
        setupRequest: (request) => {
          const postback = /** @type {PooledPostback} */ (pool[cursor.next++ % pool.length]);
          return {
            ...request,
            method: postback.method,
            path: postback.pathAndQuery,
            headers: postback.headers,
            body: postback.body ?? undefined,
          };
        },
      },
    ],
  });
}

/**
 * Turns of one load as one: requests per second over their seconds together, latency percentiles
 * of all their requests (their histograms added), and CPU seconds (app and Postgres) per request.
 * @param {{ result: import("autocannon").RawResult, cpuSeconds: number | null, appCpuSeconds: number | null }[]} turns
 * @param {{ url: string, connections: number }} options
 */
function summary(turns, options) {
  const result = autocannon.aggregateResult(
    turns.map((turn) => turn.result),
    options,
  );
  const answered = result["2xx"] + result.non2xx;
  const seconds = turns.reduce((sum, turn) => sum + turn.result.duration, 0);
  const total = (/** @type {(turn: (typeof turns)[number]) => number | null} */ seconds) =>
    turns.some((turn) => seconds(turn) === null)
      ? null
      : turns.reduce((sum, turn) => sum + /** @type {number} */ (seconds(turn)), 0);
  const cpu = total((turn) => turn.cpuSeconds);
  const appCpu = total((turn) => turn.appCpuSeconds);
  return {
    perSecond: answered / seconds,
    answered,
    seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
    cpuMsPerRequest: cpu !== null && answered > 0 ? (cpu * 1000) / answered : null,
    /** The app's share of `cpuMsPerRequest` (the rest is Postgres's). */
    appCpuMsPerRequest: appCpu !== null && answered > 0 ? (appCpu * 1000) / answered : null,
    /** Each turn's requests per second, in order. */
    turns: turns.map(({ result: turn }) => (turn["2xx"] + turn.non2xx) / turn.duration),
  };
}

/**
 * One turn of load, with the CPU seconds the app's and Postgres's processes spent meanwhile (null
 * if they could not be read).
 * @param {Pids} pids
 * @param {() => Promise<import("autocannon").RawResult>} send
 */
async function turn(pids, send) {
  const before = [cpuSeconds(pids.app), cpuSeconds(pids.postgres)];
  const result = await send();
  const after = [cpuSeconds(pids.app), cpuSeconds(pids.postgres)];
  const spent = (/** @type {number} */ index) => {
    const start = before[index];
    const end = after[index];
    return start !== null && start !== undefined && end !== null && end !== undefined ? end - start : null;
  };
  const app = spent(0);
  const postgres = spent(1);
  return { result, appCpuSeconds: app, cpuSeconds: app !== null && postgres !== null ? app + postgres : null };
}

/**
 * Waits until postback_log stops growing: requests cut off when autocannon stopped may still be
 * being taken by the server.
 * @param {pg.Client} client
 */
async function settledLogCount(client) {
  let last = -1;
  for (;;) {
    const { rows } = await client.query("select count(*)::int as n from postback_log");
    const count = /** @type {number} */ (rows[0].n);
    if (count === last) return count;
    last = count;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/**
 * @param {{ baseUrl: string, databaseUrl: string, workDir: string, pids: Pids, connections: number,
 *           seconds: number, log?: (line: string) => void }} options
 */
export async function measureIngest({ baseUrl, databaseUrl, workDir, pids, connections, seconds, log = () => {} }) {
  const { postbackPool } = await loadPostbackPool(workDir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: people } = await client.query("select wall_id from user_profiles order by id");
    const wallIds = people.map((row) => /** @type {string} */ (row.wall_id));
    // Room for 3,000 a second, warm-up included; beyond it the pool starts again (all repeats then).
    const pool = postbackPool({
      appUrl: baseUrl,
      wallIds,
      size: Math.max(20_000, 3_000 * (seconds + WARM_UP_SECONDS)),
      repeatShare: REPEAT_SHARE,
      reversalShare: REVERSAL_SHARE,
    });
    const networks = [...new Set(pool.map((postback) => postback.network))];
    log(
      `  ${pool.length.toLocaleString("en")} signed postbacks from ${networks.join(", ")} for ` +
        `${wallIds.length.toLocaleString("en")} people`,
    );
    const logBefore = await settledLogCount(client);
    const before = /** @type {Record<string, number>} */ ((await client.query(COUNTS)).rows[0]);
    const cursor = { next: 0 };
    const healthUrl = `${baseUrl}/healthz`;
    const sendHealth = (/** @type {number} */ duration) =>
      autocannon({ url: healthUrl, connections, duration, skipAggregateResult: true });
    // Warm-up (the JIT, the pool's connections): its postbacks are checked with the rest.
    await sendPool({ baseUrl, pool, cursor, connections, seconds: WARM_UP_SECONDS });
    await sendHealth(1);
    // /healthz, then postbacks, ROUNDS times, then /healthz again: each turn of postbacks between two of /healthz.
    const healthSeconds = seconds / (ROUNDS + 1);
    /** @type {Awaited<ReturnType<typeof turn>>[]} */
    const postbackTurns = [];
    /** @type {Awaited<ReturnType<typeof turn>>[]} */
    const healthTurns = [];
    for (let round = 0; round <= ROUNDS; round++) {
      healthTurns.push(await turn(pids, () => sendHealth(healthSeconds)));
      if (round === ROUNDS) break;
      postbackTurns.push(
        await turn(pids, () => sendPool({ baseUrl, pool, cursor, connections, seconds: seconds / ROUNDS })),
      );
    }
    const run = summary(postbackTurns, { url: baseUrl, connections });
    const health = summary(healthTurns, { url: healthUrl, connections });
    log(
      `  ${run.perSecond.toFixed(0)} postbacks/s (turns ${run.turns.map((rate) => rate.toFixed(0)).join(", ")}), ` +
        `p50 ${run.p50} ms, p99 ${run.p99} ms, ${run.non2xx} not 2xx, ${run.errors} errors (${JSON.stringify(run.statusCodes)})`,
    );
    log(
      `  /healthz ${health.perSecond.toFixed(0)} req/s (turns ${health.turns.map((rate) => rate.toFixed(0)).join(", ")}), ` +
        `p50 ${health.p50} ms, p99 ${health.p99} ms`,
    );
    // Each turn of postbacks against the mean of the /healthz turns just before and after it.
    const roundShares = run.turns.map((rate, round) => {
      const around = (health.turns[round] ?? 0) + (health.turns[round + 1] ?? 0);
      return (200 * rate) / around;
    });
    log(`  postbacks/s in % of /healthz's, by round: ${roundShares.map((share) => share.toFixed(0)).join(", ")}`);

    // Exactly once: what was sent, against what the database holds.
    const sent = cursor.next;
    const logged = (await settledLogCount(client)) - logBefore;
    /** @type {Map<string, PooledPostback>} */
    const expected = new Map();
    for (let index = 0; index < sent; index++) {
      const postback = /** @type {PooledPostback} */ (pool[index % pool.length]);
      expected.set(
        `${postback.network} ${postback.transactionId} ${postback.kind}${postback.held ? " held" : ""}`,
        postback,
      );
    }
    // Recorded, or held for an operator (a reversal its network does not sign): each exactly once.
    const { rows: recorded } = await client.query(
      `select provider || ' ' || transaction_id || ' ' || kind as key, count(*)::int as n
         from provider_postbacks where transaction_id like 'bench-%' group by provider, transaction_id, kind
       union all
       select network || ' ' || transaction_id || ' ' || kind || ' held', count(*)::int
         from held_postbacks where transaction_id like 'bench-%' group by network, transaction_id, kind`,
    );
    const recordedCounts = new Map(
      recorded.map((row) => [/** @type {string} */ (row.key), /** @type {number} */ (row.n)]),
    );
    const missing = [...expected.keys()].filter((key) => !recordedCounts.has(key)).length;
    const unexpected = [...recordedCounts.keys()].filter((key) => !expected.has(key)).length;
    const doubled = [...recordedCounts.values()].filter((count) => count !== 1).length;
    // Each recorded credit moved money once, and each reversal of a credit took it back once.
    const after = /** @type {Record<string, number>} */ ((await client.query(COUNTS)).rows[0]);
    /** @type {Record<string, number>} */
    const money = Object.fromEntries(Object.keys(after).map((key) => [key, (after[key] ?? 0) - (before[key] ?? 0)]));
    const { rows: audit } = await client.query("select jsonb_array_length(verify_all_balances()) as findings");
    const { rows: verdicts } = await client.query(
      "select verdict, count(*)::int as n from postback_log where query <> 'history' group by verdict order by verdict",
    );
    const byVerdict = Object.fromEntries(verdicts.map((row) => [row.verdict, row.n]));
    const mismatches = {
      missing,
      unexpected,
      doubled,
      creditLedgerRows: Math.abs((money.credit_rows ?? 0) - (money.credits ?? 0)),
      reversalLedgerRows: Math.abs((money.reversal_rows ?? 0) - (money.reversals ?? 0)),
      logRows: Math.abs(logged - sent),
    };
    const notExactlyOnce = Object.values(mismatches).reduce((sum, count) => sum + count, 0);

    return {
      networks,
      people: wallIds.length,
      poolSize: pool.length,
      run,
      // Each round's postbacks/s in % of the mean of the /healthz turns either side; the figure is their median.
      roundShares,
      shareOfHealthz: median(roundShares),
      // Their p99 (all turns' requests) in times /healthz's.
      p99TimesHealthz: run.p99 / health.p99,
      sent,
      logged,
      answered: run.answered,
      uniqueCredits: [...expected.values()].filter((postback) => postback.kind === "credit").length,
      uniqueReversals: [...expected.values()].filter((postback) => postback.kind === "reversal").length,
      ledger: money,
      verdicts: byVerdict,
      mismatches,
      notExactlyOnce,
      auditFindings: /** @type {number} */ (audit[0]?.findings),
      health,
    };
  } finally {
    await client.end();
  }
}

/**
 * The `ingest` part: one production server on a Postgres database of its own, seeded like the
 * throughput part's and with past postbacks, under the postbacks' load; then the exactly-once checks.
 * @param {import("./context.mjs").Bench} bench
 * @param {import("./context.mjs").Shared} shared
 */
export async function benchIngest(
  { settings, log, part, figures, details, workDir },
  { databaseOfItsOwn, withApp, account, server },
) {
  const { connections, seconds } = settings.ingest;
  const group = `Postback ingestion on Postgres, ${connections} connections for ${seconds} s, one server`;
  /** @returns {Unmeasured[]} */
  const unmeasured = () => [
    {
      group,
      label: "signed postbacks taken per second, share of /healthz's",
      unit: "%",
      budget: { limit: BUDGETS.ingestShareOfHealthz, kind: "min" },
    },
    {
      group,
      label: "p99 latency, times /healthz's",
      unit: "×",
      budget: { limit: BUDGETS.ingestP99TimesHealthz, kind: "max" },
    },
    {
      group,
      label: "answers not 2xx, connection errors",
      unit: "",
      budget: { limit: BUDGETS.ingestFailures, kind: "max" },
    },
    {
      group,
      label: "credits, reversals, ledger rows, log rows not exactly once",
      unit: "",
      budget: { limit: BUDGETS.ingestNotExactlyOnce, kind: "max" },
    },
    {
      group,
      label: "ledger audit findings afterwards",
      unit: "",
      budget: { limit: BUDGETS.ingestAuditFindings, kind: "max" },
    },
  ];
  await part("postback ingestion on Postgres", unmeasured, async () => {
    // A database of its own: the throughput part's reads see none of these writes, and these counts start at zero.
    const databaseUrl = await databaseOfItsOwn("ingest");
    const db = await openPostgres(databaseUrl);
    try {
      await seed(db, { users: settings.users, ledgerRows: settings.ledgerRows, person: account() });
      await seedPostbackHistory(db);
    } finally {
      await db.close();
    }
    const { benchWallSettings } = await loadPostbackPool(workDir);
    await withApp("Postgres (ingest)", { DATABASE_URL: databaseUrl, ...benchWallSettings() }, async (app) => {
      const result = await measureIngest({
        baseUrl: app.url,
        databaseUrl,
        workDir,
        pids: { app: () => [/** @type {number} */ (app.pid)], postgres: () => processTree(server().pid()) },
        connections,
        seconds,
        log,
      });
      details.ingest = result;
      const { run, health } = result;
      const [perSecond, p99, failures, exactlyOnce, audit] = unmeasured();
      const cpuMs = (/** @type {number | null} */ ms) => (ms === null ? "?" : ms.toFixed(2));
      figures.push(
        {
          .../** @type {Unmeasured} */ (perSecond),
          value: result.shareOfHealthz,
          detail:
            `${run.perSecond.toFixed(0)} postbacks/s, /healthz ${health.perSecond.toFixed(0)} req/s; ` +
            `median of rounds ${result.roundShares.map((share) => share.toFixed(0)).join(", ")} %; ` +
            `CPU ${cpuMs(run.cpuMsPerRequest)} ms/postback (app ${cpuMs(run.appCpuMsPerRequest)}), ` +
            `${cpuMs(health.cpuMsPerRequest)} ms/healthz (app ${cpuMs(health.appCpuMsPerRequest)}), app and Postgres; ` +
            `${run.answered.toLocaleString("en")} answered; ${result.networks.join(", ")}`,
        },
        {
          .../** @type {Unmeasured} */ (p99),
          value: result.p99TimesHealthz,
          detail:
            `p99 ${run.p99} ms, /healthz ${health.p99} ms; p50 ${run.p50} ms, /healthz ${health.p50} ms; ` +
            `max ${run.max} ms`,
        },
        {
          .../** @type {Unmeasured} */ (failures),
          value: run.non2xx + run.errors,
          detail: `${run.non2xx} not 2xx, ${run.errors} errors; ${JSON.stringify(run.statusCodes)}`,
        },
        {
          .../** @type {Unmeasured} */ (exactlyOnce),
          value: result.notExactlyOnce,
          detail:
            `${result.uniqueCredits.toLocaleString("en")} credits, ${result.uniqueReversals.toLocaleString("en")} ` +
            `reversals of ${result.sent.toLocaleString("en")} sent; log ${JSON.stringify(result.verdicts)}` +
            (result.notExactlyOnce > 0 ? `; ${JSON.stringify(result.mismatches)}` : ""),
        },
        { .../** @type {Unmeasured} */ (audit), value: result.auditFindings, detail: "verify_all_balances()" },
      );
    });
  });
}
