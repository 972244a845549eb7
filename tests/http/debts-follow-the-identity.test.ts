import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newMember, newOperator } from "../support/console";
import { visibleText } from "../support/bad-input";
import { startPostgresAppWithProvider, type PostgresApp } from "../support/postgres-app";

const SECRET = "postback-secret-for-debt-tests";

// Debts follow the identity (issue 33, docs/decisions/078): a network takes an offer back after the
// account that was paid for it has been deleted. Over HTTP on the production build with its own
// Postgres: the signed reversal is taken (not refused as an unknown user), the balance the account
// left pays it first, the rest is owed by its email, and the account made again with that email
// carries it: its card says so, its available money is net of it, its cash-out review names it, and
// its offer earnings pay it first.
describe("debts follow the identity", () => {
  let app: PostgresApp;
  let postback: (params: Record<string, string>) => Promise<string>;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ app, postback, stop } = await startPostgresAppWithProvider(SECRET));
    // Levels pay a rebate on a paid cash-out (docs/decisions/094); the amounts here are about debts alone.
    await app.sql("update app_config set levels_on = false");
    // Offer money clears at once and bonus money is never locked: only the debt stands between
    // the balance and what can be withdrawn.
    await app.sql(
      `update app_config set provider_hold_days = '{"acme": 0}', bonus_unlock_ratio = null, review_first_withdrawal = true`,
    );
  }, 120_000);
  afterAll(async () => {
    await stop?.();
  });

  async function money(uid: string) {
    const [row] = await app.sql<{ balance: string; carried_debt: string; carried_debt_total: string }>(
      "select balance, carried_debt, carried_debt_total from user_balance where user_id = $1",
      [uid],
    );
    return {
      balance: Number(row!.balance),
      carried: Number(row!.carried_debt),
      carriedTotal: Number(row!.carried_debt_total),
    };
  }

  /** What the identity of the deleted account `uid` owes, not yet carried by a new account. */
  async function identityDebt(uid: string) {
    const [row] = await app.sql<{ debt: string }>(
      "select i.debt from identities i join departed_accounts d using (identity_hash) where d.user_id = $1",
      [uid],
    );
    return Number(row?.debt ?? Number.NaN);
  }

  /** A verified member paid $25 by an offer, $20 of it cashed out by UPI and paid: balance $5.00. */
  async function paidOutMember(transactionId: string) {
    const member = await newMember(app);
    await app.sql("select record_email_verified($1)", [member.uid]);
    expect(await postback({ user_id: member.uid, transaction_id: transactionId, amount: "2500" })).toBe("OK");
    const asked = await member.client.post("/withdraw", {
      intent: "withdraw",
      amount: "20",
      method: "upi",
      upiId: `debt.${Date.now().toString(36)}@okaxis`,
    });
    expect(asked.status).toBe(302);
    await app.sql("update withdrawals set review_state = 'approved' where user_id = $1", [member.uid]);
    await app.sql(
      "select settle_withdrawal(id, 'completed', 'UTR-DEBT') from withdrawals where user_id = $1 and status = 'pending'",
      [member.uid],
    );
    expect((await money(member.uid)).balance).toBe(5);
    return member;
  }

  it("a reversal of a deleted account's credit is taken, once: the $5.00 it left pays part, the $20.00 rest is owed by its email", async () => {
    const member = await paidOutMember("departed-1");
    const deleted = await member.client.post("/profile", {
      intent: "delete-account",
      password: "s3cret-pass",
      giveUp: "5.00",
    });
    expect(deleted.status).toBe(302);
    expect(await app.sql("select id from user_profiles where id = $1", [member.uid])).toEqual([]);

    const reversal = { user_id: member.uid, transaction_id: "departed-1", amount: "-2500", status: "reversed" };
    expect(await postback(reversal)).toBe("OK");
    expect(await postback(reversal)).toBe("OK");
    expect(await identityDebt(member.uid)).toBe(20);
    expect(
      await app.sql(
        "select verdict, reason from postback_log where transaction_id = 'departed-1' and network = 'acme' order by id",
      ),
    ).toEqual([
      { verdict: "credited", reason: null },
      { verdict: "reversed", reason: "reverses a credit of a deleted account: $20.00 owed by its email" },
      { verdict: "duplicate", reason: null },
    ]);
    // A reversal naming a credit the deleted account was never paid is refused, and changes nothing.
    expect(
      await postback({ user_id: member.uid, transaction_id: "never-paid", amount: "-100", status: "reversed" }),
    ).toBe("Invalid postback");
    expect(await identityDebt(member.uid)).toBe(20);
  });

  it("the account made again with that email carries the debt: the card says so, only the rest can be withdrawn, the review says what it owes, and its offer earnings pay it first", async () => {
    const first = await paidOutMember("departed-2");
    expect(
      (await first.client.post("/profile", { intent: "delete-account", password: "s3cret-pass", giveUp: "5.00" }))
        .status,
    ).toBe(302);
    expect(
      await postback({ user_id: first.uid, transaction_id: "departed-2", amount: "-2500", status: "reversed" }),
    ).toBe("OK");

    const again = await newMember(app, { email: first.email });
    expect(again.uid).not.toBe(first.uid);
    expect(await money(again.uid)).toEqual({ balance: 0, carried: 20, carriedTotal: 20 });
    expect(await identityDebt(first.uid)).toBe(0);
    await app.sql("select record_email_verified($1)", [again.uid]);
    await app.sql("select add_user_coins($1, 3000)", [again.uid]);

    const home = visibleText((await again.client.visit("/")).html);
    expect(home).toContain("$20.00 owed from an earlier account · your offer earnings pay it first");
    // $30.00 of bonus money, $20.00 of it owed: $10.00 can be withdrawn.
    expect((await again.client.visit("/withdraw")).html).toMatch(/data-testid="balance">\$10\.00</);
    const tooMuch = await again.client.post("/withdraw", {
      intent: "withdraw",
      amount: "11",
      method: "upi",
      upiId: "again@okaxis",
    });
    expect(tooMuch.status).toBe(400);
    expect(visibleText(await tooMuch.text())).toContain("Amount exceeds your available balance");
    const asked = await again.client.post("/withdraw", {
      intent: "withdraw",
      amount: "10",
      method: "upi",
      upiId: "again@okaxis",
    });
    expect(asked.status).toBe(302);
    const [withdrawal] = await app.sql<{ id: string }>("select id from withdrawals where user_id = $1", [again.uid]);
    const finance = await newOperator(app, "finance");
    const review = visibleText((await finance.client.visit(`/admin/withdrawals/${withdrawal!.id}`)).html);
    expect(review).toContain("owes $20.00 from an earlier account");
    const person = visibleText((await finance.client.visit(`/admin/people/${again.uid}`)).html);
    expect(person).toContain("Owed $20.00 From an earlier account with this email: offer earnings pay it first");

    // $15.00 from an offer pays $15.00 of it; the next $10.00 pays the last $5.00.
    expect(await postback({ user_id: again.uid, transaction_id: "again-1", amount: "1500" })).toBe("OK");
    expect(await money(again.uid)).toEqual({ balance: 20, carried: 5, carriedTotal: 20 });
    expect(await postback({ user_id: again.uid, transaction_id: "again-2", amount: "1000" })).toBe("OK");
    expect(await money(again.uid)).toEqual({ balance: 25, carried: 0, carriedTotal: 20 });
    const ledger = await app.sql<{ description: string; amount: string }>(
      "select description, amount from transaction_history where user_id = $1 and transaction_type = 'postback_reversal' order by id",
      [again.uid],
    );
    expect(ledger.map((row) => [row.description, Number(row.amount)])).toEqual([
      ["Owed from your earlier account: an offer it was paid for was reversed", -15],
      ["Owed from your earlier account: an offer it was paid for was reversed", -5],
    ]);
    expect(await app.sql("select (verify_user_balance($1) ->> 'consistent')::boolean as ok", [again.uid])).toEqual([
      { ok: true },
    ]);
    expect(visibleText((await again.client.visit("/")).html)).not.toContain("owed from an earlier account");
  });
});
