import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import {
  assertIdentifier,
  buildRpcBatch,
  buildRpcCall,
  MigrationsPendingError,
  toDbError,
  type Database,
} from "./core.server";
import { applyMigrations, pendingMigrations, readMigrations, type MigrationTarget } from "./migrations.server";

/**
 * Embedded Postgres (WASM) in a data directory; `memory://` keeps it in memory. With `migrate`
 * false (MIGRATE_ON_START=false) the migrations are only checked to be there.
 */
export async function openPgliteDatabase(dataDir: string, migrationsDir: string, migrate = true): Promise<Database> {
  if (!dataDir.startsWith("memory://")) await mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir);
  try {
    if (migrate) {
      await migratePglite(pglite, migrationsDir);
    } else {
      const pending = await pendingMigrations(migrationTarget(pglite), await readMigrations(migrationsDir));
      if (pending.length > 0) throw new MigrationsPendingError(pending);
    }
  } catch (error) {
    await pglite.close();
    throw toDbError(error);
  }
  return pgliteDatabase(pglite);
}

/** PGlite has a single connection, so no lock is needed around the migrations. */
function migrationTarget(pglite: PGlite): MigrationTarget {
  return {
    transaction: (work) =>
      pglite.transaction((tx) =>
        work({
          exec: async (sql) => void (await tx.exec(sql)),
          query: async (sql, values) => (await tx.query(sql, values)).rows as never[],
        }),
      ),
  };
}

export async function migratePglite(pglite: PGlite, migrationsDir: string) {
  return applyMigrations(migrationTarget(pglite), await readMigrations(migrationsDir), false);
}

export function pgliteDatabase(pglite: PGlite): Database {
  return {
    transport: "pglite",
    async rpc<T>(fn: string, args?: Record<string, unknown>) {
      const { sql, values } = buildRpcCall(fn, args);
      try {
        const { rows } = await pglite.query<{ result: T }>(sql, values);
        return rows[0]!.result;
      } catch (error) {
        throw toDbError(error);
      }
    },
    async rpcBatch(calls) {
      const { sql, values, columns } = buildRpcBatch(calls);
      try {
        const { rows } = await pglite.query<Record<string, unknown>>(sql, values);
        return columns.map((column) => rows[0]![column]);
      } catch (error) {
        throw toDbError(error);
      }
    },
    listen: async (channel, onMessage) => {
      const unsubscribe = await pglite.listen(assertIdentifier(channel), onMessage);
      return async () => unsubscribe();
    },
    close: () => pglite.close(),
  };
}
