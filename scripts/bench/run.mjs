// @ts-check
// `npm run bench`: builds for production, seeds a database (10,000 users, 100,000 ledger rows) on
// PGlite and on a Postgres server (and bigger ones for the leaderboard and risk parts), measures, prints one table where each figure stands beside its
// budget with PASS or FAIL, writes bench-results.json, and exits 1 when a budget is missed.
//
//   npm run bench                           everything (about ten minutes on two cores, and a minute and a half for ingest)
//   npm run bench -- --only=js,throughput   some parts: dev, js, throughput, lighthouse, leaderboard, risk, console, ingest, pooler
//   npm run bench -- --evaluate=FILE        judges a saved result file again, measuring nothing
//
// This file reads the options, runs the parts one after another and writes the report. Each part is
// a function (bench…) that measures and adds its figures, in the part's module below; what the parts
// share (the servers, the seeded databases, the run's context) is in scripts/bench/context.mjs. The
// budgets are in scripts/bench/budgets.ts. The figures come from:
//   dev          scripts/bench/dev-start.mjs    `npm run dev` on a copy of the checkout, first 200 on /
//   js           scripts/bench/js-size.mjs      Chromium, each page fresh, scripts until network idle
//   throughput   scripts/bench/throughput.mjs   autocannon, 20 connections, each page between two /legal runs
//   lighthouse   scripts/bench/lighthouse.mjs   Lighthouse mobile, median of 5 runs
//   leaderboard  scripts/bench/leaderboard.mjs  get_leaderboard with 1,000,000 users, on Postgres
//   risk         scripts/bench/risk.mjs         withdrawal_risk with 1,000,000 users, 20,000,000 ledger rows
//                                               (the part itself: scripts/bench/risk-at-scale.mjs)
//   console      scripts/bench/console.mjs      the console's dashboard, people search and review queue on risk's data
//   ingest       scripts/bench/ingest.mjs       signed postbacks of six walls in turns with /healthz, 50 connections, 30 s each, on Postgres
//   pooler       scripts/bench/pooler.mjs       two app servers through PgBouncer beside one on Postgres directly
//   payouts      scripts/bench/payouts.mjs      1,000 UPI cash-outs paid through a local RazorpayX, webhooks twice, on Postgres
// and with both console and throughput, scripts/bench/throughput-at-scale.mjs: the signed-in pages'
// throughput on risk's data beside the 10,000-user database's.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CHROMIUM_PATH } from "../lib/chromium.mjs";
import { BUDGETS, exitCode, formatTable, judge } from "./budgets.ts";
import { benchConsole } from "./console.mjs";
import { startShared } from "./context.mjs";
import { benchDevStart } from "./dev-start.mjs";
import { benchLeaderboard } from "./leaderboard.mjs";
import { benchRisk } from "./risk-at-scale.mjs";

const PARTS = [
  "dev",
  "js",
  "throughput",
  "lighthouse",
  "leaderboard",
  "risk",
  "rewards",
  "console",
  "ingest",
  "pooler",
  "payouts",
];
const { values: options } = parseArgs({
  options: {
    only: { type: "string" },
    evaluate: { type: "string" },
    output: { type: "string", default: "bench-results.json" },
    users: { type: "string", default: "10000" },
    "ledger-rows": { type: "string", default: "100000" },
    "leaderboard-users": { type: "string", default: "1000000" },
    "risk-users": { type: "string", default: "1000000" },
    "risk-ledger-rows": { type: "string", default: "20000000" },
    // Unset, each part has its own: throughput 20 connections for 2 s a run, ingest 50 for 30 s.
    connections: { type: "string" },
    // Unset: throughput 4 rounds, the throughput at scale 6 (two shares compared, each as noisy), pooler 3.
    rounds: { type: "string" },
    seconds: { type: "string" },
    "lighthouse-runs": { type: "string", default: "5" },
  },
});

if (options.evaluate) {
  // Judges the figures of a saved run again, against today's budgets.
  const saved = JSON.parse(readFileSync(options.evaluate, "utf8"));
  const figures = saved.figures.map(
    (/** @type {import("./budgets.ts").JudgedFigure} */ { result: _result, ...figure }) => judge(figure),
  );
  console.log(formatTable(figures));
  process.exit(exitCode(figures));
}

