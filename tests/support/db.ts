import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { expect } from "vitest";
import { DbError, type Database } from "~/server/db/core.server";
import { migrateDatabase } from "~/server/db/migrations.server";
import { pgliteDatabase } from "~/server/db/pglite.server";
import { postgresDatabase } from "~/server/db/postgres.server";

export const MIGRATIONS_DIR = path.resolve("supabase/migrations");

/** A migrated database plus raw SQL access for arranging and inspecting test data. */
export interface TestDatabase {
  db: Database;
  /** Its address, on the test Postgres server (openTestPostgres only). */
  url?: string;
  sql<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

/**
 * The settings a test database starts with. `demo` (the default): apply_demo_settings(), as `npm run
 * dev` does, so a test can withdraw what it has just credited; `production`: the strict defaults
 * (holds and locked bonus, tests/integration/bonus-holds.test.ts). See docs/decisions/066.
 */
export type TestSettings = "demo" | "production";

/** The migrated PGlite data directory `npm test` made once (scripts/lib/database.mjs), read once per file. */
let pgliteTemplate: Blob | null | undefined;
function migratedPgliteTemplate(): Blob | null {
  if (pgliteTemplate === undefined) {
    const file = process.env.TEST_PGLITE_TEMPLATE;
    pgliteTemplate = file ? new Blob([readFileSync(file)]) : null;
  }
  return pgliteTemplate;
}

/**
 * A fresh in-memory PGlite with every migration applied: a copy of the one `npm test` migrated (its
 * initdb and migrations are most of a new PGlite's cost), or made here without it. Migrating it
 * again checks it is up to date.
 */
export async function openTestPglite(settings: TestSettings = "demo"): Promise<TestDatabase> {
  const template = migratedPgliteTemplate();
  const pglite = template ? await PGlite.create({ loadDataDir: template }) : await PGlite.create();
  await migrateDatabase({ pglite }, MIGRATIONS_DIR);
  if (settings === "demo") await pglite.query("select apply_demo_settings()");
  return {
    db: pgliteDatabase(pglite),
    sql: async (text, values) => (await pglite.query(text, values)).rows as never[],
    close: () => pglite.close(),
  };
}

export function testPostgresUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is not set: run the tests through `npm test`");
  return url;
}

/**
 * A new database on the test Postgres server (dropped on close): empty, or (`template`) a copy of
 * that database.
 */
export async function createScratchDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = testPostgresUrl();
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  admin.on("error", () => {});
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  if (template) {
    // A copy leaves out the template's own settings (ALTER DATABASE … SET, such as jit = off): given again.
    const { rows } = await admin.query<{ setting: string }>(
      `select unnest(setconfig) as setting from pg_db_role_setting
        where setrole = 0 and setdatabase = (select oid from pg_database where datname = $1)`,
      [template],
    );
    for (const { setting } of rows) {
      const [key, ...value] = setting.split("=");
      await admin.query(`alter database ${name} set ${key} = '${value.join("=").replaceAll("'", "''")}'`);
    }
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      client.on("error", () => {});
      await client.connect();
      try {
        // FORCE ends the database's sessions but waits only 5 s for them to go; on a loaded
        // machine one may take longer (55006, "being accessed by other users"): wait and ask again.
        for (let attempt = 1; ; attempt++) {
          try {
            await client.query(`drop database if exists ${name} with (force)`);
            break;
          } catch (error) {
            if ((error as { code?: string }).code !== "55006" || attempt === 3) throw error;
            await new Promise((resolve) => setTimeout(resolve, 1_000));
          }
        }
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A new database with every migration applied: a copy of the one `npm test` migrated
 * (TEST_DATABASE_TEMPLATE; copying takes a fraction of migrating), else migrated here.
 */
export async function createMigratedDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const template = process.env.TEST_DATABASE_TEMPLATE;
  const scratch = await createScratchDatabase(template);
  if (!template) {
    const pool = new pg.Pool({ connectionString: scratch.url, max: 1 });
    pool.on("error", () => {});
    try {
      await migrateDatabase({ pool }, MIGRATIONS_DIR);
    } finally {
      await pool.end();
    }
  }
  return scratch;
}

/** A fresh database on the test Postgres server, migrated, with a pool of `max` connections. */
export async function openTestPostgres(max = 10, settings: TestSettings = "demo"): Promise<TestDatabase> {
  const scratch = await createMigratedDatabase();
  const pool = new pg.Pool({ connectionString: scratch.url, max });
  // Dropping the database terminates connections that are still closing; that is expected here.
  pool.on("error", () => {});
  await migrateDatabase({ pool }, MIGRATIONS_DIR);
  if (settings === "demo") await pool.query("select apply_demo_settings()");
  return {
    db: postgresDatabase(pool, () => new pg.Client({ connectionString: scratch.url })),
    url: scratch.url,
    sql: async (text, values) => (await pool.query(text, values)).rows,
    close: async () => {
      await pool.end();
      await scratch.drop();
    },
  };
}

/** The DbError a database call is refused with; fails the test if the call succeeds. */
export async function dbRefusal(promise: Promise<unknown>): Promise<DbError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DbError);
    return error as DbError;
  }
  throw new Error("expected the database to refuse");
}
