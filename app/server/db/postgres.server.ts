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
 * `pool` for queries; `listenerClient` makes the connection each LISTEN holds, outside the pool, so
 * listening never takes a connection from the queries, however small the pool.
 */
export function postgresDatabase(pool: pg.Pool, listenerClient: () => pg.Client): Database {
  // Connections held by LISTEN, ended when the database is closed.
  const listeners = new Set<() => void>();
  const connectListener = async () => {
    const client = listenerClient();
    // An error before listen() adds its handler must not crash the process (connect() reports it).
    client.on("error", () => {});
    await client.connect();
    return client;
  };
  return {
    transport: "postgres",
    ...sqlRpc((sql, values) => pool.query(sql, values)),
    // One connection per channel, held while listening; a lost one is ended.
    listen: async (channel, onMessage, onLost) => {
      const client = await connectListener().catch((error: unknown) => {
        throw toDbError(error);
      });
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        listeners.delete(end);
        void client.end().catch(() => {});
      };
      listeners.add(end);
      client.on("error", (error) => {
        console.error("postgres listen connection lost:", error.message);
        end();
        onLost?.();
      });
      client.on("notification", (message) => {
        if (message.channel === channel) onMessage(message.payload ?? "");
      });
      try {
        await client.query(`listen ${assertIdentifier(channel)}`);
      } catch (error) {
        end();
        throw toDbError(error);
      }
      // Unsubscribing ends the connection, and with it the LISTEN.
      return async () => end();
    },
    async close() {
      for (const end of [...listeners]) end();
      await pool.end();
    },
  };
}
