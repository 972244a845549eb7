import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresDatabase } from "~/server/db/postgres.server";
import { createMigratedDatabase, MIGRATIONS_DIR } from "../support/db";

// DATABASE_POOL_SIZE (docs/configuration.md): the connections a server queries through. Each LISTEN
// holds a connection of its own beside them, so listening never starves the queries, however small
// the pool.

describe("the Postgres transport's connections", () => {
  let scratch: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let admin: pg.Client;
  beforeAll(async () => {
    scratch = await createMigratedDatabase();
    admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await scratch?.drop();
  });

  /** Backends connected to the scratch database, other than the test's own. */
  const connections = async () =>
    (
      await admin.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      )
    ).rows[0]!.n;

  it("with a pool of one, three channels listened to leave the query connection free: calls answer and each notification reaches its listener", async () => {
    const db = await openPostgresDatabase(scratch.url, MIGRATIONS_DIR, false, 1);
    try {
      const received: string[] = [];
      const arrived = new Map<string, () => void>();
      const arrival = (channel: string) => new Promise<void>((resolve) => arrived.set(channel, resolve));
      const channels = ["pool_test_a", "pool_test_b", "pool_test_c"];
      for (const channel of channels) {
        await db.listen!(channel, (payload) => {
          received.push(`${channel}:${payload}`);
          arrived.get(channel)?.();
        });
      }
      // Three listening connections and the pool's one.
      expect(await db.rpc("app_health")).toBeTruthy();
      expect(await connections()).toBe(channels.length + 1);
      const waits = channels.map(arrival);
      for (const channel of channels) await admin.query("select pg_notify($1, 'x')", [channel]);
      await Promise.all(waits);
      expect(received.sort()).toEqual(channels.map((channel) => `${channel}:x`));
    } finally {
      await db.close();
    }
    // Closing ends the listeners' connections too (each leaves as its backend exits).
    while ((await connections()) > 0) await new Promise((resolve) => setImmediate(resolve));
  });

  it("answers many calls at once through a pool of two, with never more than two query connections", async () => {
    const db = await openPostgresDatabase(scratch.url, MIGRATIONS_DIR, false, 2);
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, () => db.rpc("app_health")));
      expect(answers.every(Boolean)).toBe(true);
      expect(await connections()).toBeLessThanOrEqual(2);
    } finally {
      await db.close();
    }
  });
});
