// @ts-check
// `npm run bench`: builds for production, seeds a database (10,000 users, 100,000 ledger rows) on
// PGlite and on a Postgres server (and bigger ones for the leaderboard and risk parts), measures, prints one table where each figure stands beside its
// budget with PASS or FAIL, writes bench-results.json, and exits 1 when a budget is missed.
//
//   npm run bench                           everything (about ten minutes on two cores, and a minute and a half for ingest)
//   npm run bench -- --only=js,throughput   some parts: dev, js, throughput, lighthouse, leaderboard, risk, console, ingest
//   npm run bench -- --evaluate=FILE        judges a saved result file again, measuring nothing
//
// The budgets are in scripts/bench/budgets.ts. The figures come from:
//   dev          scripts/bench/dev-start.mjs    `npm run dev` on a copy of the checkout, first 200 on /
//   js           scripts/bench/js-size.mjs      Chromium, each page fresh, scripts until network idle
//   throughput   scripts/bench/throughput.mjs   autocannon, 20 connections, each page between two /legal runs
//   lighthouse   scripts/bench/lighthouse.mjs   Lighthouse mobile, median of 5 runs
//   leaderboard  scripts/bench/leaderboard.mjs  get_leaderboard with 1,000,000 users, on Postgres
//   risk         scripts/bench/risk.mjs         withdrawal_risk with 1,000,000 users, 20,000,000 ledger rows
//   console      scripts/bench/console.mjs      the console's dashboard, people search and review queue on risk's data
//   ingest       scripts/bench/ingest.mjs       signed postbacks of five networks, 50 connections for 30 s, on Postgres
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../lib/chromium.mjs";
import { openPglite, openPostgres } from "../lib/database.mjs";
import { freePort, startAppServer, startAuthEmulator, startPgBouncer, startPostgres } from "../lib/services.mjs";
import { createAccount, signIn } from "./account.mjs";
import {
  BUDGETS,
  JAVASCRIPT_PAGES,
  LIGHTHOUSE_PAGES,
  THROUGHPUT_BASELINE,
  THROUGHPUT_PAGES,
  exitCode,
  formatTable,
  judge,
} from "./budgets.ts";
import { measureDevStart } from "./dev-start.mjs";
import { describe as describeLeaderboard, measureLeaderboard } from "./leaderboard.mjs";
import { describe as describeConsole, measureConsole } from "./console.mjs";
import { describe as describeRisk, measureRisk, seedRisk } from "./risk.mjs";
import { leaderboardPlace, personSql, seed } from "./seed.mjs";

const PARTS = ["dev", "js", "throughput", "lighthouse", "leaderboard", "risk", "console", "ingest", "pooler"];
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
const throughputLoad = {
  connections: numberOr("connections", 20),
  seconds: numberOr("seconds", 2),
  rounds: numberOr("rounds", 4),
};
const scaleThroughputRounds = numberOr("rounds", 6);
const poolerRounds = numberOr("rounds", 3);
const ingestLoad = { connections: numberOr("connections", 50), seconds: numberOr("seconds", 30) };

// What the tests need too (scripts/test-all.sh installs both): refuse at once, not halfway.
/** @type {string[]} */
const missing = [];
if ((wants("js") || wants("lighthouse")) && !existsSync(process.env.CHROME_PATH ?? CHROMIUM_PATH))
  missing.push("chromium");
if (
  (wants("throughput") || wants("leaderboard") || wants("risk") || wants("console") || wants("ingest")) &&
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

/** @typedef {Omit<import("./budgets.ts").Figure, "value">} Unmeasured a figure before it is measured */

/**
 * A part of the run; if it throws, its figures are recorded as unmeasured (and fail) and the rest goes on.
 * @param {string} name
 * @param {() => Unmeasured[]} unmeasured
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

const kb = (/** @type {number} */ bytes) => bytes / 1024;

// The heavy measuring tools load only when their part runs (and never for --evaluate).
const tools = {
  chromium: async () => (await import("@playwright/test")).chromium,
  pageScripts: async () => (await import("./js-size.mjs")).measurePageScripts,
  lighthouse: () => import("./lighthouse.mjs"),
  throughput: () => import("./throughput.mjs"),
  ingest: () => import("./ingest.mjs"),
  pooler: () => import("./pooler.mjs"),
};