const parts = options.only ? options.only.split(",").map((part) => part.trim()) : PARTS;
for (const part of parts) if (!PARTS.includes(part)) throw new Error(`unknown part "${part}" (${PARTS.join(", ")})`);
const wants = (/** @type {string} */ part) => parts.includes(part);
const number = (/** @type {keyof typeof options} */ name) => Number(options[name]);
/** An option the parts give different defaults: `fallback` unless it was given. */
const numberOr = (/** @type {"connections" | "seconds" | "rounds"} */ name, /** @type {number} */ fallback) =>
  options[name] === undefined ? fallback : Number(options[name]);
/** @type {import("./context.mjs").Settings} */
const settings = {
  users: number("users"),
  ledgerRows: number("ledger-rows"),
  leaderboardUsers: number("leaderboard-users"),
  riskUsers: number("risk-users"),
  riskLedgerRows: number("risk-ledger-rows"),
  lighthouseRuns: number("lighthouse-runs"),
  throughput: {
    connections: numberOr("connections", 20),
    seconds: numberOr("seconds", 2),
    rounds: numberOr("rounds", 4),
  },
  scaleThroughputRounds: numberOr("rounds", 6),
  // The throughput's connections, 3 s a page.
  pooler: { connections: numberOr("connections", 20), seconds: numberOr("seconds", 3), rounds: numberOr("rounds", 3) },
  ingest: { connections: numberOr("connections", 50), seconds: numberOr("seconds", 30) },
};

// What the tests need too (scripts/test-all.sh installs both): refuse at once, not halfway.
/** @type {string[]} */
const missing = [];
if ((wants("js") || wants("lighthouse")) && !existsSync(process.env.CHROME_PATH ?? CHROMIUM_PATH))
  missing.push("chromium");
if (
  (wants("throughput") ||
    wants("leaderboard") ||
    wants("risk") ||
    wants("rewards") ||
    wants("console") ||
    wants("ingest") ||
    wants("payouts")) &&
  !existsSync("/usr/lib/postgresql")
)
  missing.push("postgresql");
if (missing.length > 0) {
  console.error(
    `npm run bench needs Debian's ${missing.join(" and ")}: apt-get install -y ${missing.join(" ")} ` +
      "(bash scripts/test-all.sh installs them too)",
  );
  process.exit(1);
}

const started = new Date();
const log = (/** @type {string} */ line) =>
  console.log(`[${((Date.now() - started.getTime()) / 1000).toFixed(0).padStart(4)} s] ${line}`);
/** @type {{ phase: string, at: string, loadavg: number[] }[]} */
const loadSamples = [];
const sampleLoad = (/** @type {string} */ phase) =>
  loadSamples.push({ phase, at: new Date().toISOString(), loadavg: os.loadavg() });

/** @type {import("./budgets.ts").Figure[]} */
const figures = [];
/** What bench-results.json keeps beside the figures: each part's raw results. @type {Record<string, any>} */
const details = {};
const workDir = mkdtempSync(path.join(os.tmpdir(), "bench-"));
/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];

// Interrupted (Ctrl-C): the servers run in process groups of their own, so they are stopped here;
// processes started inside a part (Chromium, a dev server) are ended by that part's exit hook.
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.once(signal, async () => {
    console.log(`\n${signal}: stopping what the benchmark started`);
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    rmSync(workDir, { recursive: true, force: true });
    process.exit(130);
  });
}

/**
 * A part of the run; if it throws, its figures are recorded as unmeasured (and fail) and the rest goes on.
 * @param {string} name
 * @param {() => import("./context.mjs").Unmeasured[]} unmeasured
 * @param {() => Promise<void>} work
 */
async function part(name, unmeasured, work) {
  sampleLoad(name);
  log(`▶ ${name}`);
  try {
    await work();
  } catch (error) {
    console.error(error);
    for (const figure of unmeasured())
      figures.push({ ...figure, value: null, error: String(/** @type {Error} */ (error).message ?? error) });
  }
}

/** What each part is handed. @type {import("./context.mjs").Bench} */
const bench = { settings, wants, log, part, figures, details, cleanups, workDir };

/**
 * @param {string} command
 * @param {string[]} args
 * @param {Record<string, string>} [env]
 * @returns {Promise<void>}
 */
