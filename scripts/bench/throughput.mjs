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
import { readdirSync, readFileSync } from "node:fs";
import autocannon from "autocannon";

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

/**
 * @param {{ baseUrl: string, baseline: string, pages: string[], cookie: string, pids: () => number[],
 *           connections?: number, seconds?: number, rounds?: number, log?: (line: string) => void }} options
 */
export async function measureThroughput({
  baseUrl,
  baseline,
  pages,
  cookie,
  pids,
  connections = 20,
  seconds = 2,
  rounds = 4,
  log = () => {},
}) {
  const headers = { cookie, accept: "text/html" };
  const run = (/** @type {string} */ path) => hammer({ url: baseUrl + path, headers, connections, seconds, pids });
  // Every URL answers 200 before the clock starts (a redirect would be measured as a fast page).
  for (const path of [baseline, ...pages]) {
    const response = await fetch(baseUrl + path, { headers, redirect: "manual" });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status} before the benchmark`);
  }
  // Warm-up: the JIT, the caches the app keeps by design (config, task list, leaderboard).
  for (const path of [baseline, ...pages])
    await hammer({ url: baseUrl + path, headers, connections, seconds: 1, pids });

  /** @typedef {Awaited<ReturnType<typeof hammer>>} Sample */
  /** @type {Map<string, Sample[]>} */
  const samples = new Map([baseline, ...pages].map((path) => [path, []]));
  /** @type {Map<string, number[]>} */
  const ratios = new Map(pages.map((path) => [path, []]));
  /** @type {Map<string, number[]>} */
  const cpuRatios = new Map(pages.map((path) => [path, []]));
  /** @param {number} round @param {string} path @param {Sample} sample */
  const note = (round, path, sample) =>
    log(
      `  round ${round + 1}/${rounds} ${path.padEnd(12)} ${sample.requestsPerSecond.toFixed(0).padStart(5)} req/s, ` +
        `p99 ${sample.p99} ms, ${sample.cpuMsPerRequest?.toFixed(2) ?? "?"} ms CPU per request` +
        (sample.failures ? `, ${sample.failures} not 200 (${JSON.stringify(sample.statusCodes)})` : ""),
    );
  for (let round = 0; round < rounds; round++) {
    const order = pages.map((_, index) => /** @type {string} */ (pages[(index + round) % pages.length]));
    let before = await run(baseline);
    listOf(samples, baseline).push(before);
    note(round, baseline, before);
    for (const path of order) {
      const sample = await run(path);
      listOf(samples, path).push(sample);
      note(round, path, sample);
      const after = await run(baseline);
      listOf(samples, baseline).push(after);
      note(round, baseline, after);
      listOf(ratios, path).push(sample.requestsPerSecond / ((before.requestsPerSecond + after.requestsPerSecond) / 2));
      if (sample.cpuMsPerRequest && before.cpuMsPerRequest && after.cpuMsPerRequest) {
        listOf(cpuRatios, path).push((before.cpuMsPerRequest + after.cpuMsPerRequest) / 2 / sample.cpuMsPerRequest);
      }
      before = after;
    }
  }
  const summary = (/** @type {string} */ path) => {
    const list = listOf(samples, path);
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
  return {
    baseline: summary(baseline),
    pages: pages.map((path) => ({
      ...summary(path),
      /** Requests per second as a share of the baseline's (the budget). */
      ratio: median(listOf(ratios, path)),
      /** The same share from CPU time per request: what the ratio would be on an otherwise idle machine. */
      cpuRatio: median(listOf(cpuRatios, path)),
    })),
  };
}