/**
 * The figure of `unmeasured`'s list with this label.
 * @param {() => Unmeasured[]} unmeasured
 * @param {string} label
 */
function figureOf(unmeasured, label) {
  const figure = unmeasured().find((candidate) => candidate.label === label);
  if (!figure) throw new Error(`no figure "${label}"`);
  return figure;
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
  if (wants("dev")) {
    const label = "first 200 on / after `npm run dev` (cold checkout)";
    /** @returns {Unmeasured[]} */
    const unmeasured = () => [
      { group: "npm run dev", label, unit: "s", budget: { limit: BUDGETS.devFirst200Seconds, kind: "max" } },
    ];
    await part("npm run dev, cold", unmeasured, async () => {
      const result = await measureDevStart();
      details.devStart = result;
      if (result.seconds === null) console.log(result.log);
      figures.push({
        ...figureOf(unmeasured, label),
        value: result.seconds,
        error: result.seconds === null ? "no 200 within 90 s" : undefined,
      });
      log(`first 200 after ${result.seconds?.toFixed(1)} s`);
    });
  }

  const needsApp = wants("js") || wants("throughput") || wants("lighthouse") || wants("ingest") || wants("pooler");
  if (!needsApp && !wants("leaderboard") && !wants("risk") && !wants("console")) return;
  if (needsApp) {
    sampleLoad("build");
    log("▶ npm run build");
    await run("npm", ["run", "--silent", "build"], { VITE_CJS_IGNORE_WARNING: "true" });
  }

  log("▶ starting the Auth emulator and a Postgres server");
  const [emulator, postgres] = await Promise.all([
    needsApp ? startAuthEmulator({ port: await freePort(), quiet: true }) : null,
    wants("throughput") ||
    wants("leaderboard") ||
    wants("risk") ||
    wants("console") ||
    wants("ingest") ||
    wants("pooler")
      ? startPostgres()
      : null,
  ]);
  if (emulator) cleanups.push(emulator.stop);
  if (postgres) cleanups.push(postgres.stop);

  const users = number("users");
  const ledgerRows = number("ledger-rows");
  const person = emulator ? await createAccount(emulator.host) : null;
  /** The signed-in person, made whenever an app server runs. */
  const account = () => {
    if (!person) throw new Error("no account: the Auth emulator was not started");
    return person;
  };
  /** The Postgres server, started for the parts that use it. */
  const server = () => {
    if (!postgres) throw new Error("no Postgres server was started");
    return postgres;
  };
  /** A new database `name` on the Postgres server, for a part that wants its data apart: its URL. */
  const databaseOfItsOwn = async (/** @type {string} */ name) => {
    const admin = new pg.Client({ connectionString: server().url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(server().url);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const pgliteDir = path.join(workDir, "pglite");
  if (wants("js") || wants("throughput") || wants("lighthouse") || wants("pooler")) {
    log(`▶ seeding ${users.toLocaleString("en")} users and ${ledgerRows.toLocaleString("en")} ledger rows`);
    /** @param {() => Promise<import("../lib/database.mjs").BenchDatabase>} open */
    const seedInto = async (open) => {
      const db = await open();
      try {
        const counts = await seed(db, { users, ledgerRows, person: account() });
        const place = await leaderboardPlace(db, account());
        log(`  ${db.name}: seeded in ${counts.seconds.toFixed(1)} s, ledger audit clean, the person ranked ${place}`);
        return { database: db.name, ...counts, place };
      } finally {
        await db.close();
      }
    };
    details.seed = await Promise.all([
      seedInto(() => openPglite(pgliteDir)),
      wants("throughput") || wants("pooler") ? seedInto(() => openPostgres(server().url)) : null,
    ]);
  }

  const appEnv = {
    NODE_ENV: "production",
    SESSION_SECRET: "benchmark-secret-of-at-least-32-chars",
    FIREBASE_AUTH_EMULATOR_HOST: emulator?.host ?? "",
  };
  /** @typedef {Awaited<ReturnType<typeof startAppServer>>} App */
  /** @typedef {Awaited<ReturnType<typeof signIn>>} Cookies */
  /**
   * @param {string} database
   * @param {Record<string, string>} env
   * @param {(app: App, cookies: Cookies) => Promise<void>} work
   */
  const withApp = async (database, env, work) => {
    const app = await startAppServer({ port: await freePort(), env: { ...appEnv, ...env } });
    cleanups.push(app.stop);
    try {
      const cookies = await signIn(app.url, account());
      await work(app, cookies);
    } finally {
      cleanups.splice(cleanups.indexOf(app.stop), 1);
      await app.stop();
      const errors = app
        .stderr()
        .split("\n")
        .filter((line) => line && !line.startsWith("notifications: no "));
      if (errors.length > 0) log(`  the ${database} server wrote to stderr:\n${errors.slice(0, 20).join("\n")}`);
    }
  };

  /**
   * @param {string} database
   * @param {App} app
   * @param {Cookies} cookies
   * @param {() => number[]} pids
   */
  const throughput = async (database, app, cookies, pids) => {
    const group = `Throughput on ${database}, ${throughputLoad.connections} connections: req/s as a share of ${THROUGHPUT_BASELINE}'s`;
    /** @returns {Unmeasured[]} */
    const unmeasured = () =>
      THROUGHPUT_PAGES.map((page) => ({
        group,
        label: page,
        unit: "%",
        budget: { limit: BUDGETS.throughputShare, kind: "min" },
      }));
    await part(`throughput on ${database}`, unmeasured, async () => {
      const errorsBefore = app.stderr().split("\n").length;
      const { measureThroughput } = await tools.throughput();
      const [result] = await measureThroughput({
        servers: [{ name: database, baseUrl: app.url, pids }],
        baseline: THROUGHPUT_BASELINE,
        pages: THROUGHPUT_PAGES,
        cookie: cookies.header,
        connections: throughputLoad.connections,
        rounds: throughputLoad.rounds,
        seconds: throughputLoad.seconds,
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
  };

  if (wants("js") || wants("throughput") || wants("lighthouse")) {
    await withApp("PGlite", { PGLITE_DATA_DIR: pgliteDir }, async (app, cookies) => {
      if (wants("js")) {
        const group = "JavaScript before any interaction (gzip, transferred)";
        /** @returns {Unmeasured[]} */
        const unmeasured = () =>
          JAVASCRIPT_PAGES.map((page) => ({
            group,
            label: page,
            unit: "KB",
            budget: { limit: BUDGETS.javascriptKb, kind: "max" },
          }));
        await part("JavaScript per page", unmeasured, async () => {
          const chromium = await tools.chromium();
          const measurePageScripts = await tools.pageScripts();
          const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
          try {
            const pages = JAVASCRIPT_PAGES.map((page) => ({
              path: page,
              // /auth as a visitor who is not signed in; every other page signed in.
              cookies: page === "/auth" ? [] : cookies.list,
            }));
            const results = await measurePageScripts(browser, { baseUrl: app.url, pages });
            details.javascript = results;
            for (const result of results) {
              figures.push({
                ...figureOf(unmeasured, result.path),
                value: kb(result.transferred),
                detail: `${result.count} scripts, ${kb(result.decoded).toFixed(1)} KB decoded`,
              });
            }
          } finally {
            await browser.close();
          }
        });
      }
      if (wants("throughput")) await throughput("PGlite", app, cookies, () => [/** @type {number} */ (app.pid)]);
      if (wants("lighthouse")) {
        const { CATEGORIES, measureLighthouse } = await tools.lighthouse();
        const runs = number("lighthouse-runs");
        const group = `Lighthouse mobile, median of ${runs} runs`;
        /** @returns {Unmeasured[]} */
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
    });
  }

  if (wants("throughput")) {
    const { processTree } = await tools.throughput();
    await withApp(details.seed[1].database, { DATABASE_URL: server().url }, (app, cookies) =>
      throughput(details.seed[1].database, app, cookies, () => [
        /** @type {number} */ (app.pid),
        ...processTree(server().pid()),
      ]),
    );
  }

  if (wants("pooler")) {
    const connections = throughputLoad.connections;
    const group = `Two app servers through PgBouncer (transaction mode) beside one on Postgres directly, ${connections} connections, the signed-in pages`;
    /** @returns {Unmeasured[]} */
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
      const { measurePooler } = await tools.pooler();
      const { processTree } = await tools.throughput();
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
          seconds: numberOr("seconds", 3),
          rounds: poolerRounds,
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

  if (wants("ingest")) {
    const { connections, seconds } = ingestLoad;
    const group = `Postback ingestion on Postgres, ${connections} connections for ${seconds} s, one server`;
    /** @returns {Unmeasured[]} */
    const unmeasured = () => [
      {
        group,
        label: "signed postbacks taken per second",
        unit: "postbacks/s",
        budget: { limit: BUDGETS.ingestPostbacksPerSecond, kind: "min" },
      },
      { group, label: "p99 latency", unit: "ms", budget: { limit: BUDGETS.ingestP99Ms, kind: "max" } },
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
      const { measureIngest, seedPostbackHistory, loadPostbackPool } = await tools.ingest();
      const db = await openPostgres(databaseUrl);
      try {
        await seed(db, { users, ledgerRows, person: account() });
        await seedPostbackHistory(db);
      } finally {
        await db.close();
      }
      const { processTree } = await tools.throughput();
      const { benchWallSettings } = await loadPostbackPool(workDir);
      await withApp("Postgres (ingest)", { DATABASE_URL: databaseUrl, ...benchWallSettings() }, async (app) => {
        const result = await measureIngest({
          baseUrl: app.url,
          databaseUrl,
          workDir,
          pids: () => [/** @type {number} */ (app.pid), ...processTree(server().pid())],
          connections,
          seconds,
          log,
        });
        details.ingest = result;
        const { run } = result;
        const [perSecond, p99, failures, exactlyOnce, audit] = unmeasured();
        figures.push(
          {
            .../** @type {Unmeasured} */ (perSecond),
            value: run.perSecond,
            detail:
              `${run.answered.toLocaleString("en")} answered, p50 ${run.p50} ms; ${result.networks.join(", ")}; ` +
              `${result.cpuMsPerPostback?.toFixed(2) ?? "?"} ms CPU/postback (app and Postgres)`,
          },
          { .../** @type {Unmeasured} */ (p99), value: run.p99, detail: `max ${run.max} ms` },
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
          {
            group,
            label: "/healthz on the same server (for comparison)",
            unit: "req/s",
            value: result.health.perSecond,
            detail: `p50 ${result.health.p50} ms, p99 ${result.health.p99} ms`,
          },
        );
      });
    });
  }

  if (wants("leaderboard")) {
    const leaderboardUsers = number("leaderboard-users");
    const group = `Leaderboard query, ${leaderboardUsers.toLocaleString("en")} users who earned this month`;
    const label = "get_leaderboard(50) p95, in the database";
    /** @returns {Unmeasured[]} */
    const unmeasured = () => [
      {
        group,
        label,
        unit: "ms",
        budget: { limit: BUDGETS.leaderboardP95Ms, kind: "max" },
      },
    ];
    await part("leaderboard at scale", unmeasured, async () => {
      const db = await openPostgres(await databaseOfItsOwn("leaderboard"));
      try {
        const result = await measureLeaderboard(db, { users: leaderboardUsers });
        details.leaderboard = result;
        log(describeLeaderboard(result));
        figures.push({
          ...figureOf(unmeasured, label),
          label: `get_leaderboard(50) p95, in ${result.database} (timed in ${result.timedIn})`,
          // Only a plan that reads the ranking index counts.
          value: result.fromIndex ? result.p95 : null,
          error: result.fromIndex
            ? undefined
            : "the plan does not read monthly_earnings_rank_idx (see bench-results.json)",
          detail: `median ${result.median.toFixed(2)} ms; round trip p95 ${result.roundTrip.p95.toFixed(2)} ms; ${planSummary(result.plan)}`,
        });
      } finally {
        await db.close();
      }
    });
  }

  const riskUsers = number("risk-users");
  const riskRows = number("risk-ledger-rows");
  const scale = `${riskUsers.toLocaleString("en")} users and ${riskRows.toLocaleString("en")} ledger rows`;
  /** @type {{ url: string, seeded: Awaited<ReturnType<typeof seedRisk>> } | null} */
  let bigDatabase = null;
  /** The risk and console parts' database, seeded once for both (scripts/bench/risk.mjs). */
  const seededAtScale = async () => {
    if (!bigDatabase) {
      const url = await databaseOfItsOwn("scale");
      const db = await openPostgres(url);
      try {
        log(`  seeding ${scale}`);
        bigDatabase = { url, seeded: await seedRisk(db, riskUsers, riskRows) };
        log(`  seeded in ${bigDatabase.seeded.seedSeconds.toFixed(0)} s`);
      } finally {
        await db.close();
      }
    }
    return bigDatabase;
  };

  if (wants("risk")) {
    const group = `Withdrawal risk, ${scale}`;
    const label = "withdrawal_risk p95, in the database";
    /** @returns {Unmeasured[]} */
    const unmeasured = () => [{ group, label, unit: "ms", budget: { limit: BUDGETS.riskP95Ms, kind: "max" } }];
    await part("withdrawal risk at scale", unmeasured, async () => {
      const { url, seeded } = await seededAtScale();
      const result = await measureRisk({ url, users: riskUsers, ledgerRows: riskRows, seeded });
      details.risk = result;
      log(describeRisk(result));
      figures.push({
        ...figureOf(unmeasured, label),
        label: `withdrawal_risk p95 over ${result.runs} accounts, in ${result.database}`,
        // Only plans that read no seeded table whole count.
        value: result.fromIndex ? result.p95 : null,
        error: result.fromIndex ? undefined : `Seq Scan on ${result.seqScans.join(", ")} (see bench-results.json)`,
        detail:
          `median ${result.median.toFixed(2)} ms, max ${result.max.toFixed(2)} ms (${result.slowest}); round trip p95 ` +
          `${result.roundTrip.p95.toFixed(2)} ms; seeded in ${result.seedSeconds.toFixed(0)} s; every statement from an index`,
      });
    });
  }

  if (wants("console")) {
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
    /** @returns {Unmeasured[]} */
    const unmeasured = () =>
      parts.map(([, label, limit]) => ({ group, label, unit: "ms", budget: { limit, kind: "max" } }));
    await part("operator console at scale", unmeasured, async () => {
      const { url, seeded } = await seededAtScale();
      const result = await measureConsole({ url, users: riskUsers, ledgerRows: riskRows, seeded });
      details.console = result;
      log(describeConsole(result));
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

  // The signed-in pages on the database of a million accounts: each page's share of /legal's
  // requests per second must stay within a few points of its share on the 10,000-account one.
  // Two servers, one on each database, take turns page by page in the same run: measured minutes
  // apart, /legal's own cost moved by up to 16 % between runs and the shares by as many points with
  // it. Home, Earn, the leaderboard and the rest read by index; this shows it from the outside.
  if (wants("console") && wants("throughput")) {
    const group = `Throughput on Postgres with ${scale} beside ${users.toLocaleString("en")} users, taking turns: each page's share of ${THROUGHPUT_BASELINE}'s, points apart`;
    /** @returns {Unmeasured[]} */
    const unmeasured = () =>
      THROUGHPUT_PAGES.map((page) => ({
        group,
        label: `${page}, points apart`,
        unit: "points",
        budget: { limit: BUDGETS.scaleThroughputShareDriftPoints, kind: "max" },
      }));
    await part("throughput at scale", unmeasured, async () => {
      const smallPlace = details.seed?.[1]?.place;
      if (smallPlace === undefined) throw new Error("no 10,000-account Postgres database to compare with");
      const { url } = await seededAtScale();
      const db = await openPostgres(url);
      /** @type {Awaited<ReturnType<typeof leaderboardPlace>>} */
      let place = "none";
      try {
        // The signed-in person, their friends accounts that nobody referred (every third one, from 5).
        await db.exec(personSql(account(), (k) => `'r' || lpad((3 * (${k}) + 2)::text, 7, '0')`));
        // This month's earnings of everyone, as the leaderboard reads them.
        await db.exec(`insert into monthly_earnings (user_id, month, amount)
                       select user_id, current_month(), sum(amount) from transaction_history
                        where user_id is not null and transaction_type <> 'withdrawal'
                          and created_at >= current_month()::timestamp at time zone 'UTC'
                        group by user_id
                       on conflict (user_id, month) do nothing`);
        await db.exec("vacuum analyze monthly_earnings, user_balance, user_profiles");
        place = await leaderboardPlace(db, account());
        log(
          `  the person ranked ${place} on this month's leaderboard at scale, ${smallPlace} with ${users.toLocaleString("en")} users`,
        );
      } finally {
        await db.close();
      }
      const { measureThroughput, processTree } = await tools.throughput();
      const postgresProcesses = () => processTree(server().pid());
      await withApp(`Postgres, ${users.toLocaleString("en")} users`, { DATABASE_URL: server().url }, (small, cookies) =>
        withApp("Postgres at scale", { DATABASE_URL: url }, async (large) => {
          const [atSmall, atScale] = await measureThroughput({
            servers: [
              {
                name: "10k",
                baseUrl: small.url,
                pids: () => [/** @type {number} */ (small.pid), ...postgresProcesses()],
              },
              {
                name: "1M",
                baseUrl: large.url,
                pids: () => [/** @type {number} */ (large.pid), ...postgresProcesses()],
              },
            ],
            baseline: THROUGHPUT_BASELINE,
            pages: THROUGHPUT_PAGES,
            cookie: cookies.header,
            connections: throughputLoad.connections,
            rounds: scaleThroughputRounds,
            seconds: throughputLoad.seconds,
            log,
          });
          if (!atSmall || !atScale) throw new Error("measured fewer servers than started");
          details.scaleThroughput = { atSmall, atScale, place: { atScale: place, atSmall: smallPlace } };
          figures.push({
            group,
            label: `${THROUGHPUT_BASELINE} (baseline) at scale`,
            value: atScale.baseline.requestsPerSecond,
            unit: "req/s",
            detail:
              `p99 ${atScale.baseline.p99} ms; ${atSmall.baseline.requestsPerSecond?.toFixed(0)} req/s with ${users.toLocaleString("en")} users; ` +
              `the person ranked ${place} at scale, ${smallPlace} with ${users.toLocaleString("en")} users`,
            error:
              atScale.baseline.failures + atSmall.baseline.failures
                ? `${atScale.baseline.failures + atSmall.baseline.failures} answers were not 200`
                : undefined,
          });
          for (const page of atScale.pages) {
            const before = atSmall.pages.find((one) => one.path === page.path);
            const failures = page.failures + (before?.failures ?? 0);
            const shareAtScale = page.ratio === null ? null : page.ratio * 100;
            const shareAtSmall = before?.ratio == null ? null : before.ratio * 100;
            const ok = !failures && shareAtScale !== null && shareAtSmall !== null;
            figures.push({
              ...figureOf(unmeasured, `${page.path}, points apart`),
              value: ok ? Math.abs(shareAtScale - shareAtSmall) : null,
              detail: ok
                ? `${shareAtScale.toFixed(1)} % at scale, ${shareAtSmall.toFixed(1)} % with ${users.toLocaleString("en")} users; ` +
                  `${page.requestsPerSecond?.toFixed(0)} req/s, p99 ${page.p99} ms; CPU/request ${cpuMs(page)} ms against ${before ? cpuMs(before) : "?"}`
                : undefined,
              error: failures ? `${failures} answers were not 200` : ok ? undefined : "no share to compare",
            });
          }
        }),
      );
    });
  }
}

/**
 * A throughput sample's CPU time per request in ms, two decimals ("?" when /proc could not be read).
 * @param {{ cpuMsPerRequest: number | null }} entry
 */
function cpuMs(entry) {
  return entry.cpuMsPerRequest?.toFixed(2) ?? "?";
}

/**
 * The scan line of the plan, short: what proves the answer came from the index.
 * @param {string[]} plan
 */
function planSummary(plan) {
  const scan = plan.find((line) => /Scan/.test(line))?.trim() ?? "no scan in the plan";
  const heap = plan.find((line) => /Heap Fetches/.test(line))?.trim();
  return [scan.replace(/\s*\(actual.*$/, ""), heap].filter(Boolean).join(", ");
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
    users: number("users"),
    ledgerRows: number("ledger-rows"),
    leaderboardUsers: number("leaderboard-users"),
    riskUsers: number("risk-users"),
    riskLedgerRows: number("risk-ledger-rows"),
    connections: throughputLoad.connections,
    // Each part's rounds (--rounds sets them all).
    rounds: {
      throughput: throughputLoad.rounds,
      scaleThroughput: scaleThroughputRounds,
      pooler: poolerRounds,
    },
    secondsPerRound: throughputLoad.seconds,
    ingest: ingestLoad,
    lighthouseRuns: number("lighthouse-runs"),
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
