import { mkdir } from "node:fs/promises";
import type { PGlite } from "@electric-sql/pglite";
import { assertIdentifier, prepareMigrated, sqlRpc, type Database } from "./core.server";
import { openPgliteThread } from "./pglite-thread.server";

/** Each wait before another try at reopening a lost thread, the last one repeated. */
const REOPEN_WAITS_MS = [500, 2_000, 10_000, 30_000];

/**
 * Embedded Postgres (WASM) in a data directory; `memory://` keeps it in memory. With `migrate`
 * false (MIGRATE_ON_START=false) the migrations are only checked to be there.
 */
export async function openPgliteDatabase(
  dataDir: string,
  migrationsDir: string,
  migrate = true,
  { threadHeapMb }: { threadHeapMb?: number } = {},
): Promise<Database> {
  const inMemory = dataDir.startsWith("memory://");
  if (!inMemory) await mkdir(dataDir, { recursive: true });
  let closed = false;
  // What each listener of the lost thread is told: it listens again (as after a Postgres restart).
  const onLostOfListeners = new Set<() => void>();

  const open = () => openPgliteThread(dataDir, { heapLimitMb: threadHeapMb, onLost: reopen });
  // A thread that ended by itself (out of memory, a failure of the engine) is opened again on the
  // same directory, where Postgres recovers what was committed (docs/decisions/106); meanwhile
  // statements fail as unavailable (503). An in-memory database's data ended with its thread:
  // reopening would hand out an empty database, so it stays unavailable until a restart.
  function reopen(error?: Error) {
    if (closed) return;
    for (const onLost of onLostOfListeners) onLost();
    onLostOfListeners.clear();
    if (inMemory) {
      console.error("the in-memory database ended with its thread: restart the server");
      return;
    }
    console.error("database thread lost, reopening:", error?.message ?? "it exited");
    const attempt = async (tries: number): Promise<void> => {
      const next = await open().catch((failure: Error) => failure);
      if (closed) return void (next instanceof Error || (await next.close()));
      if (!(next instanceof Error)) {
        thread = next;
        console.error("database thread reopened");
        return;
      }
      console.error("database thread could not be reopened:", next.message);
      const wait = REOPEN_WAITS_MS[Math.min(tries, REOPEN_WAITS_MS.length - 1)];
      setTimeout(() => void attempt(tries + 1), wait).unref();
    };
    void attempt(0);
  }

  // On a thread of its own (docs/decisions/102); the migrations run through it before any page.
  let thread = await open();
  const query = async (sql: string, values?: unknown[]) => thread.query(sql, values);
  const connection = {
    exec: (sql: string) => thread.exec(sql),
    query: async <R>(sql: string, values?: unknown[]) => (await query(sql, values)).rows as R[],
  };
  const close = async () => {
    closed = true;
    await thread.close();
  };
  await prepareMigrated({ connection }, migrationsDir, migrate, close);
  return {
    transport: "pglite",
    ...sqlRpc(query),
    async listen(channel, onMessage, onLost) {
      const stop = await thread.listen(assertIdentifier(channel), onMessage);
      const lost = () => onLost?.();
      onLostOfListeners.add(lost);
      return async () => {
        onLostOfListeners.delete(lost);
        await stop();
      };
    },
    close,
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
