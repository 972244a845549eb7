import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { assertIdentifier, buildRpcCall, toDbError, type Database } from "./core.server";
import { applyMigrations, readMigrations } from "./migrations.server";

/** Embedded Postgres (WASM) in a data directory; `memory://` keeps it in memory. */
export async function openPgliteDatabase(dataDir: string, migrationsDir: string): Promise<Database> {
  if (!dataDir.startsWith("memory://")) await mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir);
  try {
    await migratePglite(pglite, migrationsDir);
  } catch (error) {
    await pglite.close();
    throw toDbError(error);
  }
  return pgliteDatabase(pglite);
}

/** PGlite has a single connection, so no lock is needed around the migrations. */
export async function migratePglite(pglite: PGlite, migrationsDir: string) {
  return applyMigrations(
    {
      transaction: (work) =>
        pglite.transaction((tx) =>
          work({
            exec: async (sql) => void (await tx.exec(sql)),
            query: async (sql, values) => (await tx.query(sql, values)).rows as never[],
          }),
        ),
    },
    await readMigrations(migrationsDir),
    false,
  );
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
    listen: async (channel, onMessage) => {
      const unsubscribe = await pglite.listen(assertIdentifier(channel), onMessage);
      return async () => unsubscribe();
    },
    close: () => pglite.close(),
  };
}
