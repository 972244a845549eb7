// @ts-check
// Many instances through PgBouncer (issue 21): the signed-in pages served by one app server straight
// on Postgres, and by two app servers through PgBouncer in transaction mode, in the same run on the
// same database, the two set-ups taking turns page by page so that load from elsewhere on the
// machine falls on both alike. Two cores cannot show two instances going faster than one, so what is
// compared is the cost: CPU time per request of the app processes and the database's (PgBouncer's
// own counted with the database's when it is there). benchPooler is the `pooler` part of
// `npm run bench` (scripts/bench/run.mjs), on the throughput part's 10,000-user Postgres database.
import autocannon from "autocannon";
import pg from "pg";
import { freePort, startAppServer, startPgBouncer } from "../lib/services.mjs";
import { signIn } from "./account.mjs";
import { BUDGETS, THROUGHPUT_PAGES } from "./budgets.ts";
import { figureOf } from "./context.mjs";
import { cpuSeconds, median, processTree } from "./throughput.mjs";

/** @typedef {import("./context.mjs").App} App */

/**
 * One set-up under load for `seconds`: `urls` (one per app server) share `connections` between them.
 * @param {{ urls: string[], headers: Record<string, string>, connections: number, seconds: number, pids: () => number[] }} options
 */
async function load({ urls, headers, connections, seconds, pids }) {
  const before = cpuSeconds(pids);
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({ url, headers, connections: Math.max(1, Math.round(connections / urls.length)), duration: seconds }),
    ),
  );
  const after = cpuSeconds(pids);
  const total = results.reduce((sum, result) => sum + result["2xx"] + result.non2xx, 0);
  const duration = Math.max(...results.map((result) => result.duration));
  return {
    requestsPerSecond: total / duration,
    p99: Math.max(...results.map((result) => result.latency.p99)),
    cpuMsPerRequest: before !== null && after !== null && total > 0 ? ((after - before) * 1000) / total : null,
    failures: results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0),
  };
}

/**
 * @typedef {{ name: string, urls: string[], pids: () => number[] }} Setup
 * @param {{ setups: [Setup, Setup], pages: string[], cookie: string, connections?: number, seconds?: number,
 *           rounds?: number, log?: (line: string) => void }} options
 */
