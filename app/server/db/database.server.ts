import type { Env } from "../env.server";
import { getEnv } from "../env.server";
import type { Database } from "./core.server";

export async function openDatabase(env: Env): Promise<Database> {
  const config = env.database;
  switch (config.kind) {
    case "pglite": {
      const { openPgliteDatabase } = await import("./pglite.server");
      return openPgliteDatabase(config.dataDir, env.migrationsDir);
    }
    case "postgres": {
      const { openPostgresDatabase } = await import("./postgres.server");
      return openPostgresDatabase(config.url, env.migrationsDir);
    }
    case "supabase": {
      const { openSupabaseDatabase } = await import("./supabase.server");
      return openSupabaseDatabase(config.url, config.serviceRoleKey);
    }
  }
}

// Kept on globalThis so that `remix dev` rebuilds reuse one instance (PGlite holds ~800 MB).
const globalStore = globalThis as typeof globalThis & { __appDatabase?: Promise<Database> };

/** The process-wide database, opened (and migrated) on first use. */
export function getDatabase(): Promise<Database> {
  if (!globalStore.__appDatabase) {
    globalStore.__appDatabase = openDatabase(getEnv()).catch((error: unknown) => {
      globalStore.__appDatabase = undefined;
      throw error;
    });
  }
  return globalStore.__appDatabase;
}
