// @ts-check
// `npm run dev` from cold: a copy of the checkout as a fresh clone has it (the files git knows,
// no build output, no database, no cache) with the dependencies installed (node_modules linked),
// started exactly as written, on free ports; the time from the start to the first 200 on /.
// benchDevStart is the `dev` part of `npm run bench` (scripts/bench/run.mjs), against its budget.
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, stopProcessGroup } from "../lib/services.mjs";
import { BUDGETS } from "./budgets.ts";
import { figureOf } from "./context.mjs";

/**
 * The files of the working tree that a commit of it would hold (tracked and new, minus ignored).
 * @param {string} root
 */
function checkoutFiles(root) {
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  })
    .split("\0")
    .filter((file) => file && file !== "node_modules");
}

/** @param {string} root */
function copyCheckout(root) {
  const copy = mkdtempSync(path.join(os.tmpdir(), "bench-dev-"));
  for (const file of checkoutFiles(root)) {
    const target = path.join(copy, file);
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      copyFileSync(path.join(root, file), target);
    } catch (error) {
      // A file deleted in the working tree but not yet in the index.
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "ENOENT") throw error;
    }
  }
  symlinkSync(realpathSync(path.join(root, "node_modules")), path.join(copy, "node_modules"));
  return copy;
}

/**
 * @param {{ root?: string, timeoutSeconds?: number }} options
 * @returns {Promise<{ seconds: number | null, log: string }>} seconds to the first 200 on /, null if none came in time
 */
export async function measureDevStart({ root = process.cwd(), timeoutSeconds = 90 } = {}) {
  const copy = copyCheckout(root);
  const port = await freePort();
  const emulatorPort = await freePort();
  // As in a fresh shell: none of the settings this process runs with (npm's, the benchmark's).
  const {
    FIREBASE_AUTH_EMULATOR_HOST: _emulator,
    NODE_ENV: _mode,
    PGLITE_DATA_DIR: _data,
    DATABASE_URL: _url,
    ...environment
  } = process.env;
  let log = "";
  const started = performance.now();
  const child = spawn("npm", ["run", "dev"], {
    cwd: copy,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    // Remix's globals declare NODE_ENV always set; a fresh shell has none.
    env: /** @type {NodeJS.ProcessEnv} */ (
      /** @type {unknown} */ ({ ...environment, PORT: String(port), DEV_AUTH_EMULATOR_PORT: String(emulatorPort) })
    ),
  });
  // However this process ends (an interrupted benchmark included), the dev server ends with it:
  // a signal as from Ctrl-C, so that `npm run dev` stops its emulator too.
  const kill = () => {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), "SIGINT");
    } catch {
      // already gone
    }
  };
  process.once("exit", kill);
  const stamp = (/** @type {Buffer | string} */ chunk) => {
    const at = ((performance.now() - started) / 1000).toFixed(1).padStart(5);
    for (const line of String(chunk).split("\n")) if (line.trim()) log += `${at} s  ${line}\n`;
  };
  child.stdout.on("data", stamp);
  child.stderr.on("data", stamp);
  /** @type {number | null} */
  let seconds = null;
  try {
    const deadline = started + timeoutSeconds * 1000;
    while (performance.now() < deadline && child.exitCode === null) {
      try {
        const response = await fetch(`http://localhost:${port}/`, { signal: AbortSignal.timeout(5_000) });
        await response.arrayBuffer();
        if (response.status === 200) {
          seconds = (performance.now() - started) / 1000;
          break;
        }
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    // An interrupt as from Ctrl-C, so that `npm run dev` stops its emulator; then whatever the group left
    // behind (the emulator's node, remix-serve).
    await stopProcessGroup(child, { signal: "SIGINT", graceMs: 10_000, killLeftovers: true });
    process.off("exit", kill);
    writeFileSync(path.join(os.tmpdir(), "bench-dev-start.log"), log);
    rmSync(copy, { recursive: true, force: true });
  }
  return { seconds, log };
}

/**
 * The `dev` part: the first 200 on / after `npm run dev`, run first, while nothing of the benchmark runs yet.
 * @param {import("./context.mjs").Bench} bench
 */
export async function benchDevStart({ part, log, figures, details }) {
  const label = "first 200 on / after `npm run dev` (cold checkout)";
  /** @returns {import("./context.mjs").Unmeasured[]} */
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
