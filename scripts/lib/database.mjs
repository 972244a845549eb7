// The scripts' way into a database (benchmarks, `npm run dev`): PGlite (a data directory, or memory) or a
// Postgres server, migrated like the app migrates it, with one small interface for both.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { applyMigrations, readMigrations } from "../../app/server/db/migrations.server.ts";

const migrations = () => readMigrations(path.resolve("supabase/migrations"));

/**
 * @typedef {object} BenchDatabase
 * @property {string} name
 * @property {(sql: string) => Promise<void>} exec multi-statement SQL, no parameters
 * @property {(sql: string, values?: unknown[]) => Promise<Record<string, unknown>[]>} query one statement
 * @property {() => Promise<void>} close
 */

/** @returns {Promise<BenchDatabase>} PGlite in `dataDir` (created), or in memory without one. */
export async function openPglite(dataDir) {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir);
  await applyMigrations(
    {
      transaction: (work) =>
        pglite.transaction((tx) =>
          work({
            exec: (sql) => tx.exec(sql).then(() => {}),
            query: (sql, values) => tx.query(sql, values).then((result) => result.rows),
          }),
        ),
    },
    await migrations(),
    false,
  );
  return {
    name: "PGlite",
    exec: (sql) => pglite.exec(sql).then(() => {}),
    query: (sql, values) => pglite.query(sql, values).then((result) => result.rows),
    close: () => pglite.close(),
  };
}

/** @returns {Promise<BenchDatabase>} a pool on the Postgres server at `url`. */
export async function openPostgres(url) {
  // One connection: a temporary table made by one call is there for the next.
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await applyMigrations(
    {
      async transaction(work) {
        const client = await pool.connect();
        try {
          await client.query("begin");
          const result = await work({
            exec: (sql) => client.query(sql).then(() => {}),
            query: (sql, values) => client.query(sql, values).then((r) => r.rows),
          });
          await client.query("commit");
          return result;
        } catch (error) {
          await client.query("rollback").catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      },
    },
    await migrations(),
    true,
  );
  const version = (await pool.query("show server_version")).rows[0].server_version.split(/[ .]/)[0];
  return {
    name: `Postgres ${version}`,
    exec: (sql) => pool.query(sql).then(() => {}),
    query: (sql, values) => pool.query(sql, values).then((result) => result.rows),
    close: () => pool.end(),
  };
}
