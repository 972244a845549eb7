import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerAudit } from "../support/ledger-audit";
import { dbRefusal, openTestPglite, type TestDatabase } from "../support/db";
import { endHolds } from "../support/holds";
import { provisionMember, recordPostback } from "../support/arrange";

// Bonus money and holds (supabase/migrations/20261130000000_bonus_money_and_holds.sql,
// docs/decisions/066-bonus-money-and-holds.md): each ledger row's kind and clearing time, what a
// person may withdraw, and the demo settings.

interface Money {
  balance: number;
  available: number;
  pending: number;
  next_clear_at: string | null;
  bonus_locked: number;
  earned_to_unlock: number | null;
}

const provision = (t: TestDatabase, { coins = 0 } = {}) =>
  provisionMember(t, { prefix: "hold", name: "Holder", coins });

function withdraw(t: TestDatabase, userId: string, amount: number) {
  return t.db.rpc("create_withdrawal", {
    p_user_id: userId,
    amount_param: amount,
    payment_method_param: "upi",
    recipient_upi_param: "me@upi",
  });
}

async function money(t: TestDatabase, userId: string): Promise<Money> {
  const summary = await t.db.rpc<Record<string, unknown>>("get_user_summary", { p_user_id: userId });
  const number = (key: string) => (summary[key] === null ? null : Number(summary[key]));
  return {
    balance: number("balance")!,
    available: number("available")!,
    pending: number("pending")!,
    next_clear_at: (summary.next_clear_at as string | null) ?? null,
    bonus_locked: number("bonus_locked")!,
    earned_to_unlock: number("earned_to_unlock"),
  };
}

/** One of the app's own tasks, started and (its five seconds passed in the database) completed. */
async function completeOwnTask(t: TestDatabase, userId: string, taskId: string, reward: number) {
  await t.db.rpc("start_task", { p_user_id: userId, p_task_id: taskId, p_title: `Task ${taskId}`, p_reward: reward });
  await t.sql("update task_starts set started_at = started_at - interval '6 seconds' where user_id = $1", [userId]);
  await t.db.rpc("complete_task", { p_user_id: userId, p_task_id: taskId, p_min_seconds: 5 });
}

const strict = "update app_config set postback_hold_days = 7, provider_hold_days = '{}', bonus_unlock_ratio = 1.0";

