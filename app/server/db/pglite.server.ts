import { mkdir } from "node:fs/promises";
import type { PGlite } from "@electric-sql/pglite";
import { assertIdentifier, prepareMigrated, sqlRpc, type Database } from "./core.server";

/**
 * Embedded Postgres (WASM) in a data directory; `memory://` keeps it in memory. With `migrate`
 * false (MIGRATE_ON_START=false) the migrations are only checked to be there.
 */
export async function openPgliteDatabase(dataDir: string, migrationsDir: string, migrate = true): Promise<Database> {
  if (!dataDir.startsWith("memory://")) await mkdir(dataDir, { recursive: true });
  // Loaded here, not at the top: a process on another transport (an app server or an operator
  // command on Postgres) never loads the WASM engine.
  const { PGlite } = await import("@electric-sql/pglite");
  const pglite = await PGlite.create(dataDir);
  await prepareMigrated({ pglite }, migrationsDir, migrate, () => pglite.close());
  return pgliteDatabase(pglite);
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
