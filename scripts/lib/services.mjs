// @ts-check
// Local stand-ins for outside services, shared by `npm run dev` and `npm test`:
// the Firebase Auth emulator and a throwaway Postgres server.
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  chownSync,
  rmSync,
} from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const PROJECT_ID = "demo-rewards";

/**
 * Resolves once `check` answers true (a throw counts as not yet), or fails after `timeoutMs`.
 * @param {() => Promise<boolean> | boolean} check
 */
export async function waitFor(check, { timeoutMs = 60_000, intervalMs = 250, what = "service" } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/**
 * @param {number} port
 * @returns {Promise<boolean>}
 */
export function isPortOpen(port, host = "127.0.0.1") {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
    server.once("error", reject);
  });
}

/**
 * Ends a child started `detached` and everything it started (its process group): `signal`, then
 * SIGKILL if it has not exited after `graceMs`. With `killLeftovers`, what the group left behind
 * when the child exited is killed too.
 * @param {import("node:child_process").ChildProcess | null | undefined} child
 * @param {{ signal?: NodeJS.Signals, graceMs?: number, killLeftovers?: boolean }} [options]
 * @returns {Promise<void>}
 */
export function stopProcessGroup(child, { signal = "SIGTERM", graceMs = 8_000, killLeftovers = false } = {}) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const pid = /** @type {number} */ (child.pid);
  const kill = (/** @type {NodeJS.Signals} */ sent) => {
    try {
      process.kill(-pid, sent);
      return true;
    } catch {
      return false; // already gone
    }
  };
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      kill("SIGKILL");
      resolve();
    }, graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      if (killLeftovers) kill("SIGKILL");
      resolve();
    });
    if (!kill(signal)) resolve();
  });
}

/**
 * Starts the Firebase Auth emulator (firebase-tools from node_modules) on `port`.
 * Returns { host, stop }. The emulator keeps accounts in memory only. `priority` (a nice value,
 * e.g. 10) lets work that is needed sooner have the CPU while it starts.
 */