function run(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited ${code}`)),
    );
  });
}

async function main() {
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
  };
  details.machine = machine;
  log(`${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, ${machine.os}, Node ${machine.node}`);

  // First, on a machine where nothing of the benchmark runs yet.
  if (wants("dev")) await benchDevStart(bench);

  const needsApp =
    wants("js") || wants("throughput") || wants("lighthouse") || wants("ingest") || wants("pooler") || wants("payouts");
  if (!needsApp && !wants("leaderboard") && !wants("risk") && !wants("rewards") && !wants("console")) return;
  if (needsApp) {
    sampleLoad("build");
    log("▶ npm run build");
    await run("npm", ["run", "--silent", "build"], { VITE_CJS_IGNORE_WARNING: "true" });
  }
  const shared = await startShared(bench, { needsApp });

  // The modules of the heavy measuring tools (Playwright, Lighthouse, autocannon, esbuild) load only
  // when their part runs (and never for --evaluate). js, throughput and Lighthouse share one server on PGlite.
  if (wants("js") || wants("throughput") || wants("lighthouse")) {
    await shared.withApp("PGlite", { PGLITE_DATA_DIR: shared.pgliteDir }, async (app, cookies) => {
      if (wants("js")) await (await import("./js-size.mjs")).benchJavascript(bench, app, cookies);
      if (wants("throughput")) {
        const { benchThroughput } = await import("./throughput.mjs");
        await benchThroughput(bench, {
          database: "PGlite",
          app,
          cookies,
          pids: () => [/** @type {number} */ (app.pid)],
        });
      }
      if (wants("lighthouse")) await (await import("./lighthouse.mjs")).benchLighthouse(bench, app, cookies);
    });
  }
  if (wants("throughput")) await (await import("./throughput.mjs")).benchThroughputOnPostgres(bench, shared);
  if (wants("pooler")) await (await import("./pooler.mjs")).benchPooler(bench, shared);
  if (wants("ingest")) await (await import("./ingest.mjs")).benchIngest(bench, shared);
  if (wants("payouts")) await (await import("./payouts.mjs")).benchPayouts(bench, shared);
  if (wants("leaderboard")) await benchLeaderboard(bench, shared);
  if (wants("risk")) await benchRisk(bench, shared);
  if (wants("rewards")) {
    await (await import("./rewards.mjs")).benchRewards(bench, shared);
    await (await import("./prizes.mjs")).benchPrizes(bench, shared);
  }
  if (wants("console")) await benchConsole(bench, shared);
  if (wants("console") && wants("throughput"))
    await (await import("./throughput-at-scale.mjs")).benchThroughputAtScale(bench, shared);
}

/** @type {unknown} */
let crashed = null;
try {
  await main();
} catch (error) {
  crashed = error;
  console.error(error);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => console.error(error));
  rmSync(workDir, { recursive: true, force: true });
}
sampleLoad("end");

const judged = figures.map(judge);
const finished = new Date();
const report = {
  startedAt: started.toISOString(),
  finishedAt: finished.toISOString(),
  seconds: Math.round((finished.getTime() - started.getTime()) / 1000),
  parts,
  settings: {
    users: settings.users,
    ledgerRows: settings.ledgerRows,
    leaderboardUsers: settings.leaderboardUsers,
    riskUsers: settings.riskUsers,
    riskLedgerRows: settings.riskLedgerRows,
    connections: settings.throughput.connections,
    // Each part's rounds (--rounds sets them all).
    rounds: {
      throughput: settings.throughput.rounds,
      scaleThroughput: settings.scaleThroughputRounds,
      pooler: settings.pooler.rounds,
    },
    secondsPerRound: settings.throughput.seconds,
    ingest: settings.ingest,
    lighthouseRuns: settings.lighthouseRuns,
  },
  budgets: BUDGETS,
  load: loadSamples,
  figures: judged,
  details,
  error: crashed ? String(/** @type {Error} */ (crashed).stack ?? crashed) : undefined,
  passed: !crashed && exitCode(judged) === 0,
};
writeFileSync(options.output, JSON.stringify(report, null, 2) + "\n");

const loads = loadSamples.map((sample) => sample.loadavg[0] ?? 0);
console.log(`\n${formatTable(judged)}`);
console.log(
  `${details.machine?.cpus} × ${details.machine?.cpuModel}, ${details.machine?.memoryGb} GB, ${details.machine?.os}, ` +
    `Node ${details.machine?.node}; 1-minute load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} ` +
    `during the run; ${report.seconds} s in all. Written to ${options.output}.`,
);
if (crashed) console.log("The benchmark stopped early: see the error above.");
process.exit(crashed ? 1 : exitCode(judged));
