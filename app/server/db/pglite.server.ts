import { mkdir } from "node:fs/promises";
import type { PGlite } from "@electric-sql/pglite";
import { assertIdentifier, prepareMigrated, sqlRpc, type Database } from "./core.server";
import { openPgliteThread } from "./pglite-thread.server";

/**
 * Embedded Postgres (WASM) in a data directory; `memory://` keeps it in memory. With `migrate`
 * false (MIGRATE_ON_START=false) the migrations are only checked to be there.
 */
export async function openPgliteDatabase(dataDir: string, migrationsDir: string, migrate = true): Promise<Database> {
  if (!dataDir.startsWith("memory://")) await mkdir(dataDir, { recursive: true });
  // On a thread of its own (docs/decisions/102); the migrations run through it before any page.
  const thread = await openPgliteThread(dataDir);
  const connection = {
    exec: thread.exec,
    query: async <R>(sql: string, values?: unknown[]) => (await thread.query(sql, values)).rows as R[],
  };
  await prepareMigrated({ connection }, migrationsDir, migrate, () => thread.close());
  return {
    transport: "pglite",
    ...sqlRpc(thread.query),
    listen: (channel, onMessage) => thread.listen(assertIdentifier(channel), onMessage),
    close: thread.close,
  };
}

export function pgliteDatabase(pglite: PGlite): Database {
  return {
    transport: "pglite",
    ...sqlRpc((sql, values) => pglite.query(sql, values)),
    listen: async (channel, onMessage) => {
      const unsubscribe = await pglite.listen(assertIdentifier(channel), onMessage);
      return async () => unsubscribe();
    },
    close: () => pglite.close(),
  };
}
