import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedInDaysAgo, lastDays } from "../support/checkins";
import { dbRefusal, openTestPostgres, type TestDatabase } from "../support/db";
import { ledgerAudit } from "../support/ledger-audit";
import { provisionMember } from "../support/arrange";

// The check-in streak and its day 7 bonus (docs/decisions/072), on a Postgres server where racing
// claims really run at once, on the production settings.

interface Status {
  checked_in_today: boolean;
  streak_days: number;
  streak_day: number;
  bonus_coins: number;
  bonus_paid_today: number;
}

describe("check-in streak and the day 7 bonus, on Postgres", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await openTestPostgres(20, "production");
  });
  afterAll(async () => {
    await t?.close();
  });

  // No email, not verified (provision_user's default): the streak needs neither.
  const provision = () => provisionMember(t, { prefix: "streak", name: "Streaker", email: null, verified: false });

  const status = (userId: string) => t.db.rpc<Status>("get_checkin_status", { p_user_id: userId });
  const checkIn = (userId: string) =>
    t.db.rpc<{ coins: number; balance: number; streak_day: number; bonus_coins: number }>("daily_checkin", {
      p_user_id: userId,
    });

  async function ledger(userId: string) {
    return t.sql<{ transaction_type: string; kind: string; coins: number; amount: string }>(
      "select transaction_type, kind, coins, amount from transaction_history where user_id = $1 order by id",
      [userId],
    );
  }

  it("counts consecutive UTC days: a new account is on day 1, two days before today make today day 3", async () => {
    const fresh = await provision();
    expect(await status(fresh)).toMatchObject({ checked_in_today: false, streak_days: 0, streak_day: 1 });
    const userId = await provision();
    await checkedInDaysAgo(t, userId, [1, 2]);
    expect(await status(userId)).toMatchObject({ checked_in_today: false, streak_days: 2, streak_day: 3 });
    expect(await checkIn(userId)).toMatchObject({ coins: 10, streak_day: 3, bonus_coins: 0 });
    expect(await status(userId)).toMatchObject({ checked_in_today: true, streak_days: 3, streak_day: 3 });
  });

  it("starts again at day 1 after a missed UTC day, whatever came before it", async () => {
    const userId = await provision();
    // Five days in a row, then yesterday missed.
    await checkedInDaysAgo(t, userId, [2, 3, 4, 5, 6]);
    expect(await status(userId)).toMatchObject({ streak_days: 0, streak_day: 1 });
    expect(await checkIn(userId)).toMatchObject({ streak_day: 1, bonus_coins: 0 });
    expect(await status(userId)).toMatchObject({ checked_in_today: true, streak_days: 1, streak_day: 1 });
  });

  it("pays the day 7 bonus (50 coins, app_config) as bonus money with the day's check-in, and refuses a second claim without paying again", async () => {
    const userId = await provision();
    await checkedInDaysAgo(t, userId, lastDays(6));
    expect(await status(userId)).toMatchObject({ streak_day: 7, bonus_coins: 50, bonus_paid_today: 0 });
    expect(await checkIn(userId)).toMatchObject({ coins: 10, streak_day: 7, bonus_coins: 50, balance: 0.6 });
    expect(await ledger(userId)).toEqual([
      { transaction_type: "checkin", kind: "bonus", coins: 10, amount: "0.10" },
      { transaction_type: "bonus", kind: "bonus", coins: 50, amount: "0.50" },
    ]);
    expect((await dbRefusal(checkIn(userId))).hint).toBe("already_checked_in");
    expect(await ledger(userId)).toHaveLength(2);
    expect(await status(userId)).toMatchObject({
      checked_in_today: true,
      streak_days: 7,
      streak_day: 7,
      bonus_paid_today: 50,
    });
  });

  it("starts a new week at day 1 the day after day 7, and pays again on day 14 only", async () => {
    const userId = await provision();
    await checkedInDaysAgo(t, userId, lastDays(7));
    expect(await status(userId)).toMatchObject({ streak_days: 7, streak_day: 1 });
    expect(await checkIn(userId)).toMatchObject({ streak_day: 1, bonus_coins: 0 });

    const second = await provision();
    await checkedInDaysAgo(t, second, lastDays(13));
    expect(await checkIn(second)).toMatchObject({ streak_day: 7, bonus_coins: 50 });
  });

  it("pays what app_config.checkin_streak_bonus_coins says, and nothing when it is 0", async () => {
    try {
      await t.sql("update app_config set checkin_streak_bonus_coins = 120");
      const userId = await provision();
      await checkedInDaysAgo(t, userId, lastDays(6));
      expect(await checkIn(userId)).toMatchObject({ bonus_coins: 120, balance: 1.3 });

      await t.sql("update app_config set checkin_streak_bonus_coins = 0");
      const none = await provision();
      await checkedInDaysAgo(t, none, lastDays(6));
      expect(await checkIn(none)).toMatchObject({ streak_day: 7, bonus_coins: 0, balance: 0.1 });
      expect(await ledger(none)).toHaveLength(1);
    } finally {
      await t.sql("select apply_production_settings()");
    }
    expect((await t.sql<{ n: number }>("select checkin_streak_bonus_coins as n from app_config"))[0]!.n).toBe(50);
  });

  it("20 racing day 7 claims: one check-in, one bonus, the balance equals its ledger", async () => {
    const userId = await provision();
    await checkedInDaysAgo(t, userId, lastDays(6));
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => checkIn(userId)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected") expect((result.reason as { hint?: string }).hint).toBe("already_checked_in");
    }
    expect(await ledger(userId)).toEqual([
      { transaction_type: "checkin", kind: "bonus", coins: 10, amount: "0.10" },
      { transaction_type: "bonus", kind: "bonus", coins: 50, amount: "0.50" },
    ]);
    const [row] = await t.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [userId]);
    expect(Number(row!.balance)).toBe(0.6);
    expect((await ledgerAudit(t.sql)).problems).toEqual([]);
  });
});
