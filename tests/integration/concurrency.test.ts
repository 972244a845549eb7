import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db.server";
import { openPostgresDatabase } from "~/server/db-postgres.server";
import type { UserSummary } from "~/server/users.server";
import { createScratchDatabase, MIGRATIONS_DIR, openTestPostgres, type TestDatabase } from "../support/db";

// PGlite has one connection, so races can only be shown on a real Postgres server.
describe("concurrency on a Postgres server", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPostgres(20);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lets several app instances start at once: migrations run exactly once", async () => {
    const scratch = await createScratchDatabase();
    const instances: Database[] = [];
    try {
      instances.push(...(await Promise.all(Array.from({ length: 4 }, () => openPostgresDatabase(scratch.url, MIGRATIONS_DIR)))));
      for (const db of instances) expect(await db.rpc("app_health")).toMatchObject({ ok: true });
    } finally {
      await Promise.all(instances.map((db) => db.close()));
      await scratch.drop();
    }
  });

  it("provisions a user once when sign-ins race", async () => {
    const userId = `race-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.db.rpc<UserSummary>("provision_user", { p_user_id: userId, p_email: "r@example.com", p_display_name: "Racer" }),
      ),
    );
    expect(new Set(results.map((result) => result.referral_code)).size).toBe(1);
    const [count] = await t.sql<{ n: number }>(
      "select (select count(*) from user_profiles where id = $1)::int + (select count(*) from user_balance where user_id = $1)::int + (select count(*) from notification_preferences where user_id = $1)::int as n",
      [userId],
    );
    expect(count!.n).toBe(3);
  });

  it("never lets racing withdrawals overdraw a balance", async () => {
    const userId = `overdraw-${Date.now()}`;
    await t.db.rpc("provision_user", { p_user_id: userId, p_email: null, p_display_name: "x" });
    await t.sql("insert into transaction_history (user_id, description, transaction_type, amount, status) values ($1, 'Test credit', 'task', 10, 'completed')", [userId]);
    await t.sql("update user_balance set balance = 10, total_earned = 10 where user_id = $1", [userId]);
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        t.db.rpc("create_withdrawal", {
          p_user_id: userId,
          amount_param: 5,
          payment_method_param: "paypal",
          recipient_email_param: "me@example.com",
          recipient_upi_param: null,
          recipient_bank_details_param: null,
        }),
      ),
    );
    const succeeded = attempts.filter((attempt) => attempt.status === "fulfilled");
    const refused = attempts.filter((attempt) => attempt.status === "rejected");
    expect(succeeded).toHaveLength(2);
    for (const attempt of refused) expect((attempt as PromiseRejectedResult).reason.message).toBe("Amount exceeds your available balance");
    expect(await t.db.rpc("verify_user_balance", { p_user_id: userId })).toMatchObject({ balance: 0, consistent: true });
  });
});
