// Server throughput with autocannon: a page with no data (the baseline, /legal) and each
// signed-in page, on one server, in rounds. Each round measures every URL once, one after the
// other, in a rotated order; a page's figure is the median over the rounds of its requests per
// second divided by the baseline's in the same round, so that load from elsewhere on the machine
// (which comes and goes) weighs on both sides of each ratio.
import autocannon from "autocannon";

/**
 * @param {{ url: string, headers: Record<string, string>, connections: number, seconds: number }} options
 */
async function hammer({ url, headers, connections, seconds }) {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  const total = result["2xx"] + result.non2xx;
  return {
    requestsPerSecond: total / result.duration,
    p99: result.latency.p99,
    // Anything but 200s means the figure measures something else (a redirect to sign-in, an error page).
    failures: result.non2xx + result.errors + result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * @param {{ baseUrl: string, baseline: string, pages: string[], cookie: string, connections?: number,
 *           seconds?: number, rounds?: number, log?: (line: string) => void }} options
 * @returns {Promise<{ baseline: PageThroughput, pages: (PageThroughput & { ratio: number })[] }>}
 * @typedef {{ path: string, requestsPerSecond: number, p99: number, failures: number, rounds: object[] }} PageThroughput
 */
export async function measureThroughput({
  baseUrl,
  baseline,
  pages,
  cookie,
  connections = 20,
  seconds = 4,
  rounds = 3,
  log = () => {},
}) {
  const headers = { cookie, accept: "text/html" };
  const paths = [baseline, ...pages];
  // Every URL answers 200 before the clock starts (a redirect would be measured as a fast page).
  for (const path of paths) {
    const response = await fetch(baseUrl + path, { headers, redirect: "manual" });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status} before the benchmark`);
  }
  // Warm-up: the JIT, the caches the app keeps by design (config, task list, leaderboard).
  for (const path of paths) await hammer({ url: baseUrl + path, headers, connections, seconds: 1 });

  /** @type {Map<string, object[]>} */
  const samples = new Map(paths.map((path) => [path, []]));
  for (let round = 0; round < rounds; round++) {
    const order = paths.map((_, index) => paths[(index + round) % paths.length]);
    for (const path of order) {
      const sample = await hammer({ url: baseUrl + path, headers, connections, seconds });
      samples.get(path).push(sample);
      log(
        `  round ${round + 1}/${rounds} ${path.padEnd(12)} ${sample.requestsPerSecond.toFixed(0).padStart(5)} req/s, p99 ${sample.p99} ms` +
          (sample.failures ? `, ${sample.failures} not 200 (${JSON.stringify(sample.statusCodes)})` : ""),
      );
    }
  }
  const summary = (path) => {
    const list = samples.get(path);
    return {
      path,
      requestsPerSecond: median(list.map((sample) => sample.requestsPerSecond)),
      // The worst round's p99: the figure a person would have met.
      p99: Math.max(...list.map((sample) => sample.p99)),
      failures: list.reduce((sum, sample) => sum + sample.failures, 0),
      rounds: list.map(({ requestsPerSecond, p99 }) => ({ requestsPerSecond: Math.round(requestsPerSecond), p99 })),
    };
  };
  const base = summary(baseline);
  return {
    baseline: base,
    pages: pages.map((path) => ({
      ...summary(path),
      ratio: median(
        samples
          .get(path)
          .map((sample, round) => sample.requestsPerSecond / samples.get(baseline)[round].requestsPerSecond),
      ),
    })),
  };
}
