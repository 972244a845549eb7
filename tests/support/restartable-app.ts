import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { freePort } from "../../scripts/lib/services.mjs";
import { startTestApp } from "./app-server";
import { createScratchDatabase } from "./db";
import type { Sql } from "./load";

export type Transport = "postgres" | "pglite";

/**
 * A production app server that a test can crash (kill -9), shut down (SIGTERM) and start again on
 * the same port and the same database: a scratch Postgres database, or a PGlite directory. `sql`
 * reaches the database directly; on PGlite (one process per directory) only while the app is down,
 * by opening the directory in the test, which is itself the check that it reopens.
 */
export async function restartableApp(transport: Transport, env: Record<string, string> = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "restartable-app-"));
  const pgliteDir = path.join(dataDir, "pglite");
  const scratch = transport === "postgres" ? await createScratchDatabase() : null;
  const pool = scratch ? new pg.Pool({ connectionString: scratch.url, max: 4 }) : null;
  pool?.on("error", () => {});
  const appEnv = { ...(scratch ? { DATABASE_URL: scratch.url } : {}), ...env };
  let app: Awaited<ReturnType<typeof startTestApp>> | null = null;

  async function withSql<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    if (pool) return work(async (text, values) => (await pool.query(text, values)).rows);
    if (app) throw new Error("PGlite is the app's while it runs: stop it first");
    const db = await PGlite.create(pgliteDir);
    try {
      return await work(async (text, values) => (await db.query(text, values)).rows as never[]);
    } finally {
      await db.close();
    }
  }

  return {
    transport,
    url: `http://localhost:${port}`,
    /** Starts the server and waits for /healthz to answer 200; resolves with the milliseconds that took. */
    async start(): Promise<number> {
      const began = Date.now();
      app = await startTestApp(appEnv, undefined, { port, dataDir });
      return Date.now() - began;
    },
    /** Sends `signal` to the server and waits for it to end: how it ended, and after how many ms. */
    async kill(signal: "SIGKILL" | "SIGTERM", timeoutMs = 20_000) {
      const running = app;
      if (!running) throw new Error("the app is not running");
      const began = Date.now();
      running.kill(signal);
      const ended = await Promise.race([
        running.exit,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs)),
      ]);
      if (!ended) running.kill("SIGKILL");
      await running.exit;
      app = null;
      return {
        ...(ended ?? { code: null, signal: "still running" }),
        ms: Date.now() - began,
        stderr: running.stderr(),
      };
    },
    withSql,
    /**
     * PGlite: whether its directory was last closed cleanly, from pg_control's cluster state
     * (1 "shut down"; 6 "in production" is what a crash leaves). Null on Postgres.
     */
    pgliteShutDownCleanly(): boolean | null {
      if (transport !== "pglite") return null;
      const control = readFileSync(path.join(pgliteDir, "global", "pg_control"));
      // ControlFileData: system_identifier (8 bytes), pg_control_version, catalog_version_no, then state.
      return control.readInt32LE(16) === 1;
    },
    async close() {
      if (app) await app.stop();
      app = null;
      await pool?.end();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type RestartableApp = Awaited<ReturnType<typeof restartableApp>>;
