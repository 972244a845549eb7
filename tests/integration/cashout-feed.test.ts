import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbError } from "~/server/db/core.server";
import { openTestPglite, type TestDatabase } from "../support/db";
import { newUserId, provisionMember, recordPostback } from "../support/arrange";

// The feed of recent cash-outs (supabase/migrations/20261216010000_cashout_feed.sql,
// docs/decisions/098): paid withdrawals and offer credits of $5.00 or more from the last 24 hours,
// newest first, each under a masked name made from the account's id; never an account that left
// the feed or was closed, never text a person chose. On the demo settings (nothing held or reviewed).

interface Item {
  id: string;
  kind: "cashout" | "earned";
  name: string;
  method: string | null;
  amount: number;
  at: string;
}

describe("the cash-out feed on PGlite", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPglite();
  });
  afterAll(async () => {
    await t?.close();
  });

  const feed = () => t.db.rpc<Item[]>("cashout_feed", { p_limit: 20 });
  /** An account named and addressed with text that must never show, holding `coins`. */
  const member = async (coins = 0) => {
    const userId = newUserId("feed");
    await provisionMember(t, {
      userId,
      name: "<b>Évil</b> Name",
      email: `chosen.${userId}@example.com`,
      coins,
      identity: `identity-${userId}`,
    });
    return userId;
  };
  async function paidWithdrawal(userId: string, dollars: number, status: "completed" | "failed" = "completed") {
    const { id } = await t.db.rpc<{ id: string }>("create_withdrawal", {
      p_user_id: userId,
      amount_param: dollars,
      payment_method_param: "paypal",
      recipient_email_param: `${userId}@example.com`,
    });
    await t.db.rpc("settle_withdrawal", {
      p_withdrawal_id: id,
      p_status: status,
      p_reference: "REF1",
      p_reason: status === "failed" ? "PayPal said no" : null,
    });
    return id;
  }
  /** The feed's items of one account (every test account's masked name starts alike: "Userfe**"). */
  const mine = async (userId: string) => {
    const ids = await t.sql<{ id: string }>(
      `select 'w' || id as id from withdrawals where user_id = $1
       union all select 't' || id from transaction_history where user_id = $1`,
      [userId],
    );
    const owned = new Set(ids.map((row) => row.id));
    return (await feed()).filter((item) => owned.has(item.id));
  };

  it("lists a paid withdrawal under a masked name, with its method and amount, and never a name or email", async () => {
    const userId = await member(2000);
    const id = await paidWithdrawal(userId, 12.5);
    const items = await feed();
    expect(items).toContainEqual(
      expect.objectContaining({ id: `w${id}`, kind: "cashout", name: `User${userId.slice(0, 2)}**`, method: "paypal" }),
    );
    expect(Number(items.find((item) => item.id === `w${id}`)!.amount)).toBe(12.5);
    const text = JSON.stringify(items);
    expect(text).not.toContain("Évil");
    expect(text).not.toContain("chosen.");
    expect(text).not.toContain(userId);
  });

  it("leaves out a withdrawal still pending, one that failed, and one paid more than 24 hours ago", async () => {
    const userId = await member(3000);
    await t.db.rpc("create_withdrawal", {
      p_user_id: userId,
      amount_param: 5,
      payment_method_param: "paypal",
      recipient_email_param: `${userId}@example.com`,
    });
    const failed = await paidWithdrawal(userId, 6, "failed");
    const old = await paidWithdrawal(userId, 7);
    await t.sql("update withdrawals set settled_at = now() - interval '25 hours' where id = $1", [old]);
    const ids = (await feed()).map((item) => item.id);
    expect(ids).not.toContain(`w${failed}`);
    expect(ids).not.toContain(`w${old}`);
    expect(await mine(userId)).toEqual([]);
  });

  it("lists offer credits of $5.00 or more as earned from an offer, not smaller ones nor check-ins", async () => {
    const userId = await member();
    await recordPostback(t, userId, `${userId}-small`, 499);
    await t.db.rpc("daily_checkin", { p_user_id: userId });
    expect(await mine(userId)).toEqual([]);
    await recordPostback(t, userId, `${userId}-large`, 750);
    expect(await mine(userId)).toEqual([expect.objectContaining({ kind: "earned", method: null })]);
    expect(Number((await mine(userId))[0]!.amount)).toBe(7.5);
  });

  it("leaves out a person who left the feed, and shows them again when they come back", async () => {
    const userId = await member(2000);
    await paidWithdrawal(userId, 10);
    expect(await mine(userId)).toHaveLength(1);
    expect(await t.db.rpc("set_in_cashout_feed", { p_user_id: userId, p_in_feed: false })).toBe(false);
    expect(await t.db.rpc("in_cashout_feed", { p_user_id: userId })).toBe(false);
    expect(await mine(userId)).toEqual([]);
    await t.db.rpc("set_in_cashout_feed", { p_user_id: userId, p_in_feed: true });
    expect(await mine(userId)).toHaveLength(1);
  });

  it("leaves out a closed account", async () => {
    const userId = await member(2000);
    await paidWithdrawal(userId, 10);
    await t.sql("update user_profiles set banned_at = now() where id = $1", [userId]);
    expect(await mine(userId)).toEqual([]);
  });

  it("lists the newest first and no more than asked (at most 20)", async () => {
    const userId = await member(5000);
    for (const dollars of [5, 6, 7]) await paidWithdrawal(userId, dollars);
    const items = await t.db.rpc<Item[]>("cashout_feed", { p_limit: 2 });
    expect(items).toHaveLength(2);
    expect(items.map((item) => Number(item.amount))).toEqual([7, 6]);
    expect(await t.db.rpc<Item[]>("cashout_feed", { p_limit: 500 })).toHaveLength(Math.min(20, (await feed()).length));
  });

  it("refuses a choice that is neither yes nor no, and an account that does not exist", async () => {
    const hint = (promise: Promise<unknown>) =>
      promise.then(
        () => "no error",
        (error: unknown) => (error instanceof DbError ? error.hint : String(error)),
      );
    const userId = await member();
    expect(await hint(t.db.rpc("set_in_cashout_feed", { p_user_id: userId, p_in_feed: null }))).toBe("invalid_choice");
    expect(await hint(t.db.rpc("set_in_cashout_feed", { p_user_id: "nobody", p_in_feed: false }))).toBe(
      "account_not_found",
    );
  });
});
