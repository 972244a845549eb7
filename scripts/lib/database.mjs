// @ts-check
// The scripts' way into a database (benchmarks, `npm run dev`): PGlite (a data directory, or memory) or a
// Postgres server, migrated by the app's own runner (app/server/db/migrations.server.ts), with one
// small interface for both.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { migrateDatabase } from "../../app/server/db/migrations.server.ts";

const MIGRATIONS_DIR = path.resolve("supabase/migrations");

/**
 * @typedef {object} BenchDatabase
 * @property {string} name
 * @property {(sql: string) => Promise<void>} exec multi-statement SQL, no parameters
 * @property {(sql: string, values?: unknown[]) => Promise<Record<string, unknown>[]>} query one statement
 * @property {() => Promise<void>} close
 */

/**
 * @param {string} [dataDir]
 * @returns {Promise<BenchDatabase>} PGlite in `dataDir` (created), or in memory without one.
 */
export async function openPglite(dataDir) {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir);
  await migrateDatabase({ pglite }, MIGRATIONS_DIR);
  return {
    name: "PGlite",
    exec: (sql) => pglite.exec(sql).then(() => {}),
    query: (sql, values) => pglite.query(sql, values).then((result) => result.rows),
    close: () => pglite.close(),
  };
}

/**
 * @param {string} url
 * @returns {Promise<BenchDatabase>} a pool on the Postgres server at `url`.
 */
export async function openPostgres(url) {
  // One connection: a temporary table made by one call is there for the next.
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await migrateDatabase({ pool }, MIGRATIONS_DIR);
  const version = (await pool.query("show server_version")).rows[0].server_version.split(/[ .]/)[0];
  return {
    name: `Postgres ${version}`,
    exec: (sql) => pool.query(sql).then(() => {}),
    query: (sql, values) => pool.query(sql, values).then((result) => result.rows),
    close: () => pool.end(),
  };
}

/** The name of the migrated database the test suite copies (CREATE DATABASE … TEMPLATE). */
export const MIGRATED_TEMPLATE = "migrated_template";

/**
 * Migrates once what every test database starts from, so that no test file runs the migrations
 * itself: on the Postgres server at `url`, the database MIGRATED_TEMPLATE; and `pgliteFile`, a
 * migrated PGlite data directory as a tar (PGlite's dumpDataDir, loaded with `loadDataDir`).
 * @param {string} url the server's address (any database on it)
 * @param {string} pgliteFile
 */
export async function makeMigratedTemplates(url, pgliteFile) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${MIGRATED_TEMPLATE}`);
    await admin.query(`create database ${MIGRATED_TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const address = new URL(url);
  address.pathname = `/${MIGRATED_TEMPLATE}`;
  const pool = new pg.Pool({ connectionString: address.toString(), max: 1 });
  const pglite = await PGlite.create();
  try {
    // Side by side: one waits on the server, the other on this process.
    await Promise.all([migrateDatabase({ pool }, MIGRATIONS_DIR), migrateDatabase({ pglite }, MIGRATIONS_DIR)]);
    const dump = await pglite.dumpDataDir("none");
    writeFileSync(pgliteFile, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pool.end();
    await pglite.close();
  }
}
