import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleMessage } from "~/domain/rules";
import { newMember } from "../support/console";
import { HttpClient, html, landing } from "../support/http";
import { runOperator } from "../support/operator";
import { startPayPalStandIn, type PayPalStandIn } from "../support/paypal";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { eventually } from "../support/wait";

// Withdrawals reviewed by risk (issue 17, part 5; docs/decisions/068) end to end: people post the
// Withdraw form with JavaScript off on the production build with its own Postgres, and the
// operator runs the built command (`npm run payouts -- review|approve|reject|pause|resume|ban|unban`).
// The review settings are production's: a first withdrawal waits for review.
describe("withdrawals reviewed by risk: the Withdraw screen and the operator command, over HTTP on Postgres", () => {
  let app: PostgresApp;
  let paypal: PayPalStandIn;

  beforeAll(async () => {
    paypal = await startPayPalStandIn();
    app = await startPostgresApp(paypal.env);
    await app.sql("update app_config set review_first_withdrawal = true");
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await paypal?.close();
  });

  const operator = (args: string[]) => runOperator(app.scratchUrl, args, { OPERATOR_NAME: "ops-anna", ...paypal.env });

  async function operatorJson<T>(args: string[]): Promise<T> {
    const result = await operator([...args, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  }

  /** A signed-in account with a verified email and `dollars` of bonus coins. */
  async function account(dollars: number) {
    const { client, email, uid: id } = await newMember(app);
    await app.sql("select record_email_verified($1)", [id]);
    await app.sql("select add_user_coins($1, $2)", [id, Math.round(dollars * 100)]);
    return { client, email, id };
  }

  async function requestWithdrawal(client: HttpClient, upiId: string, amount = "5") {
    const response = await client.post("/withdraw", { intent: "withdraw", amount, method: "upi", upiId });
    expect(response.status).toBe(302);
    const [row] = await app.sql<{ id: string; review_state: string }>(
      "select w.id, w.review_state from withdrawals w join user_profiles p on p.id = w.user_id where w.recipient_upi = $1 order by w.created_at desc limit 1",
      [upiId],
    );
    return row!;
  }

  async function balance(id: string) {
    const [row] = await app.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [id]);
    return Number(row!.balance);
  }

  it("a first withdrawal is In review; review shows its score and reasons, approve logs the operator and the history says Sending", async () => {
    const { client, id } = await account(12);
    const withdrawal = await requestWithdrawal(client, "first.cashout@okaxis");
    expect(withdrawal.review_state).toBe("review");
    const history = await client.visit("/withdraw?history=1");
    expect(history.html).toContain("In review");

    const review = await operator(["review"]);
    expect(review.code, review.stderr).toBe(0);
    const block = review.stdout.slice(review.stdout.indexOf(withdrawal.id));
    expect(block).toMatch(/score 35 {2}\(first withdrawal\)/);
    expect(block).toContain(`account ${id}`);
    expect(block).toMatch(/\+20 {2}account made less than an hour ago/);
    expect(block).toMatch(/\+15 {2}\$12\.00 earned in the last 24 hours, \$0\.00 before/);

    const approved = await operator(["approve", withdrawal.id]);
    expect(approved.stdout.trim()).toBe(`${withdrawal.id}  approved`);
    expect(
      await app.sql("select actor, action from operator_actions where withdrawal_id = $1", [withdrawal.id]),
    ).toEqual([{ actor: "ops-anna", action: "approve" }]);
    // Approved UPI withdrawals are the ones exported to pay by hand.
    const exported = await operator(["export-upi"]);
    expect(exported.stdout).toContain(withdrawal.id);
    expect((await client.visit("/withdraw?history=1")).html).toContain("Sending");
  });

  it("a withdrawal waiting for review is not exported or paid by hand until approved", async () => {
    const { client } = await account(8);
    const withdrawal = await requestWithdrawal(client, "waiting.one@okaxis");
    expect((await operator(["export-upi"])).stdout).not.toContain(withdrawal.id);
    const settled = await operator(["settle", withdrawal.id, "completed"]);
    expect(settled.code).toBe(1);
    expect(settled.stderr.trim()).toBe(`error: ${ruleMessage("withdrawal_not_approved")}`);
  });

  it("send pays only approved PayPal withdrawals: --all leaves one waiting for review, naming it says to approve it first", async () => {
    const { client, id } = await account(12);
    const response = await client.post("/withdraw", {
      intent: "withdraw",
      amount: "6",
      method: "paypal",
      paypalEmail: "reviewed.payee@example.com",
    });
    expect(response.status).toBe(302);
    const [withdrawal] = await app.sql<{ id: string }>("select id from withdrawals where user_id = $1", [id]);

    const all = await operator(["send", "--all"]);
    expect(all.stdout.trim()).toBe(
      "Nothing to send: no approved PayPal withdrawal waits to be sent (review lists those waiting for review).",
    );
    const named = await operator(["send", withdrawal!.id]);
    expect(named.code).toBe(1);
    expect(named.stderr.trim()).toBe(
      `error: Withdrawal ${withdrawal!.id} is waiting for review: approve it first (review, approve)`,
    );
    expect(paypal.payoutsMade(withdrawal!.id)).toBe(0);

    await operator(["approve", withdrawal!.id]);
    const sent = await operator(["send", withdrawal!.id]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(
      new RegExp(`^sent +${withdrawal!.id} +\\$6\\.00 to reviewed\\.payee@example\\.com`, "m"),
    );
    expect(paypal.payoutsMade(withdrawal!.id)).toBe(1);
  });

  it("reject --reason refunds the money, tells the owner why on their next page, and the history says Refused", async () => {
    const { client, id } = await account(9);
    const withdrawal = await requestWithdrawal(client, "refused.one@okaxis");
    expect(await balance(id)).toBe(4);

    const rejected = await operator(["reject", withdrawal.id, "--reason", "Offer earnings under investigation"]);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stdout.trim()).toBe(`Withdrawal ${withdrawal.id} is refused; $5.00 is back in the balance.`);
    expect(await balance(id)).toBe(9);

    const home = await client.visit("/");
    expect(home.html).toContain("Withdrawal refused");
    expect(home.html).toContain(
      html(
        "Your $5.00 UPI withdrawal was refused after review — $5.00 refunded to your balance. Offer earnings under investigation.",
      ),
    );
    const history = await client.visit("/withdraw?history=1");
    expect(history.html).toContain("Refused — $5.00 refunded");
    expect(history.html).toContain(
      html("We did not send it: Offer earnings under investigation. The money is back in your balance."),
    );
  });

  it("reject without --reason, or of an id that is not one, is one line on stderr and changes nothing", async () => {
    const { client, id } = await account(9);
    const withdrawal = await requestWithdrawal(client, "no.reason@okaxis");
    const noReason = await operator(["reject", withdrawal.id]);
    expect(noReason.code).toBe(1);
    expect(noReason.stderr.trim()).toBe("error: reject needs --reason: the owner is told it");
    const notAnId = await operator(["reject", "12345", "--reason", "x"]);
    expect(notAnId.stderr.trim()).toBe('error: "12345" is not a withdrawal id (ids look like 7d1f0c9e-…)');
    const approveUnknown = await operator(["approve", "7d1f0c9e-0000-4000-8000-000000000000"]);
    expect(approveUnknown.code).toBe(1);
    expect(approveUnknown.stdout.trim()).toBe("7d1f0c9e-0000-4000-8000-000000000000  not found");
    expect(await balance(id)).toBe(4);
    expect(await app.sql("select status, review_state from withdrawals where id = $1", [withdrawal.id])).toEqual([
      { status: "pending", review_state: "review" },
    ]);
  });

  it("pause: Withdraw says cash-outs are paused with the way to ask for a review, its form is disabled, a post is refused; resume lets it go", async () => {
    const { client, id } = await account(12);
    const paused = await operator(["pause", id, "--reason", "Checking a referral ring"]);
    expect(paused.stdout.trim()).toBe(`Cash-outs of ${id} are now paused.`);

    const page = await client.visit("/withdraw");
    expect(page.html).toContain(html(ruleMessage("payouts_paused")));
    expect(page.html).toContain('href="/withdraw?appeal=paused"');
    expect(page.html).toMatch(/<fieldset disabled=""/);
    const refused = await client.post("/withdraw", {
      intent: "withdraw",
      amount: "5",
      method: "upi",
      upiId: "paused.one@okaxis",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(html(ruleMessage("payouts_paused")));
    expect(await balance(id)).toBe(12);

    expect((await operator(["resume", id])).stdout.trim()).toBe(`Cash-outs of ${id} are now allowed.`);
    expect((await client.visit("/withdraw")).html).not.toContain(html(ruleMessage("payouts_paused")));
    await requestWithdrawal(client, "paused.one@okaxis");
    expect(await balance(id)).toBe(7);
  });

  it("ban ends the person's session at their next request, refuses signing in again with why, and refunds their unsent withdrawal", async () => {
    const { client, email, id } = await account(10);
    const withdrawal = await requestWithdrawal(client, "banned.one@okaxis");
    const banned = await operatorJson<{ changed: boolean; rejected: string[]; still_sent: string[] }>([
      "ban",
      id,
      "--reason",
      "Alias farm",
    ]);
    expect(banned).toMatchObject({ changed: true, rejected: [withdrawal.id], still_sent: [] });
    expect(await balance(id)).toBe(10);

    // Every server forgets the session at once (pg_notify), and its next check finds the account closed.
    await eventually(
      async () => (await client.get("/withdraw")).headers.get("location") === "/auth?redirectTo=%2Fwithdraw",
      {
        what: "the banned person's next request to be sent to /auth",
      },
    );
    expect(client.cookies.has("__session")).toBe(false);

    const visitor = new HttpClient(app.url);
    visitor.cookies.set("hasSeenOnboarding", "true");
    const signIn = await visitor.post("/auth", { intent: "signin", email, password: "s3cret-pass" });
    expect(signIn.status).toBe(400);
    expect(await signIn.text()).toContain(html(ruleMessage("account_banned")));
    expect(visitor.cookies.has("__session")).toBe(false);

    await operator(["unban", id]);
    const again = await visitor.post("/auth", { intent: "signin", email, password: "s3cret-pass" });
    expect((await landing(visitor, again)).location).toBe("/");
  });
});
