import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visibleText } from "../support/bad-input";
import { consoleTableCells, newMember, newOperator } from "../support/console";
import { html } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startSmtpStandIn, type SmtpStandIn } from "../support/smtp";
import { eventually } from "../support/wait";

// The support inbox (docs/operator-console.md, "Support inbox"), over HTTP with JavaScript off on
// the production build with its own Postgres, the Auth emulator and a local SMTP server: feedback
// and missing-credit reports as tickets, replies the person sees and is emailed, internal notes,
// statuses and assignment, and crediting a missing offer.
describe("the console's support inbox", () => {
  let app: PostgresApp;
  let smtp: SmtpStandIn;
  let support: Awaited<ReturnType<typeof newOperator>>;
  let finance: Awaited<ReturnType<typeof newOperator>>;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    app = await startPostgresApp({
      SMTP_URL: smtp.url,
      EMAIL_FROM: "Rewards <support@rewards.example>",
      PUBLIC_URL: "https://rewards.example",
      NOTIFY_RETRY_SECONDS: "1",
      WALL_BITLABS_ENABLED: "true",
      WALL_BITLABS_APP_TOKEN: "support-test-token",
      WALL_BITLABS_APP_SECRET: "support-test-secret",
    });
    [support, finance] = await Promise.all([newOperator(app, "support"), newOperator(app, "finance")]);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  /** A verified member who sent feedback: the ticket's id. */
  async function feedbackFrom(message: string) {
    const person = await newMember(app);
    await app.sql("select record_email_verified($1)", [person.uid]);
    const sent = await person.client.post("/profile?tab=help", {
      intent: "feedback",
      name: "Ana",
      email: person.email,
      message,
    });
    expect(sent.status).toBe(302);
    const [row] = await app.sql<{ id: string }>("select id::text from user_feedback where user_id = $1", [person.uid]);
    return { ...person, ticket: row!.id };
  }

  it("a reply to feedback is shown under the person's message, reaches them by email, and the ticket waits for them; a note stays with operators", async () => {
    const person = await feedbackFrom("My survey from BitLabs never paid out.");
    const inbox = await (await support.client.get("/admin/support")).text();
    expect(inbox).toContain(`href="/admin/support/feedback/${person.ticket}"`);
    expect(inbox).toContain("My survey from BitLabs never paid out.");

    const note = await support.client.post(`/admin/support/feedback/${person.ticket}`, {
      intent: "note",
      body: "Checked BitLabs: the survey was screened out.",
    });
    expect(note.status).toBe(302);
    const reply = await support.client.post(`/admin/support/feedback/${person.ticket}`, {
      intent: "reply",
      body: "Hi Ana,\nBitLabs screened you out of that survey, so it did not pay. Sorry!",
    });
    expect(reply.status).toBe(302);

    const help = await person.client.visit("/profile?tab=help");
    // Under their message, in their conversation (docs/decisions/082).
    expect(visibleText(help.html)).toMatch(
      /Support · \w{3} \d+, \d{4} Hi Ana, BitLabs screened you out of that survey/,
    );
    expect(help.html).not.toContain("the survey was screened out.");
    const mail = await eventually(() => smtp.mailTo(person.email).at(0), { what: "the reply's email" });
    expect(mail.parsed.subject).toBe("Support replied to you");
    expect(mail.parsed.text).toContain("BitLabs screened you out of that survey, so it did not pay. Sorry!");
    expect(mail.parsed.text).toContain("Open Rewards: https://rewards.example/profile?tab=help");

    const page = await (await support.client.get(`/admin/support/feedback/${person.ticket}`)).text();
    expect(page).toContain("Waiting for them");
    expect(page.match(/data-testid="ticket-note"/g)).toHaveLength(1);
    expect(page.match(/data-testid="ticket-reply"/g)).toHaveLength(1);
    expect(
      (
        await app.sql<{ action: string }>("select action from operator_actions where record_id = $1 order by id", [
          `feedback:${person.ticket}`,
        ])
      ).map((row) => row.action),
    ).toEqual(["ticket_note", "ticket_reply"]);
  });

  it("statuses and assignment move a ticket between the lists, each change audited", async () => {
    const person = await feedbackFrom("How do I change my email?");
    const path = `/admin/support/feedback/${person.ticket}`;
    expect((await support.client.post(path, { intent: "assign", to: "me" })).status).toBe(302);
    expect(await (await support.client.get("/admin/support?mine=1")).text()).toContain(`href="${path}"`);
    expect(await (await finance.client.get("/admin/support?mine=1")).text()).not.toContain(`href="${path}"`);
    expect((await support.client.post(path, { intent: "status", status: "resolved" })).status).toBe(302);
    expect(await (await support.client.get("/admin/support")).text()).not.toContain(`href="${path}"`);
    expect(await (await support.client.get("/admin/support?view=resolved")).text()).toContain(`href="${path}"`);
    const bad = await support.client.post(path, { intent: "status", status: "closed" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Choose open, waiting or resolved.");
    const empty = await support.client.post(path, { intent: "reply", body: "   " });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Write the message.");
    expect(
      (
        await app.sql<{ action: string }>("select action from operator_actions where record_id = $1 order by id", [
          `feedback:${path.split("/").at(-1)}`,
        ])
      ).map((row) => row.action),
    ).toEqual(["ticket_assign", "ticket_status"]);
  });

  it("crediting a missing offer from its report in coins credits earned money once (a second credit is refused in SQL and audited), resolves the report, shows the person the coins and a notice, and support may not do it", async () => {
    const person = await newMember(app);
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const reported = await person.client.post("/earn/offers?report=bitlabs", {
      intent: "report-missing-credit",
      network: "bitlabs",
      offerName: "Survey: shopping habits",
      completedOn: day,
      details: "Finished all 20 questions",
    });
    expect(reported.status).toBe(302);
    const [report] = await app.sql<{ id: string }>("select id::text from missing_credit_reports where user_id = $1", [
      person.uid,
    ]);
    const path = `/admin/support/missing-credit/${report!.id}`;
    const inbox = (await finance.client.visit("/admin/support")).html;
    expect(consoleTableCells(inbox).cells).toBeGreaterThan(0);
    expect(consoleTableCells(inbox)).toMatchObject({ unlabelled: 0 });
    const ticketPage = await finance.client.visit(path);
    expect(ticketPage.html).toContain('data-testid="form-credit"');
    expect(ticketPage.html).toContain("100 coins are $1.00");

    const refused = await support.client.post(path, { intent: "credit", coins: "120", reason: "BitLabs confirmed" });
    expect(refused.status).toBe(403);
    for (const coins of ["-1", "0", "1.5", "12a"]) {
      const badCoins = await finance.client.post(path, { intent: "credit", coins, reason: "x" });
      expect(badCoins.status, coins).toBe(400);
      expect(await badCoins.text()).toContain("Enter the credit in whole coins, more than zero, such as 400");
    }

    const credited = await finance.client.post(path, {
      intent: "credit",
      coins: "120",
      reason: "BitLabs confirmed the survey",
    });
    expect(credited.status).toBe(302);
    expect(
      await app.sql("select transaction_type, kind, amount::float from transaction_history where user_id = $1", [
        person.uid,
      ]),
    ).toEqual([{ transaction_type: "adjustment", kind: "earned", amount: 1.2 }]);
    expect(await app.sql("select status from missing_credit_reports where id = $1", [report!.id])).toEqual([
      { status: "resolved" },
    ]);
    // Resolved and credited: the form is gone, and a second post (an old page, a second tab) is refused.
    const after = await finance.client.visit(path);
    expect(after.html).not.toContain('data-testid="form-credit"');
    expect(visibleText(after.html)).toContain("Credit of 120 coins ($1.20)");
    const again = await finance.client.post(path, { intent: "credit", coins: "120", reason: "Pressed again" });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("This ticket was credited already: one credit per ticket");
    expect(
      await app.sql("select count(*)::int as n from transaction_history where user_id = $1", [person.uid]),
    ).toEqual([{ n: 1 }]);
    expect(
      await app.sql<{ detail: unknown }>(
        "select detail from operator_actions where action = 'refused' and record_id = $1",
        [`missing_credit:${report!.id}`],
      ),
    ).toEqual([{ detail: { attempted: "ticket_credit", rule: "ticket_already_credited" } }]);

    const offers = await person.client.visit("/earn/offers");
    expect(offers.html).toContain("Resolved");
    expect(offers.html).toContain("120 coins credited");
    expect(
      await app.sql("select kind, data->>'coins' as coins from user_notices where user_id = $1", [person.uid]),
    ).toEqual([{ kind: "missing_credit_credited", coins: "120" }]);

    await finance.client.post(path, { intent: "reply", body: "We credited $1.20 for the survey." });
    expect((await person.client.visit("/earn/offers")).html).toContain(html("We credited $1.20 for the survey."));
  });

  it("an unknown ticket answers 404 in the console's words, and a member gets the normal 404 page", async () => {
    for (const path of ["/admin/support/feedback/999999999", "/admin/support/other/1", "/admin/support/feedback/abc"]) {
      const response = await support.client.get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain("No such ticket");
    }
    const { client } = await newMember(app);
    for (const path of ["/admin/support", "/admin/support/feedback/1"]) {
      const response = await client.get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain("Oops! Page not found");
    }
  });
});
