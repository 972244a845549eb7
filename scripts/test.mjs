// @ts-check
// `npm test`: every check — typecheck and lint while the build and the services start, then with a
// real Auth emulator, a real Postgres server and the production build running: unit, integration,
// HTTP and image tests (Vitest), then browser tests in Chromium with JavaScript on and off (Playwright).
// Ends with one line "N passed, N failed".
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startAppServer, startAuthEmulator, startPostgres } from "./lib/services.mjs";
import { makeConsoleOperator } from "./lib/console-operator.mjs";
import { makeMigratedTemplates, MIGRATED_TEMPLATE, openPglite } from "./lib/database.mjs";
import {
  playwrightFailedPages,
  playwrightFailures,
  playwrightFlakes,
  playwrightTests,
} from "./lib/playwright-report.mjs";

const started = Date.now();
const workDir = mkdtempSync(path.join(os.tmpdir(), "rewards-test-"));
/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
const totals = { passed: 0, failed: 0 };
/** Each failed test, `file › name`, listed again at the very end (a CI log is often read from its tail). */
/** @type {string[]} */
const failures = [];
/** Each browser test that passed only on its retry, with why its first attempt failed, listed at the end too. */
/** @type {string[]} */
const flakes = [];
/** Each test file's seconds (Vitest: from its start to its end; Playwright: its tests' time summed). */
/** @type {Map<string, number>} */
const fileSeconds = new Map();
/** The type check and lint, which run beside the build and the services: awaited before the end
 * whatever happens, so their output is printed even when the build or a service fails. */
/** @type {Promise<unknown>} */
let checksRunning = Promise.resolve();
/** Each part's name and seconds, printed together at the end. */
/** @type {[string, number][]} */
const timings = [];

/**
 * @param {string} command
 * @param {string[]} args
 * @param {Record<string, string>} [env]
 * @param {{ buffered?: boolean }} [options] buffered: the output is held and printed in one piece
 *   when the command ends (for commands that run side by side)
 * @returns {Promise<number>} the exit code
 */
