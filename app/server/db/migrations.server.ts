// Loaded by the app and, as it is, by the Node scripts (scripts/lib/database.mjs): relative and
// `node:` imports only, the drivers as types.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

interface MigrationTransaction {
  exec(sql: string): Promise<void>;
  query<R>(sql: string, values?: unknown[]): Promise<R[]>;
}

/** A place that can run a migration script inside one transaction. */
interface MigrationTarget {
  /** Runs `work` in a transaction; `exec` runs multi-statement SQL, `query` one parameterised statement. */
  transaction<T>(work: (tx: MigrationTransaction) => Promise<T>): Promise<T>;
}

const FILE_NAME = /^(\d{14})_([\w-]+)\.sql$/;

/** The Supabase CLI's layout: supabase/migrations/<14-digit timestamp>_<name>.sql, in order. */
export async function readMigrations(directory: string): Promise<Migration[]> {
  const files = (await readdir(directory)).filter((file) => file.endsWith(".sql")).sort();
  return Promise.all(
    files.map(async (file) => {
      const match = FILE_NAME.exec(file);
      if (!match) throw new Error(`Migration file name must be <timestamp>_<name>.sql: ${file}`);
      return { version: match[1]!, name: match[2]!, sql: await readFile(path.join(directory, file), "utf8") };
    }),
  );
}

// An arbitrary constant: all app instances starting together take turns on this lock.
const MIGRATION_LOCK_KEY = 727_001;

/** Applies the migrations not yet recorded, each exactly once, all in one transaction. */
async function applyMigrations(target: MigrationTarget, migrations: Migration[], withLock: boolean) {
  return target.transaction(async (tx) => {
    if (withLock) await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await tx.exec(`
      create schema if not exists app_meta;
      create table if not exists app_meta.schema_migrations (
        version text primary key,
        name text not null,
        applied_at timestamptz not null default now()
      );`);
    const pending = await notApplied(tx, migrations);
    for (const migration of pending) {
      await tx.exec(migration.sql);
      await tx.query("insert into app_meta.schema_migrations (version, name) values ($1, $2)", [
        migration.version,
        migration.name,
      ]);
    }
    return pending.map((migration) => migration.version);
  });
}

async function notApplied(tx: MigrationTransaction, migrations: Migration[]): Promise<Migration[]> {
  const rows = await tx.query<{ version: string }>("select version from app_meta.schema_migrations");
  const applied = new Set(rows.map((row) => row.version));
  return migrations.filter((migration) => !applied.has(migration.version));
}

/** The migrations not applied yet, read without changing anything (all of them on a new database). */
async function pendingMigrations(target: MigrationTarget, migrations: Migration[]): Promise<Migration[]> {
  return target.transaction(async (tx) => {
    const [table] = await tx.query<{ found: boolean }>(
      "select to_regclass('app_meta.schema_migrations') is not null as found",
    );
    return table?.found ? notApplied(tx, migrations) : migrations;
  });
}

/**
 * A database the migrations can run on: PGlite, a connection that nothing else uses meanwhile
 * (PGlite on its own thread, opening), or a Postgres server through a pool.
 */
export type MigratableDatabase = { pglite: PGlite } | { connection: MigrationTransaction } | { pool: pg.Pool };

function migrationTarget(db: MigratableDatabase): MigrationTarget {
  if ("connection" in db) {
    const { connection } = db;
    return {
      async transaction(work) {
        await connection.exec("begin");
        try {
          const result = await work(connection);
          await connection.exec("commit");
          return result;
        } catch (error) {
          await connection.exec("rollback").catch(() => {});
          throw error;
        }
      },
    };
  }
  // PGlite has a single connection; a pool's transaction holds one of its connections throughout.
  if ("pglite" in db) {
    return {
      transaction: (work) =>
        db.pglite.transaction((tx) =>
          work({
            exec: async (sql) => void (await tx.exec(sql)),
            query: async (sql, values) => (await tx.query(sql, values)).rows as never[],
          }),
        ),
    };
  }
  return {
    async transaction(work) {
      const client = await db.pool.connect();
      try {
        await client.query("begin");
        const result = await work({
          exec: async (sql) => void (await client.query(sql)),
          query: async (sql, values) => (await client.query(sql, values)).rows,
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
  };
}

/**
 * Applies the migrations in `migrationsDir` that `db` lacks and returns their versions. On Postgres
 * under the advisory lock, since many instances may start at once; PGlite has one connection.
 */
export async function migrateDatabase(db: MigratableDatabase, migrationsDir: string): Promise<string[]> {
  return applyMigrations(migrationTarget(db), await readMigrations(migrationsDir), "pool" in db);
}

/** The migrations in `migrationsDir` that `db` lacks, read without changing anything. */
export async function missingMigrations(db: MigratableDatabase, migrationsDir: string): Promise<Migration[]> {
  return pendingMigrations(migrationTarget(db), await readMigrations(migrationsDir));
}
