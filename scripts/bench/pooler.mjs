// @ts-check
// Many instances through PgBouncer (issue 21): the signed-in pages served by one app server straight
// on Postgres, and by two app servers through PgBouncer in transaction mode, in the same run on the
// same database, the two set-ups taking turns page by page so that load from elsewhere on the
// machine falls on both alike. Two cores cannot show two instances going faster than one, so what is
// compared is the cost: CPU time per request of the app processes and the database's (PgBouncer's
// own counted with the database's when it is there).
import autocannon from "autocannon";
import { cpuSeconds, median } from "./throughput.mjs";

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
