import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cashOutOf, newOperator } from "../support/console";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// An appeal before any ban (issue 38, point 4; docs/decisions/090), over HTTP on Postgres: a refused
// cash-out and paused cash-outs offer "Ask for a review" on Withdraw; the appeal is a conversation
// in Help & Support; the console lists it first and shares the reasons an operator chooses.

const html = (text: string) => text.replaceAll("&", "&amp;").replaceAll("'", "&#x27;");

describe("Ask for a review", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp();
    // Every first cash-out waits for review, so it can be refused.
    await app.sql("update app_config set review_first_withdrawal = true");
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  async function refusedCashOut() {
    const person = await cashOutOf(app, 5, { method: "paypal", paypalEmail: "appeal@example.com" });
    await app.sql("select reject_withdrawal($1, 'Signals shared with other accounts', 'Sam Support')", [person.id]);
    return person;
  }

  it("a refused cash-out offers Ask for a review; the appeal becomes a conversation in Help & Support, and a second one points to it", async () => {
    const person = await refusedCashOut();
    const history = (await person.client.visit("/withdraw?history=1")).html;
    expect(history).toContain(`href="/withdraw?appeal=${person.id}"`);
    const form = (await person.client.visit(`/withdraw?appeal=${person.id}`)).html;
    expect(form).toContain("Ask for a review of this cash-out");
    const sent = await person.client.post(`/withdraw?appeal=${person.id}`, {
      intent: "appeal",
      appealOf: person.id,
      message: "I earned this on surveys, on my own phone.",
    });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/profile?tab=help");
    const help = (await person.client.visit("/profile?tab=help")).html;
    expect(help).toMatch(/Review of your \$5\.00 cash-out of /);
    expect(help).toContain("I earned this on surveys, on my own phone.");
    expect(help).not.toContain("What we can share about why");
    const again = await person.client.post(`/withdraw?appeal=${person.id}`, {
      intent: "appeal",
      appealOf: person.id,
      message: "Again",
    });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain(html("You already asked for a review of this."));
  });

  it("the console lists appeals first; the reasons an operator checks are what the person reads, audited", async () => {
    const person = await refusedCashOut();
    await person.client.post(`/withdraw?appeal=${person.id}`, {
      intent: "appeal",
      appealOf: person.id,
      message: "Please look again.",
    });
    const [ticket] = await app.sql<{ id: number }>("select id from user_feedback where appeal_withdrawal_id = $1", [
      person.id,
    ]);
    const support = await newOperator(app, "support");
    const inbox = (await support.client.visit("/admin/support")).html;
    const appealsAt = inbox.indexOf("Appeals first");
    expect(appealsAt).toBeGreaterThan(-1);
    expect(inbox.indexOf(`/admin/support/feedback/${ticket!.id}`)).toBeGreaterThan(appealsAt);
    expect(inbox).toContain("Appeal: cash-out refused");
    const page = (await support.client.visit(`/admin/support/feedback/${ticket!.id}`)).html;
    expect(page).toContain("What they appeal");
    expect(page).toContain('value="new_account"');
    const shared = await support.client.post(`/admin/support/feedback/${ticket!.id}`, {
      intent: "show-reasons",
      reasons: "new_account",
    });
    expect(shared.status).toBe(302);
    const help = (await person.client.visit("/profile?tab=help")).html;
    expect(help).toContain("What we can share about why:");
    expect(help).toMatch(/<li>account made [^<]+<\/li>/);
    // A code that is not this withdrawal's is refused, and changes nothing.
    const forged = await support.client.post(`/admin/support/feedback/${ticket!.id}`, {
      intent: "show-reasons",
      reasons: "not_a_reason",
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain(html("That reason is not one of this withdrawal's"));
    const audit = await app.sql<{ n: number }>(
      "select count(*)::int as n from operator_actions where action = 'show_appeal_reasons' and record_id = $1",
      [String(ticket!.id)],
    );
    expect(audit[0]!.n).toBe(1);
  });

  it("paused cash-outs offer Ask for a review over the form; nothing else can be appealed, and someone else's refusal is not theirs", async () => {
    const person = await refusedCashOut();
    const stranger = await refusedCashOut();
    // Another person's refused cash-out, named in the form: refused, nothing written.
    const theirs = await person.client.post("/withdraw", {
      intent: "appeal",
      appealOf: stranger.id,
      message: "Mine?",
    });
    expect(theirs.status).toBe(400);
    expect(await theirs.text()).toContain("There is nothing to review here");
    const garbage = await person.client.post("/withdraw", { intent: "appeal", appealOf: "paused'--", message: "x" });
    expect(garbage.status).toBe(400);
    // Not paused: no link, and a review of paused cash-outs is refused.
    expect((await person.client.visit("/withdraw")).html).not.toContain('href="/withdraw?appeal=paused"');
    const notPaused = await person.client.post("/withdraw", { intent: "appeal", appealOf: "paused", message: "x" });
    expect(notPaused.status).toBe(400);
    await app.sql("select set_payouts_paused($1, true, 'Checking recent activity', 'Sam Support')", [person.uid]);
    const paused = (await person.client.visit("/withdraw")).html;
    expect(paused).toContain('href="/withdraw?appeal=paused"');
    expect((await person.client.visit("/withdraw?appeal=paused")).html).toContain(
      "Ask for a review of your paused cash-outs",
    );
    const sent = await person.client.post("/withdraw", { intent: "appeal", appealOf: "paused", message: "Why?" });
    expect(sent.status).toBe(302);
    const rows = await app.sql<{ user_id: string; appeal_cause: string }>(
      "select user_id, appeal_cause from user_feedback where appeal_cause is not null and user_id = any($1)",
      [[person.uid, stranger.uid]],
    );
    expect(rows).toEqual([{ user_id: person.uid, appeal_cause: "payouts_paused" }]);
  });
});
