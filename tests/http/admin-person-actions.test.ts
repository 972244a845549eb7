import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERIFIED_CHECK_PATH } from "~/domain/verification-form";
import { ageSession, newMember, newOperator, signInAs } from "../support/console";
import { continueUrlOf, sentOobCodes } from "../support/emulator";
import { html } from "../support/http";
import { ledgerAudit } from "../support/ledger-audit";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { eventually } from "../support/wait";

// What an operator does to an account from its page (docs/operator-console.md, "People"), over
// HTTP with JavaScript off on the production build with its own Postgres and the Auth emulator:
// balance adjustments (a second operator for large ones), cash-outs paused, the account closed,
// its sessions ended, the verification email sent again, notes; who may do which.
describe("the console's actions on a person's page", () => {
  let app: PostgresApp;
  let finance: Awaited<ReturnType<typeof newOperator>>;
  let secondFinance: Awaited<ReturnType<typeof newOperator>>;
  let support: Awaited<ReturnType<typeof newOperator>>;

  beforeAll(async () => {
    app = await startPostgresApp();
    [finance, secondFinance, support] = await Promise.all([
      newOperator(app, "finance"),
      newOperator(app, "finance"),
      newOperator(app, "support"),
    ]);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  async function money(uid: string) {
    const [row] = await app.sql<{ balance: string; total_earned: string; earned_total: string }>(
      "select balance, total_earned, earned_total from user_balance where user_id = $1",
      [uid],
    );
    return { balance: Number(row!.balance), total: Number(row!.total_earned), earned: Number(row!.earned_total) };
  }

  const actions = (uid: string) =>
    app.sql<{ action: string; actor_user_id: string | null; reason: string | null; before: unknown; after: unknown }>(
      "select action, actor_user_id, reason, before, after from operator_actions where user_id = $1 order by id",
      [uid],
    );

  const post = (client: typeof finance.client, uid: string, fields: Record<string, string>) =>
    client.post(`/admin/people/${uid}`, fields);

  it("a finance operator credits earned money: one ledger row, the balance and earned totals move, the audit says before and after, the person sees a correction", async () => {
    const person = await newMember(app);
    const response = await post(finance.client, person.uid, {
      intent: "adjust",
      amount: "3.00",
      kind: "earned",
      reason: "BitLabs survey 88 never posted back",
    });
    expect(response.status).toBe(302);
    expect(await money(person.uid)).toEqual({ balance: 3, total: 3, earned: 3 });
    expect(
      await app.sql("select transaction_type, kind, amount::float, coins from transaction_history where user_id = $1", [
        person.uid,
      ]),
    ).toEqual([{ transaction_type: "adjustment", kind: "earned", amount: 3, coins: 300 }]);
    expect(await actions(person.uid)).toEqual([
      {
        action: "adjust",
        actor_user_id: finance.uid,
        reason: "BitLabs survey 88 never posted back",
        before: { balance: 0 },
        after: { balance: 3 },
      },
    ]);
    const page = await finance.client.visit(`/admin/people/${person.uid}`);
    expect(page.html).toContain("Balance adjusted by $3.00");
    const profile = await person.client.visit("/profile");
    expect(profile.html).toContain("Correction by support");
    expect((await ledgerAudit(app.sql)).problems).toEqual([]);
  });

  it("a debit takes bonus money back, and a debit larger than what was credited of that kind is refused on the amount, changing nothing", async () => {
    const person = await newMember(app);
    await app.sql("select add_user_coins($1, 500)", [person.uid]);
    expect(
      (
        await post(finance.client, person.uid, {
          intent: "adjust",
          amount: "-1.50",
          kind: "bonus",
          reason: "Duplicate check-in credit",
        })
      ).status,
    ).toBe(302);
    expect(await money(person.uid)).toEqual({ balance: 3.5, total: 3.5, earned: 0 });
    const tooMuch = await post(finance.client, person.uid, {
      intent: "adjust",
      amount: "-1.00",
      kind: "earned",
      reason: "Too much",
    });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.text()).toContain("This debit is more than the account was ever credited of that kind");
    expect(await money(person.uid)).toEqual({ balance: 3.5, total: 3.5, earned: 0 });
  });

  it("refuses an amount that is not dollars and cents, a missing kind and a missing reason, each on its field, changing nothing", async () => {
    const person = await newMember(app);
    for (const amount of ["abc", "0", "5.001", "1e3", "", "10000000"]) {
      const response = await post(finance.client, person.uid, {
        intent: "adjust",
        amount,
        kind: "earned",
        reason: "Test",
      });
      expect(response.status, amount).toBe(400);
      expect(await response.text(), amount).toContain(html("Enter an amount in dollars with at most two decimals"));
    }
    const noKind = await post(finance.client, person.uid, { intent: "adjust", amount: "1", reason: "Test" });
    expect(await noKind.text()).toContain("Choose earned or bonus money");
    const noReason = await post(finance.client, person.uid, {
      intent: "adjust",
      amount: "1",
      kind: "bonus",
      reason: " ",
    });
    expect(await noReason.text()).toContain("Write the reason (it is kept in the audit log).");
    expect(await money(person.uid)).toEqual({ balance: 0, total: 0, earned: 0 });
    expect(await actions(person.uid)).toEqual([]);
  });

  it("an adjustment above the owner's limit waits: the one who asked cannot approve it, a second finance operator approves it once, even pressing twice at once", async () => {
    const person = await newMember(app);
    const asked = await post(finance.client, person.uid, {
      intent: "adjust",
      amount: "60.00",
      kind: "earned",
      reason: "Chargeback won",
    });
    expect(asked.status).toBe(302);
    expect(await money(person.uid)).toEqual({ balance: 0, total: 0, earned: 0 });
    const [waiting] = await app.sql<{ id: string }>(
      "select id::text from balance_adjustments where user_id = $1 and state = 'awaiting_approval'",
      [person.uid],
    );
    const ownPage = await (await finance.client.get(`/admin/people/${person.uid}`)).text();
    expect(ownPage).toContain("Another finance operator or owner must approve or decline it.");
    expect(ownPage).not.toContain('data-testid="form-approve-adjustment"');
    const own = await post(finance.client, person.uid, { intent: "approve-adjustment", adjustment: waiting!.id });
    expect(own.status).toBe(400);
    expect(await own.text()).toContain("Another operator must approve or decline an adjustment you asked for");

    const approvals = await Promise.all(
      [1, 2].map(() =>
        post(secondFinance.client, person.uid, { intent: "approve-adjustment", adjustment: waiting!.id }),
      ),
    );
    expect(approvals.map((response) => response.status)).toEqual([302, 302]);
    expect(await money(person.uid)).toEqual({ balance: 60, total: 60, earned: 60 });
    // The requester's own try is kept in the audit log, as refused.
    expect((await actions(person.uid)).map((entry) => entry.action)).toEqual([
      "adjust_request",
      "refused",
      "adjust_approve",
    ]);
    expect((await ledgerAudit(app.sql)).problems).toEqual([]);
  });

  it("a second operator declines a waiting adjustment with a reason: nothing is credited", async () => {
    const person = await newMember(app);
    await post(finance.client, person.uid, { intent: "adjust", amount: "-75", kind: "bonus", reason: "Take it all" });
    const [waiting] = await app.sql<{ id: string }>("select id::text from balance_adjustments where user_id = $1", [
      person.uid,
    ]);
    const noReason = await post(secondFinance.client, person.uid, {
      intent: "decline-adjustment",
      adjustment: waiting!.id,
      reason: "",
    });
    expect(noReason.status).toBe(400);
    const declined = await post(secondFinance.client, person.uid, {
      intent: "decline-adjustment",
      adjustment: waiting!.id,
      reason: "No evidence",
    });
    expect(declined.status).toBe(302);
    expect(
      await app.sql("select state, decision_reason from balance_adjustments where id = $1", [waiting!.id]),
    ).toEqual([{ state: "declined", decision_reason: "No evidence" }]);
    expect(await money(person.uid)).toEqual({ balance: 0, total: 0, earned: 0 });
  });

  it("support may not move money (403, nothing changed) but adds a note, signs the person out of every device and resends the verification email", async () => {
    const person = await newMember(app);
    const page = await (await support.client.get(`/admin/people/${person.uid}`)).text();
    expect(page).not.toContain('data-testid="form-adjust"');
    expect(page).not.toContain('data-testid="form-pause"');
    for (const fields of [
      { intent: "adjust", amount: "1", kind: "bonus", reason: "x" } as Record<string, string>,
      { intent: "pause", reason: "x" },
      { intent: "ban", reason: "x" },
    ]) {
      const refused = await post(support.client, person.uid, fields);
      expect(refused.status, fields.intent).toBe(403);
      expect(await refused.text()).toContain("Your operator role does not allow this");
    }
    expect(await money(person.uid)).toEqual({ balance: 0, total: 0, earned: 0 });

    expect(
      (await post(support.client, person.uid, { intent: "note", note: "Called about a missing survey" })).status,
    ).toBe(302);
    expect((await support.client.visit(`/admin/people/${person.uid}`)).html).toContain("Called about a missing survey");

    const before = (await sentOobCodes()).filter(
      (code) => code.email === person.email && code.requestType === "VERIFY_EMAIL",
    ).length;
    expect((await post(support.client, person.uid, { intent: "resend-verification" })).status).toBe(302);
    const after = (await sentOobCodes()).filter(
      (code) => code.email === person.email && code.requestType === "VERIFY_EMAIL",
    );
    expect(after.length).toBe(before + 1);
    // Its link returns to the app's check on Home, as the person's own does.
    expect(continueUrlOf(after.at(-1)!.oobLink)).toBe(new URL(VERIFIED_CHECK_PATH, app.url).href);

    expect((await person.client.get("/")).status).toBe(200);
    expect((await post(support.client, person.uid, { intent: "sign-out-everywhere" })).status).toBe(302);
    await eventually(async () => (await person.client.get("/")).headers.get("location")?.startsWith("/auth"), {
      what: "the sessions to end",
    });
    expect((await actions(person.uid)).map((entry) => entry.action)).toEqual([
      "note",
      "resend_verification",
      "revoke_sessions",
    ]);
  });

  it("pausing cash-outs shows on the person's Withdraw screen until resumed; closing the account ends its sessions and refuses sign-in until reopened", async () => {
    const person = await newMember(app);
    expect(
      (await post(finance.client, person.uid, { intent: "pause", reason: "Checking a referral ring" })).status,
    ).toBe(302);
    expect((await person.client.visit("/withdraw")).html).toContain("Cash-outs are paused on your account");
    expect((await post(finance.client, person.uid, { intent: "resume" })).status).toBe(302);
    expect((await person.client.visit("/withdraw")).html).not.toContain("Cash-outs are paused on your account");

    expect((await post(finance.client, person.uid, { intent: "ban", reason: "Alias farm" })).status).toBe(302);
    // Ended at the session's next check (each server drops what it verified once told: a moment).
    await eventually(async () => (await person.client.get("/")).headers.get("location")?.startsWith("/auth"), {
      what: "the closed account's session to end",
    });
    await expect(signInAs(app, person.email)).rejects.toThrow();
    expect((await post(finance.client, person.uid, { intent: "unban" })).status).toBe(302);
    await signInAs(app, person.email);
    expect((await actions(person.uid)).map((entry) => entry.action)).toEqual(["pause", "resume", "ban", "unban"]);
  });

  it("an adjustment on a session signed in more than 15 minutes ago needs the password, and an operator cannot adjust their own balance", async () => {
    const stale = await newOperator(app, "finance");
    await ageSession(stale.client, stale.uid, 20 * 60);
    const person = await newMember(app);
    const without = await post(stale.client, person.uid, { intent: "adjust", amount: "1", kind: "bonus", reason: "x" });
    expect(without.status).toBe(403);
    expect(await without.text()).toContain(
      "Enter your password: money, policy and access changes need a sign-in within the last 15 minutes.",
    );
    expect(await money(person.uid)).toEqual({ balance: 0, total: 0, earned: 0 });
    const withPassword = await post(stale.client, person.uid, {
      intent: "adjust",
      amount: "1",
      kind: "bonus",
      reason: "x",
      password: "s3cret-pass",
    });
    expect(withPassword.status).toBe(302);
    expect(await money(person.uid)).toEqual({ balance: 1, total: 1, earned: 0 });

    const ownPage = await (await finance.client.get(`/admin/people/${finance.uid}`)).text();
    expect(ownPage).not.toContain('data-testid="form-adjust"');
    const own = await post(finance.client, finance.uid, { intent: "adjust", amount: "5", kind: "bonus", reason: "Me" });
    expect(own.status).toBe(400);
    expect(await own.text()).toContain("Operators cannot do this to their own account");
  });

  it("a member gets the normal 404 page for a post to a person's page", async () => {
    const { client } = await newMember(app);
    const person = await newMember(app);
    const response = await client.post(`/admin/people/${person.uid}`, { intent: "note", note: "hi" });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Oops! Page not found");
  });

  it("where PayPal is not set up, an approved PayPal withdrawal offers no Pay button but Mark paid, which settles it with PayPal's transaction id", async () => {
    const person = await newMember(app);
    await app.sql("select record_email_verified($1)", [person.uid]);
    await app.sql("select add_user_coins($1, 700)", [person.uid]);
    const asked = await person.client.post("/withdraw", {
      intent: "withdraw",
      amount: "7",
      method: "paypal",
      paypalEmail: `byhand.${Date.now().toString(36)}@example.com`,
    });
    expect(asked.status).toBe(302);
    const [row] = await app.sql<{ id: string }>("select id from withdrawals where user_id = $1", [person.uid]);
    await app.sql("update withdrawals set review_state = 'approved' where id = $1", [row!.id]);
    const page = await finance.client.visit(`/admin/withdrawals/${row!.id}`);
    expect(page.html).not.toContain('data-testid="form-pay"');
    expect(page.html).toContain('data-testid="form-mark-paid"');
    expect(page.html).toContain("PayPal transaction id");
    const paid = await finance.client.post(`/admin/withdrawals/${row!.id}`, {
      intent: "mark-paid",
      reference: "PAYPAL-7HX",
    });
    expect(paid.status).toBe(302);
    expect(await app.sql("select status, reference from withdrawals where id = $1", [row!.id])).toEqual([
      { status: "completed", reference: "PAYPAL-7HX" },
    ]);
    // Posting Pay anyway (an old page) says it is not possible, and nothing is claimed.
    expect((await finance.client.post(`/admin/withdrawals/${row!.id}`, { intent: "pay" })).status).toBe(409);
  });
});
