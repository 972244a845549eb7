// @ts-check
// Local stand-ins for outside services, shared by `npm run dev` and `npm test`:
// the Firebase Auth emulator, a throwaway Postgres server and PgBouncer in front of it.
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
      // Each log line names its role and database (%u@%d), so a test can read what one client sent
      // (tests/http/pooler.test.ts turns log_statement on for one role in one database).
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100 -c log_line_prefix=%m:%u@%d:`,
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
 * PgBouncer (Debian's package) in front of the Postgres server on `postgresPort`: every database under
 * its own name, the roles in `users` let in as that server lets them in (trust), in `mode`
 * (`transaction`: a server connection only for the length of a transaction; `session`: for the
 * client's whole connection), `poolSize` server connections per database and role.
 * @param {{ postgresPort: number, mode: "transaction" | "session", users?: string[], poolSize?: number }} options
 */
export async function startPgBouncer({ postgresPort, mode, users = ["postgres"], poolSize = 20 }) {
  const binary = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((file) => existsSync(file));
  if (!binary) throw new Error("PgBouncer is not installed: apt-get install pgbouncer (scripts/test-all.sh does)");
  const dir = mkdtempSync(path.join(os.tmpdir(), "pgbouncer-"));
  const port = await freePort();
  const config = path.join(dir, "pgbouncer.ini");
  writeFileSync(path.join(dir, "users.txt"), users.map((user) => `"${user}" ""\n`).join(""));
  writeFileSync(
    config,
    [
      "[databases]",
      `* = host=127.0.0.1 port=${postgresPort}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      `pool_mode = ${mode}`,
      "max_client_conn = 2000",
      `default_pool_size = ${poolSize}`,
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      "",
    ].join("\n"),
  );
  // PgBouncer will not run as root: as the postgres user then, as the server does.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) spawnSync("chown", ["-R", "postgres", dir]);
  const child = asRoot
    ? spawn("runuser", ["-u", "postgres", "--", binary, config], { stdio: "ignore", detached: true })
    : spawn(binary, [config], { stdio: "ignore", detached: true });
  await waitFor(() => isPortOpen(port), { what: "PgBouncer", timeoutMs: 10_000 });
  return {
    port,
    /** The address of `database` through PgBouncer, as `user`. */
    url: (/** @type {string} */ database, user = users[0]) => `postgres://${user}@127.0.0.1:${port}/${database}`,
    /** The PgBouncer process (the one doing the work, under runuser when started as root). */
    pid: () => child.pid,
    logFile: path.join(dir, "pgbouncer.log"),
    stop: async () => {
      await stopProcessGroup(child, { signal: "SIGINT", graceMs: 3_000, killLeftovers: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts the production build (remix-serve) and waits until /healthz answers 200 (or, with
 * `ready`, until its answer passes that check: a server that is up but not ready).
 * Test and benchmark servers run against the Auth emulator, which production refuses unless
 * ALLOW_AUTH_EMULATOR_IN_PRODUCTION=true: it is set here unless `env` says otherwise. They send no
 * mail either: EMAIL_CODES=off here too, unless `env` turns codes by email on (their own tests),
 * and the console asks no authenticator (OPERATOR_2FA=off) unless `env` turns it on.
 * @param {{ port: number, env: Record<string, string>, cwd?: string, quiet?: boolean, command?: string[], ready?: (response: Response) => boolean, captureStdout?: boolean }} options
 *   `command` prefixes the program, e.g. ["runuser", "-u", "nobody", "--"].
 */
export async function startAppServer({
  port,
  env,
  cwd = process.cwd(),
  quiet = true,
  command = [],
  ready = (response) => response.ok,
  captureStdout = false,
}) {
  const [program, ...prefix] = [...command, "remix-serve"];
  const child = spawn(program, [...prefix, "build/index.js"], {
    cwd,
    detached: true,
    // Referral settlement and the prize close on an interval are off unless a test asks (they act by
    // the clock, not the request).
    env: {
      ...process.env,
      ALLOW_AUTH_EMULATOR_IN_PRODUCTION: "true",
      EMAIL_CODES: "off",
      OPERATOR_2FA: "off",
      REFERRAL_SETTLE_INTERVAL_SECONDS: "0",
      PRIZE_CLOSE_INTERVAL_SECONDS: "0",
      ...env,
      PORT: String(port),
    },
    stdio: quiet ? ["ignore", captureStdout ? "pipe" : "ignore", "pipe"] : ["ignore", "inherit", "inherit"],
  });
  let stderr = "";
  let stdout = "";
  child.stderr?.on("data", (chunk) => (stderr += chunk));
  child.stdout?.on("data", (chunk) => (stdout += chunk));
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
    /** What it wrote to stdout (its access log), with `captureStdout` only. */
    stdout: () => stdout,
    /** Sends `signal` to the server (and anything it started); `exit` tells how it ended. */
    kill: (/** @type {NodeJS.Signals} */ signal) => process.kill(-(/** @type {number} */ (child.pid)), signal),
    /** @type {Promise<{ code: number | null, signal: string | null }>} */
    exit,
  };
}
