import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ageSession, cashOutOf, newMember, newOperator } from "../support/console";
import { visibleText } from "../support/bad-input";
import { ledgerAudit } from "../support/ledger-audit";
import { startPayPalStandIn, type PayPalStandIn } from "../support/paypal";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// No operator moves money alone (issue 33, docs/decisions/078): each attack of the third review,
// over HTTP with JavaScript off on the production build with its own Postgres, a local PayPal and
// the Auth emulator, posted by the operator who would try it. Each is refused or waits for a second
// person, nothing moves, and the audit log keeps the attempt.
describe("no operator moves money alone", () => {
  let app: PostgresApp;
  let paypal: PayPalStandIn;
  let finance: Awaited<ReturnType<typeof newOperator>>;
  let secondFinance: Awaited<ReturnType<typeof newOperator>>;
  let support: Awaited<ReturnType<typeof newOperator>>;

  beforeAll(async () => {
    paypal = await startPayPalStandIn();
    app = await startPostgresApp(paypal.env);
    // The limit across everyone is tried on its own below; elsewhere it stays out of the way.
    await app.sql(
      "update app_config set review_first_withdrawal = true, adjustment_approval_above = 50, adjustment_operator_limit = 100000",
    );
    // Levels pay a rebate on a paid cash-out (docs/decisions/094); the amounts here are about debts alone.
    await app.sql("update app_config set levels_on = false");
    [finance, secondFinance, support] = await Promise.all([
      newOperator(app, "finance"),
      newOperator(app, "finance"),
      newOperator(app, "support"),
    ]);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await paypal?.close();
  });

  const refusals = (userId: string) =>
    app.sql<{ actor_user_id: string; detail: { attempted: string; rule: string } }>(
      "select actor_user_id, detail from operator_actions where action = 'refused' and user_id = $1 order by id",
      [userId],
    );

  async function balance(uid: string) {
    const [row] = await app.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [uid]);
    return Number(row!.balance);
  }

  /** `who` (an operator's own account, here) asks for a PayPal cash-out of `dollars`: its id. */
  async function ownCashOut(who: Awaited<ReturnType<typeof newOperator>>, dollars: number) {
    const { id, reviewState } = await cashOutOf(
      app,
      dollars,
      {
        method: "paypal",
        paypalEmail: `own.${Date.now().toString(36)}@example.com`,
      },
      who,
    );
    expect(reviewState).toBe("review");
    return id;
  }

  it("a finance operator cannot approve, pay, refuse or mark paid their own cash-out: each is refused, PayPal is never asked, the attempts are audited; a second operator approves it", async () => {
    const id = await ownCashOut(finance, 25);
    const page = `/admin/withdrawals/${id}`;

    const approve = await finance.client.post(page, { intent: "approve" });
    expect(approve.status).toBe(302);
    const told = visibleText((await finance.client.visit(approve.headers.get("location")!)).html);
    expect(told).toContain("Nothing was approved");
    expect(told).toContain("it is your own cash-out: another operator approves it");
    const reject = await finance.client.post(page, { intent: "reject", reason: "my own" });
    expect(reject.status).toBe(400);
    expect(visibleText(await reject.text())).toContain("Operators cannot do this to their own account");
    expect(
      await app.sql("select status, review_state, payout_claimed_at from withdrawals where id = $1", [id]),
    ).toEqual([{ status: "pending", review_state: "review", payout_claimed_at: null }]);
    expect(paypal.payoutsMade(id)).toBe(0);
    expect(
      (await refusals(finance.uid)).map((row) => [row.actor_user_id, row.detail.attempted, row.detail.rule]),
    ).toEqual([
      [finance.uid, "approve", "operator_self_action"],
      [finance.uid, "reject", "operator_self_action"],
    ]);

    // Approved by another operator, it is paid once; its owner can neither pay it again nor mark it paid.
    const approved = await secondFinance.client.post(page, { intent: "approve" });
    expect(approved.status).toBe(302);
    expect(paypal.payoutsMade(id)).toBe(1);
    expect((await ledgerAudit(app.sql)).problems).toEqual([]);
  });

  it("paying, marking paid or not paid an approved cash-out of one's own is refused in SQL (claim_payout and settle_withdrawal name the operator)", async () => {
    const id = await ownCashOut(secondFinance, 10);
    // Approved by someone else, while PayPal was unreachable: it waits to be paid.
    await app.sql("update withdrawals set review_state = 'approved' where id = $1", [id]);
    const pay = await secondFinance.client.post(`/admin/withdrawals/${id}`, { intent: "pay" });
    expect(pay.status).toBe(400);
    expect(visibleText(await pay.text())).toContain("Operators cannot do this to their own account");
    expect(paypal.payoutsMade(id)).toBe(0);
    for (const [intent, fields] of [
      ["mark-paid", { reference: "PAYPAL-SELF-1" }],
      ["mark-failed", { reason: "my own" }],
    ] as const) {
      const response = await secondFinance.client.post(`/admin/withdrawals/${id}`, { intent, ...fields });
      expect(response.status, intent).toBe(400);
      expect(visibleText(await response.text())).toContain("Operators cannot do this to their own account");
    }
    expect(await app.sql("select status, payout_claimed_at from withdrawals where id = $1", [id])).toEqual([
      { status: "pending", payout_claimed_at: null },
    ]);
    expect((await refusals(secondFinance.uid)).map((row) => row.detail.attempted)).toEqual([
      "pay",
      "mark_paid",
      "mark_failed",
    ]);
  });

  it("finance cannot resume the cash-outs another operator paused on their account, nor unban themselves: refused, unchanged, audited", async () => {
    const paused = await secondFinance.client.post(`/admin/people/${finance.uid}`, {
      intent: "pause",
      reason: "Checking a burst of cash-outs",
    });
    expect(paused.status).toBe(302);
    const resumed = await finance.client.post(`/admin/people/${finance.uid}`, { intent: "resume" });
    expect(resumed.status).toBe(400);
    expect(visibleText(await resumed.text())).toContain("Operators cannot do this to their own account");
    expect(
      await app.sql("select payouts_paused_at is not null as paused from user_profiles where id = $1", [finance.uid]),
    ).toEqual([{ paused: true }]);
    const unban = await finance.client.post(`/admin/people/${finance.uid}`, { intent: "unban" });
    expect(unban.status).toBe(400);
    expect((await refusals(finance.uid)).slice(-2).map((row) => row.detail.attempted)).toEqual(["resume", "unban"]);
    // A second operator resumes them.
    expect((await secondFinance.client.post(`/admin/people/${finance.uid}`, { intent: "resume" })).status).toBe(302);
  });

  it("three $50 adjustments by one operator take nobody from $0 to $150: past the limit in the window, the second and third wait, and so does another operator's", async () => {
    const person = await newMember(app);
    const adjust = (client: typeof finance.client, amount: string) =>
      client.post(`/admin/people/${person.uid}`, { intent: "adjust", amount, kind: "earned", reason: "Split credit" });
    for (const _ of [1, 2, 3]) expect((await adjust(finance.client, "50.00")).status).toBe(302);
    expect((await adjust(secondFinance.client, "10.00")).status).toBe(302);
    expect(await balance(person.uid)).toBe(50);
    expect(
      await app.sql("select state, amount::float from balance_adjustments where user_id = $1 order by id", [
        person.uid,
      ]),
    ).toEqual([
      { state: "applied", amount: 50 },
      { state: "awaiting_approval", amount: 50 },
      { state: "awaiting_approval", amount: 50 },
      { state: "awaiting_approval", amount: 10 },
    ]);
    const [request] = await app.sql<{ detail: Record<string, number> }>(
      "select detail from operator_actions where user_id = $1 and action = 'adjust_request' order by id limit 1",
      [person.uid],
    );
    expect(request!.detail).toMatchObject({ window_sum: 50, window_sum_mine: 50, window_hours: 24, limit: 50 });
    const page = await finance.client.visit(`/admin/people/${person.uid}`);
    expect(page.html).toContain("Waiting for a second operator");
  });

  it("two operators splitting $60 into two $30 at the same moment still hit the window's limit: one is applied, the other waits (five people, each raced once)", async () => {
    const people = await Promise.all([1, 2, 3, 4, 5].map(() => newMember(app)));
    await Promise.all(
      people.flatMap((person) =>
        [finance, secondFinance].map((operator) =>
          operator.client.post(`/admin/people/${person.uid}`, {
            intent: "adjust",
            amount: "30.00",
            kind: "earned",
            reason: "Split at once",
          }),
        ),
      ),
    );
    for (const person of people) {
      const states = await app.sql<{ state: string }>(
        "select state from balance_adjustments where user_id = $1 order by state",
        [person.uid],
      );
      expect(states.map((row) => row.state)).toEqual(["applied", "awaiting_approval"]);
      expect(await balance(person.uid)).toBe(30);
    }
  });

  describe("one operator's adjustments for everyone together", () => {
    let operator: Awaited<ReturnType<typeof newOperator>>;
    beforeAll(async () => {
      operator = await newOperator(app, "finance");
      await app.sql("update app_config set adjustment_operator_limit = 100");
    });
    afterAll(() => app.sql("update app_config set adjustment_operator_limit = 100000"));

    const credit = (by: typeof operator, uid: string) =>
      by.client.post(`/admin/people/${uid}`, { intent: "adjust", amount: "40.00", kind: "earned", reason: "Alias" });

    it("$40 to each of four people by one operator (a $100 limit across everyone): two applied, the third and fourth wait and say why; another operator's $40 to a fifth goes through", async () => {
      const people = await Promise.all([1, 2, 3, 4, 5].map(() => newMember(app)));
      for (const person of people.slice(0, 3)) expect((await credit(operator, person.uid)).status).toBe(302);
      const fourth = await credit(operator, people[3]!.uid);
      const told = visibleText((await operator.client.visit(fourth.headers.get("location")!)).html);
      expect(told).toContain(
        "$40.00 with the $80.00 you adjusted for everyone in the last 24 hours is more than $100.00: another finance operator or owner must approve it",
      );
      expect(await Promise.all(people.slice(0, 4).map((person) => balance(person.uid)))).toEqual([40, 40, 0, 0]);
      const [request] = await app.sql<{ detail: Record<string, unknown> }>(
        "select detail from operator_actions where user_id = $1 and action = 'adjust_request'",
        [people[2]!.uid],
      );
      expect(request!.detail).toMatchObject({ waits_for: "operator", operator_sum: 80, operator_limit: 100 });
      expect((await credit(await newOperator(app, "finance"), people[4]!.uid)).status).toBe(302);
      expect(await balance(people[4]!.uid)).toBe(40);
    });

    it("one operator posting $40 to five people at the same moment (a $100 limit across everyone): two applied, three wait", async () => {
      const racer = await newOperator(app, "finance");
      const people = await Promise.all([1, 2, 3, 4, 5].map(() => newMember(app)));
      await Promise.all(people.map((person) => credit(racer, person.uid)));
      const states = await app.sql<{ state: string; count: number }>(
        "select state, count(*)::int as count from balance_adjustments where requested_by_user_id = $1 group by state order by state",
        [racer.uid],
      );
      expect(states).toEqual([
        { state: "applied", count: 2 },
        { state: "awaiting_approval", count: 3 },
      ]);
    });
  });

  it("a debit counts toward the window too: $-40 then $+40 by one operator, the second waits", async () => {
    const person = await newMember(app);
    await app.sql("select add_user_coins($1, 4000)", [person.uid]);
    const adjust = (amount: string, kind: string) =>
      finance.client.post(`/admin/people/${person.uid}`, { intent: "adjust", amount, kind, reason: "Round trip" });
    expect((await adjust("-40.00", "bonus")).status).toBe(302);
    expect((await adjust("40.00", "earned")).status).toBe(302);
    expect(await app.sql("select state from balance_adjustments where user_id = $1 order by id", [person.uid])).toEqual(
      [{ state: "applied" }, { state: "awaiting_approval" }],
    );
  });

  it("support may not adjust, and an adjustment's window counts only what went through on one operator's word (an approved one does not fill it)", async () => {
    const person = await newMember(app);
    const refused = await support.client.post(`/admin/people/${person.uid}`, {
      intent: "adjust",
      amount: "1.00",
      kind: "earned",
      reason: "x",
    });
    expect(refused.status).toBe(403);
    expect(
      (
        await finance.client.post(`/admin/people/${person.uid}`, {
          intent: "adjust",
          amount: "60.00",
          kind: "earned",
          reason: "Big",
        })
      ).status,
    ).toBe(302);
    const [waiting] = await app.sql<{ id: string }>(
      "select id::text from balance_adjustments where user_id = $1 and state = 'awaiting_approval'",
      [person.uid],
    );
    expect(
      (
        await secondFinance.client.post(`/admin/people/${person.uid}`, {
          intent: "approve-adjustment",
          adjustment: waiting!.id,
        })
      ).status,
    ).toBe(302);
    // Four eyes saw the $60: a later $5 goes through on one operator's word.
    expect(
      (
        await finance.client.post(`/admin/people/${person.uid}`, {
          intent: "adjust",
          amount: "5.00",
          kind: "earned",
          reason: "Small",
        })
      ).status,
    ).toBe(302);
    expect(await balance(person.uid)).toBe(65);
  });

  it("pausing, banning and signing someone out on a session signed in more than 15 minutes ago ask for the password, keep the reason typed, and go ahead with it", async () => {
    const person = await newMember(app);
    const old = await newOperator(app, "finance");
    await ageSession(old.client, old.uid, 16 * 60);
    for (const [intent, fields] of [
      ["pause", { reason: "Checking cash-outs" }],
      ["ban", { reason: "Fraud ring" }],
      ["sign-out-everywhere", {}],
    ] as const) {
      const response = await old.client.post(`/admin/people/${person.uid}`, { intent, ...fields });
      expect(response.status, intent).toBe(403);
      const body = await response.text();
      expect(body).toContain("Enter your password: money, policy and access changes need a sign-in");
      if ("reason" in fields) expect(body).toContain(fields.reason);
    }
    expect(await app.sql("select payouts_paused_at, banned_at from user_profiles where id = $1", [person.uid])).toEqual(
      [{ payouts_paused_at: null, banned_at: null }],
    );
    const paused = await old.client.post(`/admin/people/${person.uid}`, {
      intent: "pause",
      reason: "Checking cash-outs",
      password: "s3cret-pass",
    });
    expect(paused.status).toBe(302);
    expect(
      await app.sql("select payouts_paused_at is not null as paused from user_profiles where id = $1", [person.uid]),
    ).toEqual([{ paused: true }]);
  });

  it("an account below zero cannot be deleted: Profile and Settings say why and show no password form, and a post with the right password is refused in SQL's words, the account kept", async () => {
    const person = await newMember(app);
    await app.sql("select record_email_verified($1)", [person.uid]);
    // $20 earned and cleared, cashed out and paid; then the network takes it back.
    await app.sql("select record_postback('bitlabs', 'debt-1', $1, 2000, false, 'Survey', null, 0)", [person.uid]);
    const asked = await person.client.post("/withdraw", {
      intent: "withdraw",
      amount: "20",
      method: "upi",
      upiId: `debt.${Date.now().toString(36)}@okaxis`,
    });
    expect(asked.status).toBe(302);
    await app.sql("update withdrawals set review_state = 'approved' where user_id = $1", [person.uid]);
    await app.sql(
      "select settle_withdrawal(id, 'completed', 'UTR-DEBT') from withdrawals where user_id = $1 and status = 'pending'",
      [person.uid],
    );
    await app.sql("select record_postback('bitlabs', 'debt-1', $1, 2000, true, 'Reversed', null, null)", [person.uid]);
    expect(await balance(person.uid)).toBe(-20);

    for (const page of ["/profile", "/settings"]) {
      const html = (await person.client.visit(page)).html;
      expect(visibleText(html), page).toContain("You owe $20.00: an offer network took back coins");
      expect(html, page).not.toContain('name="password"');
    }
    const refused = await person.client.post("/profile", { intent: "delete-account", password: "s3cret-pass" });
    expect(refused.status).toBe(400);
    expect(visibleText(await refused.text())).toContain("You owe $20.00");
    expect(await app.sql("select id from user_profiles where id = $1", [person.uid])).toEqual([{ id: person.uid }]);
    // SQL refuses it too, whoever calls.
    await expect(app.sql("select delete_account($1, null)", [person.uid])).rejects.toMatchObject({
      hint: "account_in_debt",
    });
  });
});
