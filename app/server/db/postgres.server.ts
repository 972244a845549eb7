import type pg from "pg";
import { assertIdentifier, prepareMigrated, sqlRpc, toDbError, type Database } from "./core.server";

/**
 * Any Postgres server: a pool of `poolSize` connections for queries (DATABASE_POOL_SIZE), and the
 * migrations applied under an advisory lock so many instances can start at once; with `migrate`
 * false (MIGRATE_ON_START=false), only checked to be there.
 */
export async function openPostgresDatabase(
  url: string,
  migrationsDir: string,
  migrate = true,
  poolSize = 10,
): Promise<Database> {
  // Loaded here, not at the top: only a process on this transport loads the driver.
  const { default: pg } = await import("pg");
  // A database that does not answer within 5 s fails the request (503) instead of hanging it.
  const options = { connectionString: url, connectionTimeoutMillis: 5_000 };
  const pool = new pg.Pool({ ...options, max: poolSize, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process.
  pool.on("error", (error) => console.error("postgres pool error:", error.message));
  await prepareMigrated({ pool }, migrationsDir, migrate, () => pool.end());
  return postgresDatabase(pool, () => new pg.Client(options));
}

/**
 * `pool` for queries; `listenerClient` makes the connection each LISTEN holds, outside the pool,
 * so listening never takes a connection from the queries, however small the pool (by default,
 * one borrowed from the pool).
 */
export function postgresDatabase(pool: pg.Pool, listenerClient?: () => pg.Client): Database {
  // Connections held by LISTEN; closing ends them first (a borrowed one must be handed back before
  // the pool can end).
  const listeners = new Set<() => void>();
  const connectListener = async (): Promise<{ client: pg.ClientBase; end: (error?: Error | boolean) => void }> => {
    if (!listenerClient) {
      const client = await pool.connect();
      return { client, end: (error) => client.release(error) };
    }
    const client = listenerClient();
    // An error before listen() adds its handler must not crash the process (connect() reports it).
    client.on("error", () => {});
    await client.connect();
    return { client, end: () => void client.end().catch(() => {}) };
  };
  return {
    transport: "postgres",
    ...sqlRpc((sql, values) => pool.query(sql, values)),
    // One connection per channel, held while listening. A lost one is ended (or handed back
    // broken, which destroys it), so outages do not shrink the pool.
    listen: async (channel, onMessage, onLost) => {
      const { client, end } = await connectListener().catch((error: unknown) => {
        throw toDbError(error);
      });
      let released = false;
      const release = (error?: Error | boolean) => {
        if (released) return;
        released = true;
        listeners.delete(stop);
        end(error);
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
