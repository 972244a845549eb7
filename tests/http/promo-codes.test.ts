import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROMO_CODE_MESSAGES } from "~/domain/promo-codes";
import { ruleMessage } from "~/domain/rules";
import { visibleText } from "../support/bad-input";
import { newMember, newOperator } from "../support/console";
import { landing, type HttpClient } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// Promo codes over plain form posts (issue 39, point 4; docs/decisions/095), on the production
// settings and an app with its own Postgres: an operator makes and ends codes in the console
// (audited, finance or owner only, never redeemed by its maker); a person redeems one on Earn once
// per identity, as bonus money; every refusal says why; the last use, the cap and a farm of aliases.
describe("promo codes over HTTP (production settings, no JavaScript)", () => {
  let app: PostgresApp;
  let finance: Awaited<ReturnType<typeof newOperator>>;
  let counter = 0;

  beforeAll(async () => {
    app = await startPostgresApp({}, { settings: "production" });
    finance = await newOperator(app, "finance");
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  const today = () => new Date().toISOString().slice(0, 10);
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const text = (page: string) => visibleText(page);
  const newCode = () => `TEST${Date.now().toString(36).toUpperCase()}${++counter}`.slice(0, 20);

  /** A code made in the console by `by` (finance unless told): its letters. */
  async function makeCode(terms: Record<string, string> = {}, by: HttpClient = finance.client) {
    const code = terms.code ?? newCode();
    const response = await by.post("/admin/codes", {
      intent: "create-code",
      code,
      coins: "50",
      uses: "100",
      starts: today(),
      ends: inDays(7),
      countries: "",
      reason: "Test campaign",
      ...terms,
    });
    expect(response.status, await response.clone().text()).toBe(302);
    return code.toUpperCase();
  }
  const redeem = (client: HttpClient, code: string) => client.post("/earn", { intent: "redeem-code", code });
  const bonusRows = (id: string) =>
    app.sql<{ coins: number; description: string }>(
      "select coins, description from transaction_history where user_id = $1 and transaction_type = 'bonus' order by id",
      [id],
    );

  it("lets finance make a code in the console, audited, and lists it with its terms", async () => {
    const code = await makeCode({ code: newCode().toLowerCase(), coins: "75", uses: "3", countries: "in, us" });
    const page = text(await (await finance.client.get("/admin/codes")).text());
    expect(page).toContain(code);
    expect(page).toContain("0 of 3");
    expect(page).toContain("Only IN, US");
    const [audit] = await app.sql<{ action: string; actor_user_id: string; reason: string; after: { code: string } }>(
      "select action, actor_user_id, reason, after from operator_actions where action = 'create_promo_code' and after ->> 'code' = $1",
      [code],
    );
    expect(audit).toMatchObject({ action: "create_promo_code", actor_user_id: finance.uid, reason: "Test campaign" });
  });

  it("refuses support the making of a code (403, nothing made), and a second code with the same letters", async () => {
    const support = await newOperator(app, "support");
    const code = newCode();
    const refused = await support.client.post("/admin/codes", {
      intent: "create-code",
      code,
      coins: "50",
      uses: "1",
      starts: today(),
      ends: inDays(1),
      countries: "",
      reason: "Mine",
    });
    expect(refused.status).toBe(403);
    expect(await app.sql("select 1 from promo_codes where code = $1", [code])).toEqual([]);
    const taken = await makeCode();
    const again = await finance.client.post("/admin/codes", {
      intent: "create-code",
      code: taken,
      coins: "50",
      uses: "1",
      starts: today(),
      ends: inDays(1),
      countries: "",
      reason: "Again",
    });
    expect(again.status).toBe(400);
    expect(text(await again.text())).toContain(ruleMessage("promo_code_taken"));
  });

  it("pays a person the code's coins once, as bonus money locked until offer earnings clear, and says so", async () => {
    const code = await makeCode({ coins: "75" });
    const { client, uid } = await newMember(app);
    const paid = await landing(client, await redeem(client, ` ${code.toLowerCase()} `));
    expect(text(paid.html)).toContain("Code redeemed");
    expect(text(paid.html)).toContain(`${code} gave you 75 coins ($0.75) — locked until your offer earnings clear.`);
    expect(await bonusRows(uid)).toEqual([{ coins: 75, description: `Promo code ${code}` }]);
    const twice = await redeem(client, code);
    expect(twice.status).toBe(400);
    expect(text(await twice.text())).toContain(ruleMessage("promo_code_redeemed"));
    const [available] = await app.sql<{ available: string }>(
      "select money_available($1) ->> 'available' as available",
      [uid],
    );
    expect(Number(available!.available)).toBe(0);
  });

  it("says why a code is refused: unknown, not started, expired, ended by hand, new accounts only, another country, its maker", async () => {
    const { client, uid } = await newMember(app);
    const refusal = async (code: string) => text(await (await redeem(client, code)).text());
    expect(await refusal("NOSUCHCODE")).toContain(ruleMessage("promo_code_unknown"));
    expect(await refusal(await makeCode({ starts: inDays(2), ends: inDays(3) }))).toContain(
      ruleMessage("promo_code_not_started"),
    );
    const expired = await makeCode();
    await app.sql(
      "update promo_codes set starts_at = now() - interval '2 days', ends_at = now() - interval '1 day' where code = $1",
      [expired],
    );
    expect(await refusal(expired)).toContain(ruleMessage("promo_code_ended"));
    const ended = await makeCode();
    const [{ id }] = (await app.sql<{ id: string }>("select id::text from promo_codes where code = $1", [ended])) as [
      { id: string },
    ];
    const end = await finance.client.post("/admin/codes", { intent: "disable-code", codeId: id, reason: "Leaked" });
    expect(end.status).toBe(302);
    expect(await refusal(ended)).toContain(ruleMessage("promo_code_unknown"));
    expect(await refusal(await makeCode({ newAccountsOnly: "on" }))).toContain(ruleMessage("promo_code_new_accounts"));
    expect(await refusal(await makeCode({ countries: "IN" }))).toContain(ruleMessage("promo_code_country"));
    await app.sql("update user_profiles set network_country = 'IN' where id = $1", [uid]);
    const indian = await makeCode({ countries: "IN" });
    expect((await redeem(client, indian)).status).toBe(302);
    const own = await makeCode();
    expect(text(await (await redeem(finance.client, own)).text())).toContain(ruleMessage("promo_code_own"));
    expect(await app.sql("select 1 from loop_bonuses where user_id = $1", [finance.uid])).toEqual([]);
  });

  it("pays the last use of a code once when ten people race for it on the Postgres server", async () => {
    const code = await makeCode({ uses: "1" });
    const people = await Promise.all(Array.from({ length: 10 }, () => newMember(app)));
    const answers = await Promise.all(people.map(({ client }) => redeem(client, code)));
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(1);
    const refused = answers.find((answer) => answer.status === 400)!;
    expect(text(await refused.text())).toContain(ruleMessage("promo_code_used_up"));
    const [row] = await app.sql<{ uses: number }>("select uses from promo_codes where code = $1", [code]);
    expect(row!.uses).toBe(1);
  });

  it("stops codes at their monthly cap and says so", async () => {
    const code = await makeCode({ coins: "100" });
    await app.sql(
      `update app_config set codes_monthly_cap =
         (select coalesce(max(paid), 0) from loop_months where loop = 'codes' and month = current_month()) + 1.50`,
    );
    try {
      const [first, second] = await Promise.all([newMember(app), newMember(app)]);
      expect((await redeem(first.client, code)).status).toBe(302);
      const capped = await redeem(second.client, code);
      expect(capped.status).toBe(400);
      expect(text(await capped.text())).toContain(ruleMessage("codes_cap_reached"));
    } finally {
      await app.sql("update app_config set codes_monthly_cap = default");
    }
  });

  it("limits guessing to ten tries an hour per account", async () => {
    const { client } = await newMember(app);
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(text(await (await redeem(client, `GUESS${attempt}X`)).text())).toContain(
        ruleMessage("promo_code_unknown"),
      );
    }
    const eleventh = text(await (await redeem(client, await makeCode())).text());
    expect(eleventh).toContain("Too many attempts");
  });

  it("refuses a code typed in the wrong shape with its own words, nothing asked of the database", async () => {
    const { client } = await newMember(app);
    const response = await redeem(client, "no spaces allowed");
    expect(response.status).toBe(400);
    const raw = await response.text();
    expect(text(raw)).toContain("Enter the code as it was given: 4 to 20 letters and digits.");
    // What was typed stays in the field.
    expect(raw).toMatch(/<input[^>]*name="code"[^>]*value="no spaces allowed"/);
    const form = await finance.client.post("/admin/codes", {
      intent: "create-code",
      code: "AB",
      coins: "0",
      uses: "many",
      starts: "tomorrow",
      ends: "2020-01-01",
      countries: "India",
      reason: "",
    });
    const console = text(await form.text());
    for (const message of [
      PROMO_CODE_MESSAGES.code,
      PROMO_CODE_MESSAGES.coins,
      PROMO_CODE_MESSAGES.uses,
      PROMO_CODE_MESSAGES.date,
      PROMO_CODE_MESSAGES.countries,
      PROMO_CODE_MESSAGES.reason,
    ])
      expect(console).toContain(message);
  });

  it("gives a farm of ten alias accounts that redeem a code nothing withdrawable", async () => {
    const code = await makeCode({ coins: "500" });
    const farm = await Promise.all(Array.from({ length: 10 }, () => newMember(app)));
    for (const { client, uid } of farm) {
      await app.sql("select record_email_verified($1)", [uid]);
      expect((await redeem(client, code)).status).toBe(302);
      const cashOut = await client.post("/withdraw", {
        intent: "withdraw",
        amount: "5",
        method: "paypal",
        paypalEmail: "f@example.com",
      });
      expect(cashOut.status).toBe(400);
      expect(text(await cashOut.text())).toContain("Amount exceeds your available balance");
    }
    expect(
      await app.sql("select 1 from withdrawals where user_id = any($1)", [farm.map((member) => member.uid)]),
    ).toEqual([]);
  });
});