export async function measurePooler({
  setups,
  pages,
  cookie,
  connections = 20,
  seconds = 3,
  rounds = 3,
  log = () => {},
}) {
  const headers = { cookie, accept: "text/html" };
  // Every server answers every page 200 before the clock starts, and warms up (JIT, caches).
  for (const setup of setups) {
    for (const base of setup.urls) {
      for (const page of pages) {
        const response = await fetch(base + page, { headers, redirect: "manual" });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${setup.name}: ${page} answered ${response.status}`);
      }
    }
    for (const page of pages)
      await load({ urls: setup.urls.map((base) => base + page), headers, connections, seconds: 1, pids: setup.pids });
  }
  /** @type {Map<string, Awaited<ReturnType<typeof load>>[]>} */
  const samples = new Map();
  for (let round = 0; round < rounds; round++) {
    for (const page of pages) {
      // Alternating which goes first, so neither always follows the other.
      const order = round % 2 === 0 ? setups : [setups[1], setups[0]];
      for (const setup of order) {
        const sample = await load({
          urls: setup.urls.map((base) => base + page),
          headers,
          connections,
          seconds,
          pids: setup.pids,
        });
        const key = `${setup.name} ${page}`;
        samples.set(key, [...(samples.get(key) ?? []), sample]);
        log(
          `  round ${round + 1}/${rounds} ${setup.name.padEnd(28)} ${page.padEnd(12)} ` +
            `${sample.requestsPerSecond.toFixed(0).padStart(5)} req/s, p99 ${sample.p99} ms, ` +
            `${sample.cpuMsPerRequest?.toFixed(2) ?? "?"} ms CPU per request` +
            (sample.failures ? `, ${sample.failures} not 200` : ""),
        );
      }
    }
  }
  return setups.map((setup) => {
    const all = pages.flatMap((page) => samples.get(`${setup.name} ${page}`) ?? []);
    return {
      name: setup.name,
      requestsPerSecond: median(all.map((sample) => sample.requestsPerSecond)),
      p99: median(all.map((sample) => sample.p99)),
      worstP99: Math.max(...all.map((sample) => sample.p99)),
      cpuMsPerRequest: median(all.map((sample) => sample.cpuMsPerRequest)),
      failures: all.reduce((sum, sample) => sum + sample.failures, 0),
      pages: pages.map((page) => {
        const list = samples.get(`${setup.name} ${page}`) ?? [];
        return {
          page,
          requestsPerSecond: median(list.map((sample) => sample.requestsPerSecond)),
          cpuMsPerRequest: median(list.map((sample) => sample.cpuMsPerRequest)),
        };
      }),
    };
  });
}

/**
 * The `pooler` part: one app server straight on the Postgres server beside two through PgBouncer in
 * transaction mode, then the ledger audit.
 * @param {import("./context.mjs").Bench} bench
 * @param {import("./context.mjs").Shared} shared
 */
export async function benchPooler({ settings, log, part, figures, details, cleanups }, { server, appEnv, account }) {
  const { connections, seconds, rounds } = settings.pooler;
  const group = `Two app servers through PgBouncer (transaction mode) beside one on Postgres directly, ${connections} connections, the signed-in pages`;
  /** @returns {import("./context.mjs").Unmeasured[]} */
  const unmeasured = () => [
    {
      group,
      label: "CPU per request through PgBouncer, above direct",
      unit: "%",
      budget: { limit: BUDGETS.poolerCpuOverheadPercent, kind: "max" },
    },
    { group, label: "answers not 200, both set-ups", unit: "", budget: { limit: 0, kind: "max" } },
    { group, label: "ledger audit findings afterwards", unit: "", budget: { limit: 0, kind: "max" } },
  ];
  await part("two instances through PgBouncer", unmeasured, async () => {
    const bouncer = await startPgBouncer({ postgresPort: server().port, mode: "transaction" });
    cleanups.push(bouncer.stop);
    const database = new URL(server().url).pathname.slice(1);
    const started = await Promise.all(
      [server().url, bouncer.url(database), bouncer.url(database)].map(async (url) => {
        const app = await startAppServer({ port: await freePort(), env: { ...appEnv, DATABASE_URL: url } });
        cleanups.push(app.stop);
        return app;
      }),
    );
    const [direct, a, b] = /** @type {[App, App, App]} */ (started);
    try {
      const cookies = await signIn(direct.url, account());
      const postgresProcesses = () => processTree(server().pid());
      const results = await measurePooler({
        setups: [
          {
            name: "one server, direct",
            urls: [direct.url],
            pids: () => [/** @type {number} */ (direct.pid), ...postgresProcesses()],
          },
          {
            name: "two servers, through PgBouncer",
            urls: [a.url, b.url],
            pids: () => [
              /** @type {number} */ (a.pid),
              /** @type {number} */ (b.pid),
              ...postgresProcesses(),
              ...processTree(/** @type {number} */ (bouncer.pid())),
            ],
          },
        ],
        pages: THROUGHPUT_PAGES,
        cookie: cookies.header,
        connections,
        seconds,
        rounds,
        log,
      });
      const audit = new pg.Client({ connectionString: server().url });
      await audit.connect();
      const findings = (await audit.query("select jsonb_array_length(verify_all_balances()) as n")).rows[0].n;
      await audit.end();
      details.pooler = { results, auditFindings: findings };
      const [one, two] = /** @type {[typeof results[0], typeof results[0]]} */ (results);
      for (const setup of results) {
        figures.push({
          group,
          label: `${setup.name}: CPU per request (app and database${setup === two ? ", PgBouncer's included" : ""})`,
          value: setup.cpuMsPerRequest,
          unit: "ms",
          detail: `${setup.requestsPerSecond?.toFixed(0)} req/s, p99 ${setup.p99} ms (worst ${setup.worstP99}); by page ${setup.pages
            .map((page) => `${page.page} ${page.cpuMsPerRequest?.toFixed(2)}`)
            .join(", ")}`,
        });
      }
      figures.push({
        ...figureOf(unmeasured, "CPU per request through PgBouncer, above direct"),
        value:
          one.cpuMsPerRequest && two.cpuMsPerRequest ? (two.cpuMsPerRequest / one.cpuMsPerRequest - 1) * 100 : null,
        detail: `${two.cpuMsPerRequest?.toFixed(2)} ms against ${one.cpuMsPerRequest?.toFixed(2)} ms, medians over ${THROUGHPUT_PAGES.length} pages × rounds`,
      });
      figures.push({
        ...figureOf(unmeasured, "answers not 200, both set-ups"),
        value: one.failures + two.failures,
        detail: `direct ${one.failures}, through PgBouncer ${two.failures}`,
      });
      figures.push({
        ...figureOf(unmeasured, "ledger audit findings afterwards"),
        value: findings,
        detail: "verify_all_balances()",
      });
    } finally {
      for (const app of started) {
        cleanups.splice(cleanups.indexOf(app.stop), 1);
        await app.stop();
      }
      cleanups.splice(cleanups.indexOf(bouncer.stop), 1);
      await bouncer.stop();
    }
  });
}
