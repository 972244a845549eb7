// @ts-check
// Lighthouse (its default config: a mobile phone, simulated slow 4G and a 4x slower CPU) on the
// app's pages, several runs each; a page's score in each category is the median of its runs.
// Chromium is started here with a debugging port, which Lighthouse drives; each run starts
// from empty storage and cache (Lighthouse resets them), so every run is a first visit.
// Lighthouse keeps cookies, so a signed-in page's session goes into the browser's cookie jar before
// its runs (and the jar is emptied before a signed-out page's): a Cookie header added by
// Lighthouse would reach the page's own requests but not the service worker's, and the worker
// fetches every page load once it is installed, which then arrived signed out.
// benchLighthouse is the `lighthouse` part of `npm run bench` (scripts/bench/run.mjs).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../lib/chromium.mjs";
import { freePort, waitFor } from "../lib/services.mjs";
import { BUDGETS, LIGHTHOUSE_PAGES } from "./budgets.ts";
import { figureOf } from "./context.mjs";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

async function startChromium() {
  const port = await freePort();
  const profile = mkdtempSync(path.join(os.tmpdir(), "bench-chromium-"));
  const args = [
    ...CHROMIUM_ARGS.filter((arg) => arg !== "--headless"),
    "--headless=new",
    `--remote-debugging-port=${port}`,
    `--user-data-dir=${profile}`,
    "about:blank",
  ];
  const child = spawn(process.env.CHROME_PATH ?? CHROMIUM_PATH, args, { stdio: "ignore", detached: true });
  const kill = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  // However this process ends (an interrupted benchmark included), Chromium ends with it.
  process.once("exit", kill);
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/json/version`)).ok, {
    timeoutMs: 30_000,
    what: "Chromium's debugging port",
  });
  return {
    port,
    stop: async () => {
      process.off("exit", kill);
      kill();
      await /** @type {Promise<void>} */ (
        new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())))
      );
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Replaces the browser's cookies with `cookies`, through the browser's DevTools endpoint.
 * @param {number} port
 * @param {{ name: string, value: string, url: string }[]} cookies
 */
async function setBrowserCookies(port, cookies) {
  const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  try {
    const commands = [
      { id: 1, method: "Storage.clearCookies", params: {} },
      { id: 2, method: "Storage.setCookies", params: { cookies } },
    ];
    for (const command of commands) {
      const answer = new Promise((resolve, reject) => {
        const onMessage = (/** @type {MessageEvent} */ event) => {
          const message = JSON.parse(String(event.data));
          if (message.id !== command.id) return;
          socket.removeEventListener("message", onMessage);
          if (message.error) reject(new Error(`${command.method}: ${message.error.message}`));
          else resolve(message.result);
        };
        socket.addEventListener("message", onMessage);
      });
      socket.send(JSON.stringify(command));
      await answer;
    }
  } finally {
    socket.close();
  }
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return /** @type {number} */ (sorted[Math.floor(sorted.length / 2)]);
}

/**
 * @param {{ baseUrl: string, pages: { path: string, cookies?: { name: string, value: string, url: string }[] }[], runs?: number, log?: (line: string) => void }} options
 * @returns {Promise<{ path: string, scores: Record<string, number>, runs: Record<string, number>[], failing: Record<string, string[]> }[]>}
 *   scores 0–100 per category (the median); `failing` names the audits below 1 in the median run of a category.
 */
export async function measureLighthouse({ baseUrl, pages, runs = 5, log = () => {} }) {
  const chromium = await startChromium();
  const results = [];
  try {
    for (const page of pages) {
      /** @type {Record<string, number>[]} */
      const runScores = [];
      /** @type {NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"][]} */
      const reports = [];
      await setBrowserCookies(chromium.port, page.cookies ?? []);
      for (let run = 0; run < runs; run++) {
        const result = await lighthouse(baseUrl + page.path, {
          port: chromium.port,
          output: "json",
          logLevel: "error",
          onlyCategories: CATEGORIES,
        });
        const lhr = result?.lhr;
        if (!lhr) throw new Error(`Lighthouse gave no result for ${page.path}`);
        if (lhr.runtimeError) throw new Error(`Lighthouse on ${page.path}: ${lhr.runtimeError.message}`);
        if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(baseUrl + page.path).pathname) {
          throw new Error(`Lighthouse on ${page.path} ended on ${lhr.finalDisplayedUrl} (not signed in?)`);
        }
        const scores = Object.fromEntries(
          CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
        );
        runScores.push(scores);
        reports.push(lhr);
        log(
          `  ${page.path.padEnd(10)} run ${run + 1}/${runs}: ${CATEGORIES.map((id) => `${id} ${scores[id]}`).join(", ")}` +
            ` (first paint ${lhr.audits["first-contentful-paint"]?.displayValue ?? "?"},` +
            ` server ${lhr.audits["server-response-time"]?.numericValue?.toFixed(0) ?? "?"} ms)`,
        );
      }
      const scores = Object.fromEntries(CATEGORIES.map((id) => [id, median(runScores.map((run) => run[id] ?? 0))]));
      // What keeps a category under 100, from a run that scored the median: the audits to look at.
      /** @type {Record<string, string[]>} */
      const failing = {};
      for (const id of CATEGORIES) {
        const lhr = reports[runScores.findIndex((run) => run[id] === scores[id])];
        const audits = (lhr?.categories[id]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0)
          .map((ref) => lhr?.audits[ref.id])
          .filter((audit) => audit !== undefined)
          .filter((audit) => audit.score !== null && audit.score < 1)
          .map((audit) => `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ""}`);
        if (audits.length > 0) failing[id] = audits;
      }
      results.push({ path: page.path, scores, runs: runScores, failing });
    }
  } finally {
    await chromium.stop();
  }
  return results;
}

/**
 * The `lighthouse` part: each of LIGHTHOUSE_PAGES on `app`, /auth signed out and the others signed in.
 * @param {import("./context.mjs").Bench} bench
 * @param {import("./context.mjs").App} app
 * @param {import("./context.mjs").Cookies} cookies
 */
export async function benchLighthouse({ settings, log, part, figures, details }, app, cookies) {
  const runs = settings.lighthouseRuns;
  const group = `Lighthouse mobile, median of ${runs} runs`;
  /** @returns {import("./context.mjs").Unmeasured[]} */
  const unmeasured = () =>
    LIGHTHOUSE_PAGES.flatMap((page) =>
      CATEGORIES.map((category) => ({
        group,
        label: `${page} ${category}`,
        unit: "",
        budget: {
          limit: BUDGETS.lighthouse[/** @type {keyof typeof BUDGETS.lighthouse} */ (category)],
          kind: "min",
        },
      })),
    );
  await part("Lighthouse", unmeasured, async () => {
    const results = await measureLighthouse({
      baseUrl: app.url,
      pages: LIGHTHOUSE_PAGES.map((page) => ({
        path: page,
        cookies: page === "/auth" ? [] : cookies.list,
      })),
      runs,
      log,
    });
    details.lighthouse = results;
    for (const result of results) {
      for (const category of CATEGORIES) {
        const failing = result.failing[category];
        figures.push({
          ...figureOf(unmeasured, `${result.path} ${category}`),
          value: result.scores[category] ?? null,
          detail:
            `runs ${result.runs.map((scores) => scores[category]).join("/")}` +
            (failing ? `; below 1: ${failing.slice(0, 4).join(", ")}` : ""),
        });
      }
    }
  });
}
