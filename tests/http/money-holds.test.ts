import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newMember } from "../support/console";
import type { HttpClient } from "../support/http";
import { startPostgresAppWithProvider, type PostgresApp } from "../support/postgres-app";

// Home and Withdraw, server-rendered (no JavaScript), on the strict production settings
// (docs/decisions/066): what can be withdrawn now (Available), what is still in its hold
// (Pending, with the day the next amount clears) and the bonus not yet unlocked by offer earnings.
const SECRET = "postback-secret-for-money-tests";

describe("Available, Pending and Locked bonus on Home and Withdraw (production settings, no JavaScript)", () => {
  let app: PostgresApp;
  let postback: (params: Record<string, string>) => Promise<string>;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ app, postback, stop } = await startPostgresAppWithProvider(SECRET, { settings: "production" }));
  }, 120_000);

  afterAll(async () => {
    await stop?.();
  });

  /** The day ("Dec 5", UTC) the account's money still in its hold clears. */
  async function heldClearsOn(id: string): Promise<string> {
    const [held] = await app.sql<{ available_at: Date }>(
      "select available_at from transaction_history where user_id = $1 and available_at > now()",
      [id],
    );
    return held!.available_at.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
  }

  /**
   * A verified account with $3.00 of bonus money, $1.00 of cleared offer earnings (which unlock
   * $1.00 of the bonus) and $1.20 from an offer still in its 7-day hold: balance $5.20, available
   * $2.00, $2.00 of bonus locked, $0.80 more to earn once the pending $1.20 clears.
   */
  async function heldAccount(): Promise<{ client: HttpClient; id: string; clearsOn: string }> {
    const { client, uid: id } = await newMember(app);
    await app.sql("select record_email_verified($1)", [id]);
    await app.sql("select add_user_coins($1, 300)", [id]);
    // This provider's credits clear at once for the first postback only (app_config.provider_hold_days).
    await app.sql(`update app_config set provider_hold_days = '{"acme": 0}'`);
    try {
      expect(await postback({ user_id: id, transaction_id: `${id}-cleared`, amount: "100" })).toBe("OK");
    } finally {
      await app.sql(`update app_config set provider_hold_days = '{}'`);
    }
    expect(await postback({ user_id: id, transaction_id: `${id}-held`, amount: "120" })).toBe("OK");
    const clearsOn = await heldClearsOn(id);
    const [money] = await app.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [id]);
    expect(Number(money!.balance)).toBe(5.2);
    return { client, id, clearsOn };
  }

  /** The text of the card's line `testId` as a reader sees it (its parts are spans), null when absent. */
  function lineText(page: string, testId: string) {
    const line = new RegExp(`data-testid="${testId}"[^>]*>(.*?)</p>`).exec(page);
    return line ? line[1]!.replace(/<[^>]*>/g, "") : null;
  }

  function expectMoneyLines(page: string, clearsOn: string) {
    expect(page).toContain("Available Balance");
    expect(page).toMatch(/data-testid="balance">\$2\.00</);
    expect(lineText(page, "pending-line")).toBe(`$1.20 pending · next clears ${clearsOn}`);
    expect(lineText(page, "locked-bonus-line")).toBe("$2.00 bonus locked · earn $0.80 more from offers to unlock it");
    expect(page).toMatch(/data-testid="total-balance">\$5\.20</);
  }

  it("Home shows Available $2.00 as the figure, $1.20 pending with the day it clears, $2.00 bonus locked with what unlocks it, and the $5.20 total", async () => {
    const { client, clearsOn } = await heldAccount();
    const { response, html: page } = await client.visit("/");
    expect(response.status).toBe(200);
    expectMoneyLines(page, clearsOn);
  });

  it("with only pending money, Home says waiting is enough and Withdraw says the day (Wait until …), its form closed; without, Earn $1.00 more (issue 36)", async () => {
    const { client, uid: id } = await newMember(app);
    await app.sql("select record_email_verified($1)", [id]);
    expect(await postback({ user_id: id, transaction_id: `${id}-held`, amount: "350" })).toBe("OK");
    const clearsOn = await heldClearsOn(id);
    expect((await client.visit("/")).html).toContain("You can cash out with UPI once your pending earnings clear");
    const withdraw = (await client.visit("/withdraw")).html;
    expect(withdraw).toContain(`Wait until ${clearsOn}`);
    expect(withdraw).toContain("Your offer earnings still pending clear by then, enough to cash out.");
    expect(withdraw).not.toContain("more to cash out");
    expect(withdraw).toMatch(/<fieldset disabled=""/);
    // A post anyway (an old page) is refused by the database, with its rule's words.
    const posted = await client.post("/withdraw", {
      intent: "withdraw",
      amount: "1",
      method: "upi",
      upiId: "me@okaxis",
    });
    expect(await posted.text()).toContain("Amount exceeds your available balance");

    const empty = await newMember(app);
    await app.sql("select record_email_verified($1)", [empty.uid]);
    const nothing = (await empty.client.visit("/withdraw")).html;
    expect(nothing).toContain("Earn $1.00 more");
    expect(nothing).not.toContain("Wait until");
  });

  it("Withdraw shows the same lines under Available Balance", async () => {
    const { client, clearsOn } = await heldAccount();
    const { response, html: page } = await client.visit("/withdraw");
    expect(response.status).toBe(200);
    expectMoneyLines(page, clearsOn);
  });

  it("refuses $3.00 (above the $2.00 available, below the $5.20 balance) with Amount exceeds your available balance and changes nothing; $2.00 goes through", async () => {
    const { client, id, clearsOn } = await heldAccount();
    const refused = await client.post("/withdraw", { intent: "withdraw", amount: "3", method: "upi", upiId: "me@upi" });
    expect(refused.status).toBe(400);
    const body = await refused.text();
    expect(body).toContain("Amount exceeds your available balance");
    expectMoneyLines(body, clearsOn);
    const counts = async () =>
      (
        await app.sql<{ withdrawals: number; balance: string; rows: number }>(
          `select (select count(*)::int from withdrawals where user_id = $1) as withdrawals,
                  (select balance from user_balance where user_id = $1) as balance,
                  (select count(*)::int from transaction_history where user_id = $1) as rows`,
          [id],
        )
      )[0]!;
    expect(await counts()).toEqual({ withdrawals: 0, balance: "5.20", rows: 3 });

    const accepted = await client.post("/withdraw", {
      intent: "withdraw",
      amount: "2",
      method: "upi",
      upiId: "me@upi",
    });
    expect(accepted.status).toBe(302);
    expect(await counts()).toEqual({ withdrawals: 1, balance: "3.20", rows: 4 });
    const after = (await client.visit("/withdraw")).html;
    expect(after).toMatch(/data-testid="balance">\$0\.00</);
    expect(lineText(after, "pending-line")).toBe(`$1.20 pending · next clears ${clearsOn}`);
    expect(after).toMatch(/data-testid="total-balance">\$3\.20</);
    expect((await app.sql("select verify_all_balances() as audit"))[0]).toEqual({ audit: [] });
  });

  it("shows no Pending, Locked bonus or total line when everything can be withdrawn", async () => {
    const { client, email } = await app.signUp();
    const [profile] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    await app.sql(`update app_config set provider_hold_days = '{"acme": 0}'`);
    try {
      expect(await postback({ user_id: profile!.id, transaction_id: `${profile!.id}-a`, amount: "150" })).toBe("OK");
    } finally {
      await app.sql(`update app_config set provider_hold_days = '{}'`);
    }
    for (const path of ["/", "/withdraw"]) {
      const page = (await client.visit(path)).html;
      expect(page).toMatch(/data-testid="balance">\$1\.50</);
      expect(lineText(page, "pending-line")).toBeNull();
      expect(lineText(page, "locked-bonus-line")).toBeNull();
      expect(page).not.toContain('data-testid="total-balance"');
    }
  });
});
