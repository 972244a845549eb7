import type pg from "pg";
import { assertIdentifier, prepareMigrated, sqlRpc, toDbError, type Database } from "./core.server";

/**
 * Any Postgres server: a pool, and the migrations applied under an advisory lock so many instances
 * can start at once; with `migrate` false (MIGRATE_ON_START=false), only checked to be there.
 */
export async function openPostgresDatabase(url: string, migrationsDir: string, migrate = true): Promise<Database> {
  // Loaded here, not at the top: only a process on this transport loads the driver.
  const { default: pg } = await import("pg");
  // A database that does not answer within 5 s fails the request (503) instead of hanging it.
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client losing its connection must not crash the process.
  pool.on("error", (error) => console.error("postgres pool error:", error.message));
  await prepareMigrated({ pool }, migrationsDir, migrate, () => pool.end());
  return postgresDatabase(pool);
}

export function postgresDatabase(pool: pg.Pool): Database {
  // Connections held by LISTEN; closing hands them back first, or the pool would wait for them.
  const listeners = new Set<() => void>();
  return {
    transport: "postgres",
    ...sqlRpc((sql, values) => pool.query(sql, values)),
    // One connection per channel, held from the pool while listening. A lost connection is
    // handed back broken (release(error) destroys it), so outages do not shrink the pool.
    listen: async (channel, onMessage, onLost) => {
      const client = await pool.connect().catch((error: unknown) => {
        throw toDbError(error);
      });
      let released = false;
      const release = (error?: Error | boolean) => {
        if (released) return;
        released = true;
        listeners.delete(stop);
        client.release(error);
      };
      const stop = () => release(true);
      listeners.add(stop);
      client.on("error", (error) => {
        console.error("postgres listen connection lost:", error.message);
        release(error);
        onLost?.();
      });
      const handler = (message: pg.Notification) => {
        if (message.channel === channel) onMessage(message.payload ?? "");
      };
      client.on("notification", handler);
      try {
        await client.query(`listen ${assertIdentifier(channel)}`);
      } catch (error) {
        release(error as Error);
        throw toDbError(error);
      }
      return async () => {
        client.off("notification", handler);
        await client.query(`unlisten ${assertIdentifier(channel)}`).catch(() => {});
        release();
      };
    },
    async close() {
      for (const stop of [...listeners]) stop();
      await pool.end();
    },
  };
}
