import { getEnv, type Env } from "../runtime/env.server";
import { serviceUnavailable } from "../runtime/unavailable.server";
import { DbError, MigrationsPendingError, type Database } from "./core.server";

export async function openDatabase(env: Env): Promise<Database> {
  const config = env.database;
  switch (config.kind) {
    case "pglite": {
      const { openPgliteDatabase } = await import("./pglite.server");
      return openPgliteDatabase(config.dataDir, env.migrationsDir, env.migrateOnStart);
    }
    case "postgres": {
      const { openPostgresDatabase } = await import("./postgres.server");
      return openPostgresDatabase(config.url, env.migrationsDir, env.migrateOnStart, config.poolSize);
    }
    case "supabase": {
      const { openSupabaseDatabase } = await import("./supabase.server");
      return openSupabaseDatabase(config.url, config.serviceRoleKey);
    }
  }
}

function isUnavailable(error: unknown): error is DbError {
  return error instanceof DbError && error.unavailable;
}

/** Requests meet an unreachable database as a 503 page, not a 500; rule violations pass as they are. */
function answeringUnavailable(db: Database): Database {
  const unavailableAsResponse = (what: string) => (error: unknown) => {
    if (!isUnavailable(error)) throw error;
    console.error(`database unavailable (${what}):`, error.message);
    throw serviceUnavailable();
  };
  return {
    ...db,
    rpc: <T>(fn: string, args?: Record<string, unknown>) => db.rpc<T>(fn, args).catch(unavailableAsResponse(fn)),
    rpcBatch: (calls) => db.rpcBatch(calls).catch(unavailableAsResponse(calls.map((call) => call.fn).join(", "))),
  };
}

// Kept on globalThis so that `remix dev` rebuilds reuse one instance (PGlite holds ~800 MB).
const globalStore = globalThis as typeof globalThis & {
  __appDatabase?: Promise<Database>;
  __databaseClosed?: boolean;
  __migrationsPending?: boolean;
};

/**
 * The process-wide database, opened (and migrated) on first use. A failed open is forgotten,
 * so the next request tries again: the app recovers by itself when the database is back.
 */
export function getDatabase(): Promise<Database> {
  // Shutting down: nothing opens it again (a retry timer, a late request).
  if (globalStore.__databaseClosed) return Promise.reject(serviceUnavailable());
  globalStore.__appDatabase ??= openDatabase(getEnv())
    .then((db) => {
      globalStore.__migrationsPending = false;
      return answeringUnavailable(db);
    })
    .catch((error: unknown) => {
      globalStore.__appDatabase = undefined;
      globalStore.__migrationsPending = error instanceof MigrationsPendingError;
      if (!isUnavailable(error)) throw error;
      console.error("database unavailable:", error.message);
      throw serviceUnavailable();
    });
  return globalStore.__appDatabase;
}

/**
 * With MIGRATE_ON_START=false, no page is served before the database has been opened once and found
 * to have every migration of this version: until then this throws the 503 page (the root loader
 * calls it). Once open it costs nothing; later outages are met where the database is used.
 */
export async function requireDatabaseReady(): Promise<void> {
  if (!getEnv().migrateOnStart) await getDatabase();
}

/** Whether the last try to open the database found it lacking migrations (MIGRATE_ON_START=false), for /healthz. */
export function migrationsPending(): boolean {
  return globalStore.__migrationsPending === true;
}

/** Closes the process-wide database, if open (shutdown): queries under way finish first. */
export async function closeDatabase(): Promise<void> {
  const open = globalStore.__appDatabase;
  globalStore.__appDatabase = undefined;
  globalStore.__databaseClosed = true;
  if (open) await (await open.catch(() => null))?.close();
}