export async function startAuthEmulator({ port = 9099, quiet = false, priority = 0 } = {}) {
  const host = `127.0.0.1:${port}`;
  if (await isPortOpen(port)) {
    if (!quiet) console.log(`Auth emulator already running on ${host}`);
    return { host, stop: async () => {} };
  }
  const configDir = mkdtempSync(path.join(os.tmpdir(), "auth-emulator-"));
  const hubPort = await freePort();
  const loggingPort = await freePort();
  const configFile = path.join(configDir, "firebase.json");
  writeFileSync(
    configFile,
    JSON.stringify({
      emulators: {
        auth: { host: "127.0.0.1", port },
        hub: { host: "127.0.0.1", port: hubPort },
        logging: { host: "127.0.0.1", port: loggingPort },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const child = spawn(
    "firebase",
    ["emulators:start", "--only", "auth", "--project", PROJECT_ID, "--config", configFile],
    { cwd: configDir, detached: true, stdio: quiet ? "ignore" : ["ignore", "inherit", "inherit"], env: process.env },
  );
  if (priority && child.pid !== undefined) os.setPriority(child.pid, priority);
  let exited = false;
  child.once("exit", () => (exited = true));
  await waitFor(
    async () => {
      if (exited) throw new Error("Auth emulator exited during start-up");
      const response = await fetch(`http://${host}/`);
      return response.ok;
    },
    { timeoutMs: 120_000, what: "the Auth emulator" },
  ).catch((error) => {
    if (exited) throw new Error("The Firebase Auth emulator exited during start-up");
    throw error;
  });
  return {
    host,
    stop: async () => {
      await stopProcessGroup(child);
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

function postgresBinDir() {
  const roots = ["/usr/lib/postgresql"];
  for (const root of roots) {
    if (!existsSync(root)) continue;
    const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) {
      const bin = path.join(root, version, "bin");
      if (existsSync(path.join(bin, "initdb"))) return bin;
    }
  }
  throw new Error("No Postgres server binaries found under /usr/lib/postgresql (apt-get install postgresql)");
}

/**
 * A throwaway Postgres cluster in a temporary directory on a free port (trust auth, loopback only).
 * Postgres refuses to run as root, so as root it runs as the `postgres` system user.
 */
export async function startPostgres() {
  const bin = postgresBinDir();
  const dir = mkdtempSync(path.join(os.tmpdir(), "pg-test-"));
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  /** @param {string} command @param {string[]} args */
  const run = (command, args) => {
    const full = path.join(bin, command);
    const result = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", full, ...args], { encoding: "utf8" })
      : spawnSync(full, args, { encoding: "utf8" });
    // result.error: the program could not be started at all (runuser not on PATH, say).
    if (result.status !== 0)
      throw new Error(`${command} failed: ${result.error?.message ?? (result.stderr || result.stdout)}`);
  };
  if (asRoot) chownSync(dir, Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim()), 0);
  mkdirSync(dataDir, { recursive: true });
  if (asRoot) spawnSync("chown", ["-R", "postgres", dir]);
  run("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const logFile = path.join(dir, "server.log");
  const startServer = () =>
    run("pg_ctl", [
      "-D",
      dataDir,
      "-l",
      logFile,
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`,
      "-w",
      "start",
    ]);
  startServer();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    logFile,
    /** Stops the server but keeps its data (a database restart, with `startServer`). */
    stopServer: async () => run("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]),
    /** Starts it again on the same port and data directory. */
    startServer: async () => startServer(),
    /** The server's main process (its backends are its children). */
    pid: () => Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]),
    stop: async () => {
      try {
        run("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Starts the production build (remix-serve) and waits until /healthz answers 200 (or, with
 * `ready`, until its answer passes that check: a server that is up but not ready).
 * Test and benchmark servers run against the Auth emulator, which production refuses unless
 * ALLOW_AUTH_EMULATOR_IN_PRODUCTION=true: it is set here unless `env` says otherwise.
 * @param {{ port: number, env: Record<string, string>, cwd?: string, quiet?: boolean, command?: string[], ready?: (response: Response) => boolean }} options
 *   `command` prefixes the program, e.g. ["runuser", "-u", "nobody", "--"].
 */
export async function startAppServer({
  port,
  env,
  cwd = process.cwd(),
  quiet = true,
  command = [],
  ready = (response) => response.ok,
}) {
  const [program, ...prefix] = [...command, "remix-serve"];
  const child = spawn(program, [...prefix, "build/index.js"], {
    cwd,
    detached: true,
    // Referral settlement on an interval is off unless a test asks (it credits by the clock, not the request).
    env: {
      ...process.env,
      ALLOW_AUTH_EMULATOR_IN_PRODUCTION: "true",
      REFERRAL_SETTLE_INTERVAL_SECONDS: "0",
      ...env,
      PORT: String(port),
    },
    stdio: quiet ? ["ignore", "ignore", "pipe"] : ["ignore", "inherit", "inherit"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr += chunk));
  let exited = false;
  child.once("exit", () => (exited = true));
  child.once("error", (error) => ((exited = true), (stderr += String(error))));
  await waitFor(
    async () => {
      if (exited) throw new Error("exited");
      return ready(await fetch(`http://127.0.0.1:${port}/healthz`));
    },
    { timeoutMs: 90_000, what: "the app server" },
  ).catch((error) => {
    throw new Error(`App server did not start: ${error.message}\n${stderr}`);
  });
  const exit = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  return {
    url: `http://localhost:${port}`,
    pid: child.pid,
    stop: () => stopProcessGroup(child),
    stderr: () => stderr,
    /** Sends `signal` to the server (and anything it started); `exit` tells how it ended. */
    kill: (/** @type {NodeJS.Signals} */ signal) => process.kill(-(/** @type {number} */ (child.pid)), signal),
    /** @type {Promise<{ code: number | null, signal: string | null }>} */
    exit,
  };
}
