import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noticeMessage, type UserNotice } from "~/domain/notices";
import { openTestPglite, type TestDatabase } from "../support/db";
import { endHolds } from "../support/holds";
import { provisionMember, recordPostback } from "../support/arrange";

// A notice when held offer earnings clear (issue 36, docs/decisions/086): nothing in the ledger
// changes when a hold ends, so notify_cleared_earnings() sweeps what cleared since its last run and
// writes one "Earnings cleared" notice a person, with the bonus the clearing unlocked.

const STRICT = "update app_config set postback_hold_days = 7, provider_hold_days = '{}', bonus_unlock_ratio = 1.0";

describe("notices when held offer earnings clear (notify_cleared_earnings)", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPglite("production");
    await t.sql(STRICT);
  });
  afterAll(async () => {
    await t?.close();
  });

  const sweep = () => t.db.rpc<number>("notify_cleared_earnings", {});
  let transactions = 0;
  const credit = (userId: string, coins: number, options: { reversal?: boolean; id?: string } = {}) =>
    recordPostback(t, userId, options.id ?? `cleared-${++transactions}`, coins, options);

  async function clearedNotices(userId: string) {
    const rows = await t.sql<{ kind: UserNotice["kind"]; data: UserNotice["data"] }>(
      "select kind, data from user_notices where user_id = $1 and kind = 'earnings_cleared' order by id",
      [userId],
    );
    return rows.map((row) => ({ ...row.data, words: noticeMessage(row).description }));
  }

  it("tells a person once, after their held credit clears, how much cleared and the bonus it unlocked; nothing while it is held", async () => {
    // $3.00 of bonus, locked until as much offer money has cleared (ratio 1.0).
    const member = await provisionMember(t, { prefix: "clara", coins: 300 });
    await credit(member, 200);
    await sweep();
    expect(await clearedNotices(member)).toEqual([]);

    await endHolds(t, member);
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await clearedNotices(member)).toEqual([
      {
        amount: 2,
        bonus_unlocked: 2,
        carried_debt: 0,
        words: "Your offer earnings of $2.00 cleared — available to withdraw. They unlocked $2.00 of bonus too.",
      },
    ]);
    // What the notice says is what the balance now says: $2.00 earned and $2.00 of bonus available.
    const money = await t.db.rpc<{ available: number; bonus_locked: number }>("money_available", {
      p_user_id: member,
    });
    expect(Number(money.available)).toBe(4);
    expect(Number(money.bonus_locked)).toBe(1);
    // Each clearing is told once.
    await sweep();
    expect(await clearedNotices(member)).toHaveLength(1);
  });

  it("writes one notice a person for everything that cleared since the last sweep, and each person only their own", async () => {
    const ana = await provisionMember(t, { prefix: "ana" });
    const ben = await provisionMember(t, { prefix: "ben" });
    await credit(ana, 150);
    await credit(ana, 100);
    await credit(ben, 75);
    await endHolds(t, ana);
    await endHolds(t, ben);
    await sweep();
    expect((await clearedNotices(ana)).map((notice) => notice.words)).toEqual([
      "Your offer earnings of $2.50 cleared — available to withdraw.",
    ]);
    expect((await clearedNotices(ben)).map((notice) => notice.words)).toEqual([
      "Your offer earnings of $0.75 cleared — available to withdraw.",
    ]);
  });

  it("says nothing of a credit reversed in its hold, nor of money available at once (no hold)", async () => {
    const reversed = await provisionMember(t, { prefix: "rex" });
    await credit(reversed, 200, { id: "cleared-reversed" });
    await credit(reversed, 200, { id: "cleared-reversed", reversal: true });
    await endHolds(t, reversed);

    await t.sql("update app_config set postback_hold_days = 0");
    const atOnce = await provisionMember(t, { prefix: "ida" });
    try {
      await credit(atOnce, 300);
    } finally {
      await t.sql(STRICT);
    }
    await sweep();
    expect(await clearedNotices(reversed)).toEqual([]);
    expect(await clearedNotices(atOnce)).toEqual([]);
  });

  it("is a rewards notice, as a missing credit support added is: pushed and emailed as the person's reward setting says", async () => {
    const rows = await t.sql<{ category: string }>(
      "select notice_category(kind) as category from unnest(array['earnings_cleared', 'missing_credit_credited']) kind",
    );
    expect(rows).toEqual([{ category: "reward" }, { category: "reward" }]);
  });
});
