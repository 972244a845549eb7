import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULE_KEYS, ruleMessage } from "~/domain/rules";
import { ruleViolation } from "~/server/db/core.server";
import { dbRefusal, openTestPglite, type TestDatabase } from "../support/db";

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestPglite();
});
afterAll(async () => {
  await t?.close();
});

/** The `raise exception ...;` statements of every plpgsql function as the migrations left them. */
async function raiseStatements() {
  const functions = await t.sql<{ name: string; source: string }>(
    `select p.proname as name, p.prosrc as source
       from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       join pg_language l on l.oid = p.prolang
      where n.nspname = 'public' and l.lanname = 'plpgsql'`,
  );
  return functions.flatMap(({ name, source }) =>
    [...source.matchAll(/raise\s+exception[\s\S]*?;/gi)]
      .map((match) => ({ name, statement: match[0] }))
      // A CHECK constraint's own error (check_violation(), for the tables whose rules one function
      // checks) is a broken invariant, not a rule a person can meet: it reaches the app as a failure.
      .filter(({ statement }) => !/errcode\s*=\s*'check_violation'/.test(statement)),
  );
}

/** The rule keys named in functions that answer a refusal (`'refused', key`) instead of raising it. */
async function answeredRefusals() {
  const functions = await t.sql<{ source: string }>(
    `select p.prosrc as source from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prosrc like '%''refused''%'`,
  );
  const keys = new Set<string>(RULE_KEYS);
  return functions.flatMap(({ source }) =>
    [...source.matchAll(/'([a-z_]+)'/g)].map((match) => match[1]!).filter((key) => keys.has(key)),
  );
}

describe("rule identifiers of the SQL functions", () => {
  it("every raise exception in a plpgsql function carries a hint that the app's catalogue words", async () => {
    const raises = await raiseStatements();
    expect(raises.length).toBeGreaterThan(20);
    const missing = raises.filter(({ statement }) => !/hint\s*=\s*'[a-z_]+'/.test(statement));
    expect(missing).toEqual([]);
    const used = new Set(raises.map(({ statement }) => /hint\s*=\s*'([a-z_]+)'/.exec(statement)![1]!));
    // A rule answered rather than raised (the claims of levels and goals answer {paid: false, refused: key},
    // so a refusal for a loop's cap is kept): each key such a function names counts as used.
    for (const key of await answeredRefusals()) used.add(key);
    expect([...used].filter((key) => !(RULE_KEYS as string[]).includes(key))).toEqual([]);
    // And the catalogue words no rule the database does not have.
    expect(RULE_KEYS.filter((key) => !used.has(key))).toEqual([]);
  });

  it("a broken rule reaches the app as its identifier and the spec's message, whatever the SQL text says", async () => {
    await t.db.rpc("provision_user", { p_user_id: "rules-1", p_email: null, p_display_name: "Rules" });
    await t.db.rpc("daily_checkin", { p_user_id: "rules-1" });
    const again = await dbRefusal(t.db.rpc("daily_checkin", { p_user_id: "rules-1" }));
    expect(ruleViolation(again)).toEqual({ rule: "already_checked_in", message: "Already checked in today!" });
  });

  it("the withdrawal minimum comes from app_config, and its message follows a change", async () => {
    await t.db.rpc("provision_user", {
      p_user_id: "rules-2",
      p_email: null,
      p_display_name: "Rules",
      p_email_verified: true,
    });
    await t.db.rpc("add_user_coins", { user_id_param: "rules-2", amount_param: 2000 });
    const withdraw = (amount: number) =>
      t.db.rpc("create_withdrawal", {
        p_user_id: "rules-2",
        amount_param: amount,
        payment_method_param: "paypal",
        recipient_email_param: "me@example.com",
      });
    expect(ruleViolation(await dbRefusal(withdraw(4.99)))).toEqual({
      rule: "below_minimum",
      message: "Minimum withdrawal amount is $5.00",
    });
    try {
      await t.sql("update app_config set min_withdrawal_paypal = 7.5");
      expect(ruleViolation(await dbRefusal(withdraw(7)))?.message).toBe("Minimum withdrawal amount is $7.50");
    } finally {
      await t.sql("update app_config set min_withdrawal_paypal = 5");
    }
    expect(ruleMessage("below_minimum", "5.00")).toBe("Minimum withdrawal amount is $5.00");
  });

  it("the check-in reward comes from app_config", async () => {
    await t.db.rpc("provision_user", { p_user_id: "rules-3", p_email: null, p_display_name: "Rules" });
    try {
      await t.sql("update app_config set checkin_coins = 25");
      expect(await t.db.rpc("get_app_config")).toMatchObject({ checkin_coins: 25 });
      expect(await t.db.rpc("daily_checkin", { p_user_id: "rules-3" })).toMatchObject({ coins: 25, amount: 0.25 });
    } finally {
      await t.sql("update app_config set checkin_coins = 10");
    }
  });
});
