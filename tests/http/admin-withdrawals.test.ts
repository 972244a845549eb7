import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ageSession, cashOutOf, consoleTableCells, newMember, newOperator } from "../support/console";
import { HttpClient, html } from "../support/http";
import { ledgerAudit } from "../support/ledger-audit";
import { startPayPalStandIn, type PayPalStandIn } from "../support/paypal";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { eventually } from "../support/wait";

// Withdrawals in the operator console (docs/operator-console.md, "Withdrawals"), over HTTP with
// JavaScript off on the production build with its own Postgres and a local PayPal: the review
// queue, refusing, approving and paying, paying by hand, the CSV export, the recent sign-in that
// money actions need, who may do what, and two operators acting on one withdrawal at once.
describe("the console's withdrawals", () => {
  let app: PostgresApp;
  let paypal: PayPalStandIn;
  let finance: Awaited<ReturnType<typeof newOperator>>;
  let support: Awaited<ReturnType<typeof newOperator>>;

  beforeAll(async () => {
    paypal = await startPayPalStandIn();
    app = await startPostgresApp(paypal.env);
    // Production's review rule: a first cash-out waits for an operator.
    await app.sql("update app_config set review_first_withdrawal = true");
    [finance, support] = await Promise.all([newOperator(app, "finance"), newOperator(app, "support")]);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await paypal?.close();
  });

  /** An account with a verified email and `dollars` of bonus coins that asks for a withdrawal: its id. */
  const withdrawal = (
    dollars: number,
    fields: Record<string, string>,
    person?: Awaited<ReturnType<typeof newMember>>,
  ) => cashOutOf(app, dollars, fields, person);

  const upi = (name: string) => ({ method: "upi", upiId: `${name}.${Date.now().toString(36)}@okaxis` });
  const paypalTo = (name: string) => ({
    method: "paypal",
    paypalEmail: `${name}.${Date.now().toString(36)}@example.com`,
  });

  async function balance(uid: string) {
    const [row] = await app.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [uid]);
    return Number(row!.balance);
  }

  async function state(id: string) {
    const [row] = await app.sql<{
      status: string;
      review_state: string;
      sent_at: string | null;
      reference: string | null;
    }>("select status, review_state, sent_at, reference from withdrawals where id = $1", [id]);
    return row!;
  }

  async function audit(id: string) {
    return app.sql<{ action: string; actor_user_id: string | null; reason: string | null }>(
      "select action, actor_user_id, reason from operator_actions where withdrawal_id = $1 order by id",
      [id],
    );
  }

  it("the review queue shows a first cash-out with its score, its reasons and the account made on the same browser as a link", async () => {
    const first = await newMember(app);
    const sameBrowser = new HttpClient(app.url);
    sameBrowser.cookies.set("hasSeenOnboarding", "true");
    sameBrowser.cookies.set("__device", first.client.cookies.get("__device")!);
    const aliasEmail = `linked.${Date.now().toString(36)}@example.com`;
    expect(
      (await sameBrowser.post("/auth?tab=signup", { intent: "signup", email: aliasEmail, password: "s3cret-pass" }))
        .status,
    ).toBe(302);
    const [alias] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [aliasEmail]);
    const { id } = await withdrawal(6, upi("queue"), first);

    const queue = await (await support.client.get("/admin/withdrawals")).text();
    const row = queue.slice(
      queue.indexOf(`/admin/withdrawals/${id}`) - 4000,
      queue.indexOf(`/admin/withdrawals/${id}`),
    );
    expect(row).toMatch(/Score \d+/);
    expect(row).toContain("signed in on the same device as 1 other account(s)");
    expect(row).toContain(`href="/admin/people/${alias!.id}"`);
    expect(row).toContain("first cash-out");
    // Support reads the queue but has nothing to press.
    expect(queue).not.toContain("Approve selected");
    const page = await (await support.client.get(`/admin/withdrawals/${id}`)).text();
    expect(page).toContain("In review");
    expect(page).not.toContain('data-testid="form-approve"');
    const refused = await support.client.post(`/admin/withdrawals/${id}`, { intent: "approve" });
    expect(refused.status).toBe(404);
    expect((await state(id)).review_state).toBe("review");
  });

  it("refusing a withdrawal in review refunds it, tells the person the reason and audits the operator", async () => {
    const person = await withdrawal(7, upi("refuse"));
    expect(await balance(person.uid)).toBe(0);
    const missing = await finance.client.post(`/admin/withdrawals/${person.id}`, { intent: "reject", reason: "  " });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Write the reason: the person is told it.");

    const refused = await finance.client.post(`/admin/withdrawals/${person.id}`, {
      intent: "reject",
      reason: "Same device as a closed account",
    });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe(`/admin/withdrawals/${person.id}`);
    expect(await state(person.id)).toMatchObject({ status: "failed", review_state: "rejected" });
    expect(await balance(person.uid)).toBe(7);
    expect(await audit(person.id)).toEqual([
      { action: "reject", actor_user_id: finance.uid, reason: "Same device as a closed account" },
    ]);
    const notices = await app.sql<{ kind: string; data: { reason: string } }>(
      "select kind, data from user_notices where user_id = $1",
      [person.uid],
    );
    expect(notices).toEqual([
      expect.objectContaining({
        kind: "withdrawal_failed",
        data: expect.objectContaining({ reason: "Same device as a closed account" }),
      }),
    ]);
    const history = await person.client.visit("/withdraw?history=1");
    expect(history.html).toContain(html("We did not send it: Same device as a closed account."));
    // Refusing again (an old page) changes nothing and says where it stands.
    const again = await finance.client.post(`/admin/withdrawals/${person.id}`, { intent: "reject", reason: "again" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already failed or refused: nothing changed");
    expect(await balance(person.uid)).toBe(7);
  });

  it("approving a PayPal withdrawal pays it through PayPal exactly once, however often it is pressed", async () => {
    const person = await withdrawal(8, paypalTo("approve"));
    const approved = await finance.client.post(`/admin/withdrawals/${person.id}`, { intent: "approve" });
    expect(approved.status).toBe(302);
    const after = await finance.client.visit(`/admin/withdrawals/${person.id}`);
    expect(after.html).toContain("1 payout sent to PayPal");
    expect(after.html).toContain("With PayPal");
    expect(paypal.payoutsMade(person.id)).toBe(1);
    expect((await state(person.id)).sent_at).not.toBeNull();
    // Pressed again from an old page, approve and pay are refused before PayPal is asked.
    for (const intent of ["approve", "pay"]) {
      const again = await finance.client.post(`/admin/withdrawals/${person.id}`, { intent });
      expect(again.status, intent).toBe(409);
    }
    expect(paypal.payoutsMade(person.id)).toBe(1);
    expect((await audit(person.id)).map((entry) => entry.action)).toEqual(["approve"]);
  });

  it("a PayPal withdrawal approved while PayPal refuses stays approved and unsent, and Pay with PayPal sends it later", async () => {
    const person = await withdrawal(9, paypalTo("later"));
    const receiver = (
      await app.sql<{ recipient_email: string }>("select recipient_email from withdrawals where id = $1", [person.id])
    )[0]!.recipient_email;
    paypal.refuseReceiver(receiver, 422, "INSUFFICIENT_FUNDS", "Sender does not have sufficient funds.");
    await finance.client.post(`/admin/withdrawals/${person.id}`, { intent: "approve" });
    const page = await finance.client.visit(`/admin/withdrawals/${person.id}`);
    expect(page.html).toContain("not sent to PayPal yet");
    expect(await state(person.id)).toMatchObject({ review_state: "approved", sent_at: null });
    paypal.acceptReceiver(receiver);
    expect((await finance.client.post(`/admin/withdrawals/${person.id}`, { intent: "pay" })).status).toBe(302);
    expect(paypal.payoutsMade(person.id)).toBe(1);
    expect((await state(person.id)).sent_at).not.toBeNull();
  });

  it("bulk approval approves the checked UPI withdrawals, the CSV export lists them, and Mark paid settles one with its reference", async () => {
    const one = await withdrawal(5, upi("bulk-one"));
    const two = await withdrawal(5, upi("bulk-two"));
    const none = await finance.client.post("/admin/withdrawals", { intent: "approve-selected" });
    expect(none.status).toBe(400);
    expect(await none.text()).toContain("Select the withdrawals to approve.");
    const bulk = await finance.client.post("/admin/withdrawals", {
      intent: "approve-selected",
      [`select-${one.id}`]: "on",
      [`select-${two.id}`]: "on",
    });
    expect(bulk.status).toBe(302);
    expect((await finance.client.visit("/admin/withdrawals")).html).toContain(
      "2 withdrawals to pay by hand (UPI or bank)",
    );
    const approvedList = (await finance.client.visit("/admin/withdrawals?view=all")).html;
    // Each row's cells name their column: below 768px a row is a card that shows it.
    expect(consoleTableCells(approvedList)).toMatchObject({ unlabelled: 0 });
    expect(consoleTableCells(approvedList).cells).toBeGreaterThan(0);
    expect((await state(one.id)).review_state).toBe("approved");
    expect((await state(two.id)).review_state).toBe("approved");

    const exported = await finance.client.post("/admin/withdrawals.csv", {});
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toContain("text/csv");
    const csv = await exported.text();
    expect(csv.split("\r\n")[0]).toBe(
      "id,created_at,amount,method,upi_id_or_bank_details,email,amount_to_pay,currency",
    );
    expect(csv).toContain(one.id);
    expect(csv).toContain(two.id);
    const [exportEntry] = await app.sql<{ actor_user_id: string; detail: { count: number } }>(
      "select actor_user_id, detail from operator_actions where action = 'export_unpaid' order by id desc limit 1",
    );
    expect(exportEntry!.actor_user_id).toBe(finance.uid);
    expect(exportEntry!.detail.count).toBeGreaterThanOrEqual(2);
    // Support may not take the payout addresses.
    expect((await support.client.post("/admin/withdrawals.csv", {})).status).toBe(404);

    const noReference = await finance.client.post(`/admin/withdrawals/${one.id}`, {
      intent: "mark-paid",
      reference: "",
    });
    expect(noReference.status).toBe(400);
    expect(await noReference.text()).toContain("Enter the payment&#x27;s reference");
    const paid = await finance.client.post(`/admin/withdrawals/${one.id}`, {
      intent: "mark-paid",
      reference: "UTR 4109 2231",
    });
    expect(paid.status).toBe(302);
    expect(await state(one.id)).toMatchObject({ status: "completed", reference: "UTR 4109 2231" });
    expect((await audit(one.id)).map((entry) => entry.action)).toEqual(["approve", "mark_paid"]);
    const failed = await finance.client.post(`/admin/withdrawals/${two.id}`, {
      intent: "mark-failed",
      reason: "UPI ID does not exist",
    });
    expect(failed.status).toBe(302);
    expect(await state(two.id)).toMatchObject({ status: "failed" });
    expect(await balance(two.uid)).toBe(5);
  });

  it("the lists filter by view, method and age, and page by URL", async () => {
    /** The method cell of each row a list shows. */
    const methods = async (query: string) => {
      const page = await (await support.client.get(`/admin/withdrawals?${query}`)).text();
      return [...page.matchAll(/data-testid="withdrawal-method">(PayPal|UPI|Bank)</g)].map((match) => match[1]);
    };
    const paypalOnly = await methods("view=all&method=paypal");
    expect(paypalOnly.length).toBeGreaterThan(0);
    expect(new Set(paypalOnly)).toEqual(new Set(["PayPal"]));
    const upiOnly = await methods("view=all&method=upi");
    expect(upiOnly.length).toBeGreaterThan(0);
    expect(new Set(upiOnly)).toEqual(new Set(["UPI"]));
    expect((await methods("view=all")).length).toBe(paypalOnly.length + upiOnly.length);
    // Nothing here has waited a week.
    expect(await (await support.client.get("/admin/withdrawals?view=all&age=168")).text()).toContain(
      "No withdrawal in this list.",
    );
    // A page of 50: the 51st withdrawal is on the next page, found by the cursor in the link.
    const person = await newMember(app);
    await app.sql(
      `insert into withdrawals (user_id, amount, payment_method, recipient_upi, status, settled_at, review_state)
       select $1, 1, 'upi', 'many' || n || '@okaxis', 'completed', now(), 'approved' from generate_series(1, 60) n`,
      [person.uid],
    );
    const first = await (await support.client.get("/admin/withdrawals?view=paid")).text();
    expect(first.match(/data-testid="withdrawal-row"/g)).toHaveLength(50);
    const next = /href="(\/admin\/withdrawals\?view=paid&amp;at=[^"]+)"/.exec(first);
    expect(next).not.toBeNull();
    const second = await (await support.client.get(next![1]!.replaceAll("&amp;", "&"))).text();
    expect(second.match(/data-testid="withdrawal-row"/g)!.length).toBeGreaterThanOrEqual(10);
    expect(second).toContain("First page");
    // Filters edited by hand fall back to the review queue rather than an error.
    const odd = await support.client.get("/admin/withdrawals?view=%3Cx%3E&method=cash&age=-1&at=yesterday&id=1");
    expect(odd.status).toBe(200);
  });

  it("a money action on a session signed in more than 15 minutes ago asks for the password, refuses a wrong one, and goes ahead with the right one", async () => {
    const stale = await newOperator(app, "finance");
    await ageSession(stale.client, stale.uid, 20 * 60);
    const person = await withdrawal(5, upi("stale"));
    const page = await (await stale.client.get(`/admin/withdrawals/${person.id}`)).text();
    expect(page).toContain("You signed in more than 15 minutes ago");

    const without = await stale.client.post(`/admin/withdrawals/${person.id}`, { intent: "approve" });
    expect(without.status).toBe(403);
    expect(await without.text()).toContain(
      "Enter your password: money, policy and access changes need a sign-in within the last 15 minutes.",
    );
    const wrong = await stale.client.post(`/admin/withdrawals/${person.id}`, { intent: "approve", password: "not-it" });
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain("That password is not right.");
    expect((await state(person.id)).review_state).toBe("review");

    const right = await stale.client.post(`/admin/withdrawals/${person.id}`, {
      intent: "approve",
      password: "s3cret-pass",
    });
    expect(right.status).toBe(302);
    expect((await state(person.id)).review_state).toBe("approved");
    // The session was renewed: the next money action needs no password.
    expect(await (await stale.client.get(`/admin/withdrawals/${person.id}`)).text()).not.toContain(
      "You signed in more than 15 minutes ago",
    );
  });

  it("two operators approving and refusing the same withdrawals at once: one wins each time, one notice, the audit clean", async () => {
    const other = await newOperator(app, "finance");
    const before = await ledgerAudit(app.sql);
    expect(before.problems).toEqual([]);
    const people = await Promise.all([1, 2, 3, 4, 5].map((index) => withdrawal(5, upi(`race-${index}`))));
    await Promise.all(
      people.flatMap((person) => [
        finance.client.post(`/admin/withdrawals/${person.id}`, { intent: "approve" }),
        other.client.post(`/admin/withdrawals/${person.id}`, { intent: "reject", reason: "Race" }),
      ]),
    );
    for (const person of people) {
      const entries = (await audit(person.id)).map((entry) => entry.action);
      const final = await state(person.id);
      const notices = await app.sql<{ n: number }>(
        "select count(*)::int as n from user_notices where user_id = $1 and kind = 'withdrawal_failed'",
        [person.uid],
      );
      if (final.review_state === "rejected") {
        // Refused first, or refused after the approval (an approved, unpaid one may still be refused).
        expect(entries.at(-1)).toBe("reject");
        expect(notices[0]!.n).toBe(1);
        expect(await balance(person.uid)).toBe(5);
      } else {
        expect(entries).toEqual(["approve"]);
        expect(notices[0]!.n).toBe(0);
        expect(await balance(person.uid)).toBe(0);
      }
      expect(entries.filter((action) => action === "reject").length).toBeLessThanOrEqual(1);
    }
    expect((await ledgerAudit(app.sql)).problems).toEqual([]);
  });

  it("a refusal while PayPal is still answering an Approve and pay is refused: PayPal pays once and nothing is refunded", async () => {
    const other = await newOperator(app, "finance");
    const person = await withdrawal(6, paypalTo("slow"));
    paypal.state.payoutDelayMs = 1_500;
    try {
      const approving = finance.client.post(`/admin/withdrawals/${person.id}`, { intent: "approve" });
      await eventually(
        async () =>
          (
            await app.sql<{ claimed: boolean }>(
              "select payout_claimed_at is not null as claimed from withdrawals where id = $1",
              [person.id],
            )
          )[0]!.claimed,
        { what: "the payout's claim" },
      );
      const refusing = await other.client.post(`/admin/withdrawals/${person.id}`, {
        intent: "reject",
        reason: "Too late",
      });
      expect(refusing.status).toBe(400);
      expect(await refusing.text()).toContain("PayPal is being asked to pay this withdrawal");
      expect((await approving).status).toBe(302);
    } finally {
      paypal.state.payoutDelayMs = 0;
    }
    expect(paypal.payoutsMade(person.id)).toBe(1);
    expect(await state(person.id)).toMatchObject({ status: "pending", review_state: "approved" });
    expect((await state(person.id)).sent_at).not.toBeNull();
    expect(await balance(person.uid)).toBe(0);
    expect((await audit(person.id)).map((entry) => entry.action)).toEqual(["approve"]);
  });

  it("a member gets the normal 404 page for every withdrawal URL, and so does a post", async () => {
    const { client } = await newMember(app);
    for (const path of [
      "/admin/withdrawals",
      "/admin/withdrawals?view=paid",
      "/admin/withdrawals/00000000-0000-0000-0000-000000000000",
    ]) {
      const response = await client.get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain("Oops! Page not found");
    }
    expect((await client.post("/admin/withdrawals", { intent: "approve-selected" })).status).toBe(404);
    expect((await client.post("/admin/withdrawals.csv", {})).status).toBe(404);
  });
});