function run(command, args, env = {}, { buffered = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...env },
    });
    /** @type {Buffer[]} */
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.once("close", (code) => {
      if (output.length > 0) process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

/**
 * @param {string} name
 * @param {() => Promise<boolean>} work
 */
async function step(name, work) {
  const begin = Date.now();
  console.log(`\n▶ ${name}`);
  const failedBefore = totals.failed;
  const ok = await work();
  const seconds = (Date.now() - begin) / 1000;
  timings.push([name, seconds]);
  console.log(`${ok ? "✔" : "✘"} ${name} (${seconds.toFixed(1)} s)`);
  // A step that failed without a failing test (a crash, a type error) still counts once.
  if (!ok && totals.failed === failedBefore) totals.failed += 1;
  return ok;
}

/**
 * Vitest on `parts` (each part's named files, or its whole folder), its counts added to the totals.
 * @param {string[]} parts
 * @param {Record<string, string>} env
 * @param {(part: string) => string[]} filesOf
 */
async function vitestStep(parts, env, filesOf) {
  if (parts.length === 0) return;
  const report = path.join(workDir, "vitest.json");
  const reasonsFile = path.join(workDir, "vitest-failure-reasons.json");
  await step("vitest: " + parts.join(", "), async () => {
    // An earlier step's reasons are not this one's (the resilience step runs after the others).
    rmSync(reasonsFile, { force: true });
    const code = await run(
      "vitest",
      [
        "run",
        ...parts.flatMap((part) => (filesOf(part).length > 0 ? filesOf(part) : [`tests/${part}/`])),
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${report}`,
        "--reporter=./scripts/lib/vitest-failure-reasons.mjs",
      ],
      // Four on two cores: HTTP files partly wait on the server, pacing and retries. Measured on
      // unit, integration, HTTP and image: 437 s with two, 404 with three; later 270 with three,
      // 237 with four (docs/testing.md).
      { ...env, VITEST_MAX_WORKERS: "4", VITEST_FAILURE_REASONS: reasonsFile },
    );
    /** @type {{ file: string, where: string, message: string }[]} */
    let reasons = [];
    try {
      reasons = JSON.parse(readFileSync(reasonsFile, "utf8"));
    } catch {
      // No reasons written (Vitest did not get to the end): the counts below say it failed.
    }
    const indent = (/** @type {string} */ text) => text.replace(/^/gm, "      ");
    /** What failed in `file` where `matches`, each on lines of its own; `label` names a hook's suite. */
    const why = (
      /** @type {string} */ file,
      /** @type {(where: string) => boolean} */ matches,
      /** @type {boolean} */ label,
    ) =>
      reasons
        .filter((reason) => reason.file === file && matches(reason.where))
        .map((reason) => `\n${indent((label ? `(${reason.where || "file"}) ` : "") + reason.message)}`)
        .join("");
    const counts = readCounts(report, (/** @type {VitestReport} */ r) => {
      for (const file of r.testResults ?? []) {
        const name = path.relative(process.cwd(), file.name);
        if (file.startTime && file.endTime) fileSeconds.set(name, (file.endTime - file.startTime) / 1000);
        const failed = (file.assertionResults ?? []).filter((test) => test.status === "failed");
        for (const test of failed)
          failures.push(`${name} › ${test.fullName}${why(name, (where) => where === test.fullName, false)}`);
        // A file that failed otherwise (an import error, a beforeAll or afterAll) names itself and
        // what failed.
        const failedTests = new Set(failed.map((test) => test.fullName));
        const otherwise = why(name, (where) => !failedTests.has(where), true);
        if (file.status === "failed" && (failed.length === 0 || otherwise !== "")) failures.push(`${name}${otherwise}`);
      }
      for (const reason of reasons.filter((reason) => reason.file === ""))
        failures.push(`vitest: ${reason.where}\n${indent(reason.message)}`);
      return { passed: r.numPassedTests, failed: r.numFailedTests };
    });
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    return code === 0;
  });
}

/**
 * @typedef {{
 *   numPassedTests: number,
 *   numFailedTests: number,
 *   testResults?: {
 *     name: string, status: string, startTime?: number, endTime?: number,
 *     assertionResults?: { fullName: string, status: string }[],
 *   }[],
 * }} VitestReport
 */

/**
 * Adds each spec file's test time (every project, every retry) to `fileSeconds`.
 * @param {import("./lib/playwright-report.mjs").PlaywrightSuite[]} suites
 */
function addPlaywrightSeconds(suites) {
  for (const { file, test } of playwrightTests(suites)) {
    const milliseconds = (test.results ?? []).reduce((sum, result) => sum + result.duration, 0);
    fileSeconds.set(file, (fileSeconds.get(file) ?? 0) + milliseconds / 1000);
  }
}

/**
 * The counts of a JSON report, or one failure when there is none to read.
 * @template T
 * @param {string} file
 * @param {(report: T) => { passed: number, failed: number }} pick
 */
function readCounts(file, pick) {
  try {
    return pick(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    return { passed: 0, failed: 1 };
  }
}

async function main() {
  // `npm test -- unit` runs a subset (unit, integration, http, image, e2e); `npm test --
  // tests/http/auth.test.ts tests/e2e/earning.spec.ts` runs those files alone (no typecheck or lint).
  // `--with-resilience` (`.ci/run`): everything, then the resilience suite with the same build and services.
  const withResilience = process.argv.includes("--with-resilience");
  const args = process.argv.slice(2).filter((arg) => arg !== "--with-resilience");
  const files = args.filter((arg) => arg.startsWith("tests/"));
  const only = [...args.filter((arg) => !arg.startsWith("tests/")), ...files.map((file) => file.split("/")[1])];
  // `resilience` (crashes and outages under load, `npm run test:resilience`) runs only when named.
  const wants = (/** @type {string} */ part) =>
    only.length === 0 ? part !== "resilience" || withResilience : only.includes(part);
  const filesOf = (/** @type {string} */ part) => files.filter((file) => file.split("/")[1] === part);

  // Side by side: the type check, and ESLint (zero warnings), Prettier and knip (unused files,
  // exports and dependencies), while the build and the services start (about 5 s less than one
  // after the other on two cores). Each one's output is printed when it ends; no test runs unless
  // both pass.
  const checks =
    only.length === 0
      ? Promise.all([
          step("typecheck", async () => (await run("tsc", [], {}, { buffered: true })) === 0),
          step("lint", async () => (await run("npm", ["run", "--silent", "lint"], {}, { buffered: true })) === 0),
        ])
      : Promise.resolve([true]);
  checksRunning = checks;
  // Unit tests need no build and no service: `npm test -- unit` takes seconds (as do `npm run test:unit`
  // and `npm run test:db`, which run the Vitest projects of vitest.config.ts without this script).
  if (!["integration", "http", "image", "resilience", "e2e"].some(wants)) {
    await vitestStep(["unit"].filter(wants), {}, filesOf);
    return;
  }
  // The server and the operator commands (build/payouts.js, build/walls.js), which the HTTP tests run.
  const build = () => run("npm", ["run", "--silent", "build"], { VITE_CJS_IGNORE_WARNING: "true" }, { buffered: true });
  if (!(await step("build", async () => (await build()) === 0))) return;

  console.log("\n▶ starting the Auth emulator and a Postgres server");
  const servicesBegin = Date.now();
  const [emulator, postgres] = await Promise.all([
    startAuthEmulator({ port: await freePort(), quiet: true }),
    startPostgres(),
  ]);
  cleanups.push(emulator.stop, postgres.stop);
  // Migrated once, copied by every test database (tests/support/db.ts).
  const pgliteTemplate = path.join(workDir, "pglite-template.tar");
  await makeMigratedTemplates(postgres.url, pgliteTemplate);

  // The app server's embedded database gets the demo settings, as `npm run dev` does: the HTTP tests
  // withdraw what they have just earned (holds and locked bonus: tests/integration/bonus-holds.test.ts).
  const appDatabase = await openPglite(path.join(workDir, "pglite"));
  await appDatabase.query("select apply_demo_settings()");
  // The browser suites' owner of the operator console (scripts/lib/console-operator.mjs).
  const consoleOperator = wants("e2e")
    ? await makeConsoleOperator({ emulatorHost: emulator.host, database: appDatabase })
    : null;
  await appDatabase.close();

  const appPort = await freePort();
  const sharedEnv = {
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    FIREBASE_PROJECT_ID: "demo-rewards",
    TEST_DATABASE_URL: postgres.url,
    TEST_DATABASE_TEMPLATE: MIGRATED_TEMPLATE,
    TEST_PGLITE_TEMPLATE: pgliteTemplate,
    // The server's log (each line names its role and database): tests/http/pooler.test.ts reads it.
    TEST_DATABASE_LOG: postgres.logFile,
  };
  const app = await startAppServer({
    port: appPort,
    env: {
      ...sharedEnv,
      NODE_ENV: "production",
      SESSION_SECRET: "test-session-secret-of-at-least-32-chars",
      // Tests read the leaderboard right after earning: no 15-minute cache here.
      LEADERBOARD_REFRESH_SECONDS: "0",
      PGLITE_DATA_DIR: path.join(workDir, "pglite"),
      // One offer wall turned on, so Earn's "Offer walls" section and the wall's page are screens
      // the suites visit (docs/offer-walls.md).
      WALL_BITLABS_ENABLED: "true",
      WALL_BITLABS_APP_TOKEN: "test-bitlabs-token",
      WALL_BITLABS_APP_SECRET: "test-bitlabs-secret",
    },
  });
  cleanups.push(app.stop);
  console.log(`app server on ${app.url}, Auth emulator on ${emulator.host}, Postgres on port ${postgres.port}`);
  timings.push(["services (Auth emulator, Postgres, the app server)", (Date.now() - servicesBegin) / 1000]);
  if ((await checks).includes(false)) return;

  const testEnv = {
    ...sharedEnv,
    APP_URL: app.url,
    ...(consoleOperator && {
      E2E_OPERATOR_EMAIL: consoleOperator.email,
      E2E_OPERATOR_PASSWORD: consoleOperator.password,
      E2E_OPERATOR_ID: consoleOperator.uid,
      E2E_REVIEW_WITHDRAWAL_ID: consoleOperator.withdrawalId,
      E2E_PERSON_ID: consoleOperator.personId,
      E2E_TICKET_ID: consoleOperator.ticketId,
    }),
  };
  // The resilience suite loads the machine and starts its own servers: in a step of its own, last.
  await vitestStep(["unit", "integration", "http", "image"].filter(wants), testEnv, filesOf);
  if (wants("e2e")) {
    const report = path.join(workDir, "playwright.json");
    await step("playwright: Chromium, JavaScript on and off", async () => {
      const code = await run("playwright", ["test", ...filesOf("e2e")], {
        ...testEnv,
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      });
      const counts = readCounts(
        report,
        (
          /** @type {{ stats: { expected: number, unexpected: number, flaky: number }, suites?: import("./lib/playwright-report.mjs").PlaywrightSuite[] }} */ r,
        ) => {
          failures.push(...playwrightFailures(r.suites ?? []));
          for (const page of playwrightFailedPages(r.suites ?? [])) console.log(`\n${page}`);
          addPlaywrightSeconds(r.suites ?? []);
          flakes.push(...playwrightFlakes(r.suites ?? []));
          return { passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected };
        },
      );
      totals.passed += counts.passed;
      totals.failed += counts.failed;
      return code === 0;
    });
  }
  await vitestStep(["resilience"].filter(wants), testEnv, filesOf);
}

let exitCode = 1;
try {
  await main();
  exitCode = totals.failed === 0 && totals.passed > 0 ? 0 : 1;
} catch (error) {
  console.error(error);
  totals.failed += 1;
} finally {
  await checksRunning;
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => console.error(error));
  rmSync(workDir, { recursive: true, force: true });
}
if (timings.length > 0) {
  console.log("\nTime by part:");
  // What scripts/test-all.sh did before npm test (the Debian packages, npm install).
  for (const phase of (process.env.TEST_PHASES_BEFORE ?? "").split("; ").filter(Boolean)) console.log(`  ${phase}`);
  for (const [name, seconds] of timings) console.log(`  ${name}: ${seconds.toFixed(1)} s`);
}
// Where the next second is saved: Vitest files by their own span (three run side by side),
// Playwright specs by their tests' time summed over both projects (two workers).
for (const [heading, playwright] of /** @type {[string, boolean][]} */ ([
  ["Slowest Vitest files (start to end)", false],
  ["Slowest Playwright specs (their tests' time summed)", true],
])) {
  const files = [...fileSeconds].filter(([file]) => file.startsWith("tests/e2e/") === playwright);
  if (files.length < 2) continue;
  console.log(`\n${heading}:`);
  for (const [file, seconds] of files.sort((x, y) => y[1] - x[1]).slice(0, 10))
    console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${file}`);
}
if (flakes.length > 0) {
  console.log(`\n⚠ Passed only on retry (${flakes.length}; the page at each failed attempt is printed above):`);
  for (const flake of flakes) console.log(`  ${flake}`);
}
if (failures.length > 0) {
  console.log("\nFailed:");
  for (const failure of failures) console.log(`  ✘ ${failure}`);
}
console.log(`\nTotal time ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(exitCode);