// The rules are SQL, run here on PGlite (Postgres's own engine, compiled); the HTTP suite runs them
// again through the app on the Postgres server, and races are proven on the server
// (tests/integration/concurrency.test.ts, tests/http/pooler.test.ts).
describe.each([["PGlite", () => openTestPglite("production")]])("bonus money and holds on %s", (_name, open) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("gives every ledger row its kind: postbacks and their reversals earned, other credits bonus, withdrawals none", async () => {
    await t.db.rpc("apply_demo_settings");
    try {
      const userId = await provision(t, { coins: 700 });
      await t.db.rpc("daily_checkin", { p_user_id: userId });
      await recordPostback(t, userId, `${userId}-a`, 500);
      await recordPostback(t, userId, `${userId}-a`, 200, { reversal: true });
      await withdraw(t, userId, 5);
      const rows = await t.sql<{ transaction_type: string; kind: string | null }>(
        "select transaction_type, kind from transaction_history where user_id = $1 order by id",
        [userId],
      );
      expect(rows).toEqual([
        { transaction_type: "bonus", kind: "bonus" },
        { transaction_type: "checkin", kind: "bonus" },
        { transaction_type: "postback", kind: "earned" },
        { transaction_type: "postback_reversal", kind: "earned" },
        { transaction_type: "withdrawal", kind: null },
      ]);
      expect((await ledgerAudit(t.sql)).problems).toEqual([]);
    } finally {
      await t.sql(strict);
    }
  });

  it("keeps a postback pending for app_config.postback_hold_days (default 7) and refuses to withdraw it until it clears", async () => {
    expect(await t.sql("select postback_hold_days, bonus_unlock_ratio::float8 as ratio from app_config")).toEqual([
      { postback_hold_days: 7, ratio: 1 },
    ]);
    const userId = await provision(t);
    await recordPostback(t, userId, `${userId}-a`, 1000);
    const before = await money(t, userId);
    expect(before).toMatchObject({ balance: 10, available: 0, pending: 10, bonus_locked: 0 });
    const days = (Date.parse(before.next_clear_at!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    expect((await dbRefusal(withdraw(t, userId, 5))).message).toBe("Amount exceeds your available balance");

    await endHolds(t, userId);
    expect(await money(t, userId)).toMatchObject({ balance: 10, available: 10, pending: 0, next_clear_at: null });
    await withdraw(t, userId, 10);
    expect(await money(t, userId)).toMatchObject({ balance: 0, available: 0 });
    expect((await ledgerAudit(t.sql)).problems).toEqual([]);
  });

  it("holds a provider's postbacks for its own app_config.provider_hold_days entry", async () => {
    await t.sql(`update app_config set provider_hold_days = '{"quick": 0, "slow": 30}'`);
    try {
      const userId = await provision(t);
      await recordPostback(t, userId, `${userId}-q`, 300, { provider: "quick" });
      await recordPostback(t, userId, `${userId}-s`, 200, { provider: "slow" });
      const now = await money(t, userId);
      expect(now).toMatchObject({ balance: 5, available: 3, pending: 2 });
      expect((Date.parse(now.next_clear_at!) - Date.now()) / 86_400_000).toBeGreaterThan(29.99);
    } finally {
      await t.sql(strict);
    }
  });

  it("takes a reversal during the hold from the pending money, leaving the available money whole", async () => {
    const userId = await provision(t);
    await recordPostback(t, userId, `${userId}-old`, 500);
    await endHolds(t, userId);
    await recordPostback(t, userId, `${userId}-new`, 1000);
    expect(await money(t, userId)).toMatchObject({ balance: 15, available: 5, pending: 10 });
    await recordPostback(t, userId, `${userId}-new`, 1000, { reversal: true });
    expect(await money(t, userId)).toMatchObject({ balance: 5, available: 5, pending: 0, next_clear_at: null });
    // A cleared credit's reversal comes off the available money.
    await recordPostback(t, userId, `${userId}-old`, 500, { reversal: true });
    expect(await money(t, userId)).toMatchObject({ balance: 0, available: 0, pending: 0 });
    expect((await ledgerAudit(t.sql)).problems).toEqual([]);
  });

  it("unlocks bonus money up to app_config.bonus_unlock_ratio times the cleared earned money, and says how much more earning unlocks the rest", async () => {
    const userId = await provision(t, { coins: 1000 });
    expect(await money(t, userId)).toMatchObject({ balance: 10, available: 0, bonus_locked: 10, earned_to_unlock: 10 });
    expect((await dbRefusal(withdraw(t, userId, 1))).message).toBe("Amount exceeds your available balance");

    await recordPostback(t, userId, `${userId}-a`, 400);
    // Pending earned money unlocks nothing.
    expect(await money(t, userId)).toMatchObject({ balance: 14, available: 0, pending: 4, bonus_locked: 10 });
    await endHolds(t, userId);
    expect(await money(t, userId)).toMatchObject({ balance: 14, available: 8, bonus_locked: 6, earned_to_unlock: 6 });
    expect((await dbRefusal(withdraw(t, userId, 8.01))).message).toBe("Amount exceeds your available balance");
    await withdraw(t, userId, 8);
    expect(await money(t, userId)).toMatchObject({ balance: 6, available: 0, bonus_locked: 6 });

    await t.sql("update app_config set bonus_unlock_ratio = 0.5");
    try {
      expect(await money(t, userId)).toMatchObject({ available: 0, bonus_locked: 8, earned_to_unlock: 16 });
    } finally {
      await t.sql(strict);
    }
    expect((await ledgerAudit(t.sql)).problems).toEqual([]);
  });

  it("refuses a negative balance before checking the available amount (docs/decisions/065)", async () => {
    const userId = await provision(t);
    await recordPostback(t, userId, `${userId}-a`, 500);
    await endHolds(t, userId);
    await withdraw(t, userId, 5);
    await recordPostback(t, userId, `${userId}-a`, 500, { reversal: true });
    expect((await dbRefusal(withdraw(t, userId, 1))).message).toBe("Your balance is negative");
  });

  it("apply_demo_settings() makes postbacks and bonus money withdrawable at once", async () => {
    await t.db.rpc("apply_demo_settings");
    try {
      const userId = await provision(t, { coins: 300 });
      await recordPostback(t, userId, `${userId}-a`, 200);
      expect(await money(t, userId)).toMatchObject({ balance: 5, available: 5, pending: 0, bonus_locked: 0 });
      await withdraw(t, userId, 5);
    } finally {
      await t.sql(strict);
    }
  });
  it("Recent Activity locks the newest bonus credits first, up to what is locked, and shows an offer credit's clearing time (issue 36)", async () => {
    const userId = await provision(t);
    for (const coins of [100, 100, 100])
      await t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: coins });
    // $1.00 of cleared offer earnings unlocks $1.00 of the $3.00 bonus: the oldest credit.
    await recordPostback(t, userId, `${userId}-cleared`, 100);
    await endHolds(t, userId);
    await recordPostback(t, userId, `${userId}-held`, 50);
    expect(await money(t, userId)).toMatchObject({ bonus_locked: 2, pending: 0.5 });
    const rows = await t.db.rpc<{ transaction_type: string; locked: boolean; available_at: string }[]>(
      "get_recent_activity",
      { p_user_id: userId, p_limit: 10 },
    );
    expect(rows.map((row) => [row.transaction_type, row.locked])).toEqual([
      ["postback", false],
      ["postback", false],
      ["bonus", true],
      ["bonus", true],
      ["bonus", false],
    ]);
    expect(Date.parse(rows[0]!.available_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect(Date.parse(rows[1]!.available_at)).toBeLessThanOrEqual(Date.now());
  });

  it("stamps a bonus notice with whether bonus money was locked once it was added, and an offer's with its clearing time", async () => {
    const userId = await provision(t);
    await completeOwnTask(t, userId, "task-004", 150);
    await recordPostback(t, userId, `${userId}-offer`, 200);
    const notices = await t.sql<{ kind: string; data: { locked?: boolean; available_at?: string } }>(
      "select kind, data from user_notices where user_id = $1 order by id",
      [userId],
    );
    expect(notices.map((notice) => [notice.kind, notice.data.locked])).toEqual([
      ["task_reward", true],
      ["postback_reward", undefined],
    ]);
    expect(Date.parse(notices[1]!.data.available_at!)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    // Demo settings unlock every bonus at once: the next one is not locked.
    await t.db.rpc("apply_demo_settings");
    try {
      await completeOwnTask(t, userId, "task-005", 100);
      const [last] = await t.sql<{ data: { locked?: boolean } }>(
        "select data from user_notices where user_id = $1 order by id desc limit 1",
        [userId],
      );
      expect(last!.data.locked).toBe(false);
    } finally {
      await t.sql(strict);
    }
  });
});
