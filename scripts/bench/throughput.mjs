// @ts-check
// Server throughput with autocannon: a page with no data (the baseline, /legal) and each
// signed-in page, on one server. Each round runs the baseline between every two pages
// (/legal, page 1, /legal, page 2, ..., /legal), the pages in a rotated order; a page's figure is
// the median over the rounds of its requests per second divided by the mean of the two baseline
// runs around it. Load from elsewhere on the machine comes and goes over seconds, so each ratio
// compares runs made moments apart.
//
// Beside it, the CPU time the server spent per request (the app's process, plus the database
// server's processes when there is one; read from /proc): unlike requests per second, it hardly
// depends on what else the machine is doing, so it tells whether a low ratio is the page or the
// moment.
//
// benchThroughput is the `throughput` part of `npm run bench` (scripts/bench/run.mjs), on PGlite and
// on Postgres (benchThroughputOnPostgres).
import { readdirSync, readFileSync } from "node:fs";
import autocannon from "autocannon";
import { BUDGETS, THROUGHPUT_BASELINE, THROUGHPUT_PAGES } from "./budgets.ts";
import { figureOf } from "./context.mjs";

const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) used so far by the processes `pids()` names, or null off Linux.
 * @param {() => number[]} pids
 */
export function cpuSeconds(pids) {
  try {
    let ticks = 0;
    for (const pid of pids()) {
      const fields = statFields(pid);
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * The fields of /proc/<pid>/stat after the command's name (state, parent, ...).
 * @param {number | string} pid
 */
function statFields(pid) {
  const afterName = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1];
  if (afterName === undefined) throw new Error(`unexpected /proc/${pid}/stat`);
  return afterName.split(" ");
}

/**
 * The process `pid` and its children (a Postgres server: the postmaster and its backends).
 * @param {number} pid
 */
export function processTree(pid) {
  /** @type {number[]} */
  const children = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = statFields(entry);
      if (Number(fields[1]) === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return [pid, ...children];
}

/**
 * @param {{ url: string, headers: Record<string, string>, connections: number, seconds: number, pids: () => number[] }} options
 */
async function hammer({ url, headers, connections, seconds, pids }) {
  const before = cpuSeconds(pids);
  const result = await autocannon({ url, headers, connections, duration: seconds });
  const after = cpuSeconds(pids);
  const total = result["2xx"] + result.non2xx;
  return {
    requestsPerSecond: total / result.duration,
    p99: result.latency.p99,
    cpuMsPerRequest: before !== null && after !== null && total > 0 ? ((after - before) * 1000) / total : null,
    // Anything but 200s means the figure measures something else (a redirect to sign-in, an error page).
    failures: result.non2xx + result.errors + result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  };
}

/**
 * The list a map holds for `key` (made for every key before use).
 * @template T
 * @param {Map<string, T[]>} map
 * @param {string} key
 */
function listOf(map, key) {
  const list = map.get(key);
  if (!list) throw new Error(`no list for ${key}`);
  return list;
}

/**
 * The median of the values that are not null, or null when there are none.
 * @param {(number | null)[]} values
 * @returns {number | null}
 */
export function median(values) {
  const sorted = values.filter((value) => value !== null).sort((a, b) => a - b);
  const at = (/** @type {number} */ index) => /** @type {number} */ (sorted[index]);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
}

/** @typedef {{ name: string, baseUrl: string, pids: () => number[] }} Server */

/**
 * Each page's throughput as a share of the baseline's, on each server. With two servers (the same
 * app on two databases) they take turns page by page, the order alternating by round, so that both
 * are measured moments apart in the same state of the machine.
 * @param {{ servers: Server[], baseline: string, pages: string[], cookie: string,
 *           connections?: number, seconds?: number, rounds?: number, log?: (line: string) => void }} options
 */
export async function measureThroughput({
  servers,
  baseline,
  pages,
  cookie,
  connections = 20,
  seconds = 2,
  rounds = 4,
  log = () => {},
}) {
  const headers = { cookie, accept: "text/html" };
  const run = (/** @type {Server} */ server, /** @type {string} */ path) =>
    hammer({ url: server.baseUrl + path, headers, connections, seconds, pids: server.pids });
  for (const server of servers) {
    // Every URL answers 200 before the clock starts (a redirect would be measured as a fast page).
    for (const path of [baseline, ...pages]) {
      const response = await fetch(server.baseUrl + path, { headers, redirect: "manual" });
      await response.arrayBuffer();
      if (response.status !== 200)
        throw new Error(`${server.name}: ${path} answered ${response.status} before the benchmark`);
    }
    // Warm-up: the JIT, the caches the app keeps by design (config, task list, leaderboard).
    for (const path of [baseline, ...pages])
      await hammer({ url: server.baseUrl + path, headers, connections, seconds: 1, pids: server.pids });
  }

  /** @typedef {Awaited<ReturnType<typeof hammer>>} Sample */
  const key = (/** @type {Server} */ server, /** @type {string} */ path) => `${server.name} ${path}`;
  /** @type {Map<string, Sample[]>} */
  const samples = new Map(servers.flatMap((server) => [baseline, ...pages].map((path) => [key(server, path), []])));
  /** @type {Map<string, number[]>} */
  const ratios = new Map(servers.flatMap((server) => pages.map((path) => [key(server, path), []])));
  /** @type {Map<string, number[]>} */
  const cpuRatios = new Map(servers.flatMap((server) => pages.map((path) => [key(server, path), []])));
  const label = (/** @type {Server} */ server, /** @type {string} */ path) =>
    servers.length > 1 ? `${server.name} ${path}` : path;
  /** @param {number} round @param {Server} server @param {string} path */
  const measure = async (round, server, path) => {
    const sample = await run(server, path);
    listOf(samples, key(server, path)).push(sample);
    log(
      `  round ${round + 1}/${rounds} ${label(server, path).padEnd(12)} ${sample.requestsPerSecond.toFixed(0).padStart(5)} req/s, ` +
        `p99 ${sample.p99} ms, ${sample.cpuMsPerRequest?.toFixed(2) ?? "?"} ms CPU per request` +
        (sample.failures ? `, ${sample.failures} not 200 (${JSON.stringify(sample.statusCodes)})` : ""),
    );
    return sample;
  };
  for (let round = 0; round < rounds; round++) {
    const order = pages.map((_, index) => /** @type {string} */ (pages[(index + round) % pages.length]));
    const serverOrder = round % 2 === 0 ? servers : [...servers].reverse();
    /** Each server's last baseline run: a page's share is against the baseline runs just before and after it. */
    const before = new Map();
    for (const server of serverOrder) before.set(server, await measure(round, server, baseline));
    for (const path of order) {
      for (const server of serverOrder) {
        const sample = await measure(round, server, path);
        const after = await measure(round, server, baseline);
        const previous = /** @type {Sample} */ (before.get(server));
        listOf(ratios, key(server, path)).push(
          sample.requestsPerSecond / ((previous.requestsPerSecond + after.requestsPerSecond) / 2),
        );
        if (sample.cpuMsPerRequest && previous.cpuMsPerRequest && after.cpuMsPerRequest) {
          listOf(cpuRatios, key(server, path)).push(
            (previous.cpuMsPerRequest + after.cpuMsPerRequest) / 2 / sample.cpuMsPerRequest,
          );
        }
        before.set(server, after);
      }
    }
  }
  const summary = (/** @type {Server} */ server, /** @type {string} */ path) => {
    const list = listOf(samples, key(server, path));
    return {
      path,
      requestsPerSecond: median(list.map((sample) => sample.requestsPerSecond)),
      p99: median(list.map((sample) => sample.p99)),
      worstP99: Math.max(...list.map((sample) => sample.p99)),
      cpuMsPerRequest: median(list.map((sample) => sample.cpuMsPerRequest)),
      failures: list.reduce((sum, sample) => sum + sample.failures, 0),
      runs: list.map(({ requestsPerSecond, p99, cpuMsPerRequest }) => ({
        requestsPerSecond: Math.round(requestsPerSecond),
        p99,
        cpuMsPerRequest: cpuMsPerRequest === null ? null : Number(cpuMsPerRequest.toFixed(3)),
      })),
    };
  };
  return servers.map((server) => ({
    name: server.name,
    baseline: summary(server, baseline),
    pages: pages.map((path) => ({
      ...summary(server, path),
      /** Requests per second as a share of the baseline's (the budget). */
      ratio: median(listOf(ratios, key(server, path))),
      /** The same share from CPU time per request: what the ratio would be on an otherwise idle machine. */
      cpuRatio: median(listOf(cpuRatios, key(server, path))),
    })),
  }));
}

/**
 * A sample's CPU time per request in ms, two decimals ("?" when /proc could not be read).
 * @param {{ cpuMsPerRequest: number | null }} entry
 */
export function cpuMs(entry) {
  return entry.cpuMsPerRequest?.toFixed(2) ?? "?";
}

/**
 * The `throughput` part on one server: each of THROUGHPUT_PAGES as a share of the baseline's req/s.
 * @param {import("./context.mjs").Bench} bench
 * @param {{ database: string, app: import("./context.mjs").App, cookies: import("./context.mjs").Cookies,
 *   pids: () => number[] }} server `pids`: the processes whose CPU time counts (the app's, the database's)
 */
export async function benchThroughput({ settings, log, part, figures, details }, { database, app, cookies, pids }) {
  const load = settings.throughput;
  const group = `Throughput on ${database}, ${load.connections} connections: req/s as a share of ${THROUGHPUT_BASELINE}'s`;
  /** @returns {import("./context.mjs").Unmeasured[]} */
  const unmeasured = () =>
    THROUGHPUT_PAGES.map((page) => ({
      group,
      label: page,
      unit: "%",
      budget: { limit: page === "/" ? BUDGETS.homeThroughputShare : BUDGETS.throughputShare, kind: "min" },
    }));
  await part(`throughput on ${database}`, unmeasured, async () => {
    const errorsBefore = app.stderr().split("\n").length;
    const [result] = await measureThroughput({
      servers: [{ name: database, baseUrl: app.url, pids }],
      baseline: THROUGHPUT_BASELINE,
      pages: THROUGHPUT_PAGES,
      cookie: cookies.header,
      connections: load.connections,
      rounds: load.rounds,
      seconds: load.seconds,
      log,
    });
    if (!result) throw new Error("measured no server");
    // A page can answer 200 and still have lost a part (the notices, say) to the load: the server says so.
    const serverErrors = app.stderr().split("\n").length - errorsBefore;
    details[`throughput ${database}`] = { ...result, serverErrors };
    const cpu = (/** @type {{ cpuMsPerRequest: number | null }} */ entry) => `${cpuMs(entry)} ms CPU/request`;
    figures.push({
      group,
      label: `${THROUGHPUT_BASELINE} (baseline)`,
      value: result.baseline.requestsPerSecond,
      unit: "req/s",
      detail:
        `p99 ${result.baseline.p99} ms (worst ${result.baseline.worstP99}); ${cpu(result.baseline)}` +
        (serverErrors > 0 ? `; the server logged ${serverErrors} error lines meanwhile` : ""),
      error: result.baseline.failures ? `${result.baseline.failures} answers were not 200` : undefined,
    });
    for (const page of result.pages) {
      figures.push({
        ...figureOf(unmeasured, page.path),
        // A page that answered anything but 200 was not measured.
        value: page.failures || page.ratio === null ? null : page.ratio * 100,
        detail:
          `${page.requestsPerSecond?.toFixed(0)} req/s, p99 ${page.p99} ms (worst ${page.worstP99}); ${cpu(page)}, ` +
          `share by CPU ${page.cpuRatio === null ? "?" : `${(page.cpuRatio * 100).toFixed(0)} %`}; ` +
          `rounds ${page.runs.map((run) => run.requestsPerSecond).join("/")}`,
        error: page.failures ? `${page.failures} answers were not 200` : undefined,
      });
    }
  });
}

/**
 * The `throughput` part on the 10,000-user Postgres database, its server's CPU time counted.
 * @param {import("./context.mjs").Bench} bench
 * @param {import("./context.mjs").Shared} shared
 */
export async function benchThroughputOnPostgres(bench, { withApp, server }) {
  const { database } = bench.details.seed[1];
  await withApp(database, { DATABASE_URL: server().url }, (app, cookies) =>
    benchThroughput(bench, {
      database,
      app,
      cookies,
      pids: () => [/** @type {number} */ (app.pid), ...processTree(server().pid())],
    }),
  );
}
