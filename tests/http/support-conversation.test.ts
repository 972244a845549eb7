import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleMessage } from "~/domain/rules";
import { ANSWER_FORM } from "~/domain/support";
import { visibleText } from "../support/bad-input";
import { newMember, newOperator } from "../support/console";
import { html, landing } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startSmtpStandIn, type SmtpStandIn } from "../support/smtp";
import { eventually } from "../support/wait";

// Two-way support (docs/decisions/082): the person reads each ticket as a conversation and answers
// it while it is open or waiting, posting the real forms of Help & Support and My offers without
// JavaScript, to the production build on its own Postgres with the Auth emulator and a local SMTP
// server. An answer puts the ticket back in the console's open list, shows in the console's
// thread, and emails the operators words of the app's own, never the person's.
describe("support as a conversation", () => {
  let app: PostgresApp;
  let smtp: SmtpStandIn;
  let support: Awaited<ReturnType<typeof newOperator>>;
  let owner: Awaited<ReturnType<typeof newOperator>>;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    app = await startPostgresApp({
      SMTP_URL: smtp.url,
      EMAIL_FROM: "Rewards <support@rewards.example>",
      PUBLIC_URL: "https://rewards.example",
      NOTIFY_RETRY_SECONDS: "1",
      WALL_BITLABS_ENABLED: "true",
      WALL_BITLABS_APP_TOKEN: "conversation-test-token",
      WALL_BITLABS_APP_SECRET: "conversation-test-secret",
    });
    [support, owner] = await Promise.all([newOperator(app, "support"), newOperator(app, "owner")]);
    for (const operator of [support, owner]) await app.sql("select record_email_verified($1)", [operator.uid]);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  /** A verified member who sent feedback through Help & Support: the ticket's id. */
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
    const [row] = await app.sql<{ id: string }>(
      "select id::text from user_feedback where user_id = $1 order by id desc limit 1",
      [person.uid],
    );
    return { ...person, ticket: row!.id };
  }
  const reply = (path: string, body: string) => support.client.post(path, { intent: "reply", body });
  const status = async (table: "user_feedback" | "missing_credit_reports", id: string) =>
    (await app.sql<{ status: string }>(`select status from ${table} where id = $1`, [id]))[0]!.status;
  /** What an answer could change: the ticket's messages and the notices to operators. */
  const footprint = async (kind: string, id: string) => ({
    messages: await app.sql("select id, body from support_messages where ticket_kind = $1 and ticket_id = $2", [
      kind,
      id,
    ]),
    notices: await app.sql("select count(*)::int as n from user_notices where kind = 'ticket_answered'"),
  });

  it("a person reads their feedback as a conversation and answers a reply without JavaScript: the answer follows the reply, the ticket is open in the console with the answer, and the operators are emailed the ticket's link without the person's words", async () => {
    const person = await feedbackFrom("My survey from BitLabs never paid out.");
    const path = `/admin/support/feedback/${person.ticket}`;
    expect((await reply(path, "BitLabs screened you out of that survey.")).status).toBe(302);

    const before = await person.client.visit("/profile?tab=help");
    const text = visibleText(before.html);
    expect(text).toMatch(
      /Feedback sent \w{3} \d+, \d{4} Waiting for you You · \w{3} \d+, \d{4} My survey from BitLabs never paid out\. Support · \w{3} \d+, \d{4} BitLabs screened you out of that survey\./,
    );
    expect(text).toContain("Support answered. If you need more help, answer below.");
    const formId = `answer-feedback-${person.ticket}`;
    expect(before.html).toContain(`id="${formId}"`);
    expect(before.html).toMatch(new RegExp(`<input type="hidden" name="ticketId" value="${person.ticket}"/>`));

    const answered = await person.client.post("/profile?tab=help", {
      intent: "answer",
      kind: "feedback",
      ticketId: person.ticket,
      body: "But I finished it,\r\nall 20 questions.",
    });
    const after = await landing(person.client, answered);
    expect(after.location).toBe(`/profile?tab=help#feedback-${person.ticket}`);
    expect(after.html).toContain(ANSWER_FORM.sent);
    expect(visibleText(after.html)).toMatch(
      /BitLabs screened you out of that survey\. You · \w{3} \d+, \d{4} But I finished it, all 20 questions\. Support will answer here/,
    );
    expect(after.html).toContain("But I finished it,\nall 20 questions.");
    expect(visibleText(after.html)).toMatch(/Feedback sent \w{3} \d+, \d{4} Open You/);
    expect(after.html).toContain(`id="${formId}"`);
    expect(await status("user_feedback", person.ticket)).toBe("open");

    const inbox = (await support.client.visit("/admin/support")).html;
    expect(inbox).toContain(`href="${path}"`);
    expect((await support.client.visit("/admin/support?view=waiting")).html).not.toContain(`href="${path}"`);
    const ticket = (await support.client.visit(path)).html;
    expect(ticket).toMatch(/data-testid="ticket-status">Open/);
    const [replyAt, answerAt] = [
      ticket.indexOf('data-testid="ticket-reply"'),
      ticket.indexOf('data-testid="ticket-answer"'),
    ];
    expect(replyAt).toBeGreaterThan(0);
    expect(answerAt).toBeGreaterThan(replyAt);
    expect(visibleText(ticket.slice(answerAt))).toMatch(
      /Their answer · [\d-]+ [\d:]+ UTC But I finished it, all 20 questions\./,
    );

    for (const operator of [support, owner]) {
      const mail = await eventually(() => smtp.mailTo(operator.email).at(0), {
        what: `the email to ${operator.email}`,
      });
      expect(mail.parsed.subject).toBe("A person answered a support ticket");
      expect(mail.parsed.text).toContain(`Open Rewards: https://rewards.example${path}`);
      expect(mail.parsed.text).not.toContain("20 questions");
      expect(mail.parsed.html).not.toContain("20 questions");
    }
    // The person is told of the reply, not of their own answer.
    await eventually(() => smtp.mailTo(person.email).length === 1, { what: "the reply's email" });
    expect(smtp.mailTo(person.email).map((mail) => mail.parsed.subject)).toEqual(["Support replied to you"]);
  });

  it("a missing-credit report is answered from My offers: what they did opens the conversation, and the answer opens the ticket again", async () => {
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
    expect((await reply(path, "Which day did you finish it?")).status).toBe(302);
    const offers = visibleText((await person.client.visit("/earn/offers")).html);
    expect(offers).toMatch(
      /Survey: shopping habits BitLabs · done .* Waiting for you You · \w{3} \d+, \d{4} Finished all 20 questions Support · \w{3} \d+, \d{4} Which day did you finish it\?/,
    );

    const answered = await person.client.post("/earn/offers", {
      intent: "answer",
      kind: "missing_credit",
      ticketId: report!.id,
      body: "Yesterday evening.",
    });
    const after = await landing(person.client, answered);
    expect(after.location).toBe(`/earn/offers#report-${report!.id}`);
    expect(visibleText(after.html)).toMatch(/Which day did you finish it\? You · \w{3} \d+, \d{4} Yesterday evening\./);
    expect(await status("missing_credit_reports", report!.id)).toBe("open");
    expect((await support.client.visit(path)).html).toContain(html("Yesterday evening."));
  });

  it("a resolved ticket has no answer form, and an answer posted anyway is refused with its message and changes nothing", async () => {
    const person = await feedbackFrom("How do I change my email?");
    const path = `/admin/support/feedback/${person.ticket}`;
    await reply(path, "Email cannot be changed, sorry.");
    expect((await support.client.post(path, { intent: "status", status: "resolved" })).status).toBe(302);
    const page = await person.client.visit("/profile?tab=help");
    expect(page.html).not.toContain(`id="answer-feedback-${person.ticket}"`);
    expect(visibleText(page.html)).toContain("Resolved");
    expect(visibleText(page.html)).toContain("This conversation is resolved.");

    const before = await footprint("feedback", person.ticket);
    const refused = await person.client.post("/profile?tab=help", {
      intent: "answer",
      kind: "feedback",
      ticketId: person.ticket,
      body: "One more thing",
    });
    expect(refused.status).toBe(400);
    expect(visibleText(await refused.text())).toContain(ruleMessage("ticket_resolved"));
    expect(await footprint("feedback", person.ticket)).toEqual(before);
    expect(await status("user_feedback", person.ticket)).toBe("resolved");
  });

  it("an answer to someone else's ticket, to one that does not exist, or to a report from Help & Support is refused as not found and changes nothing", async () => {
    const ana = await feedbackFrom("Ana's own question");
    await reply(`/admin/support/feedback/${ana.ticket}`, "Could you tell us more?");
    const bo = await newMember(app);
    const before = await footprint("feedback", ana.ticket);
    for (const [page, kind, ticketId] of [
      ["/profile?tab=help", "feedback", ana.ticket],
      ["/profile?tab=help", "feedback", "999999999"],
      ["/profile?tab=help", "feedback", "0"],
      ["/profile?tab=help", "missing_credit", ana.ticket],
      ["/earn/offers", "missing_credit", ana.ticket],
      ["/earn/offers", "feedback", ana.ticket],
    ] as const) {
      const refused = await bo.client.post(page, { intent: "answer", kind, ticketId, body: "Let me in" });
      expect(refused.status, `${page} ${kind} ${ticketId}`).toBe(400);
      expect(visibleText(await refused.text())).toContain(ANSWER_FORM.notFound);
    }
    expect(await footprint("feedback", ana.ticket)).toEqual(before);
    expect(await status("user_feedback", ana.ticket)).toBe("waiting");
    // Bo's Help & Support shows nothing of Ana's.
    expect((await bo.client.visit("/profile?tab=help")).html).not.toContain("Ana&#x27;s own question");
  });

  it("bad input is refused with a clear message beside the answer field, keeps what was typed, and changes nothing", async () => {
    const person = await feedbackFrom("The check-in card is broken");
    await reply(`/admin/support/feedback/${person.ticket}`, "Which phone do you use?");
    const before = await footprint("feedback", person.ticket);
    const field = `answer-feedback-${person.ticket}-body`;
    for (const [body, message] of [
      ["", ruleMessage("ticket_answer_required")],
      [" \r\n ", ruleMessage("ticket_answer_required")],
      ["x".repeat(2001), ruleMessage("ticket_answer_too_long")],
      ["Pixel\u202e 8", ruleMessage("ticket_answer_hidden_characters")],
      ["Pixel\t8", ruleMessage("ticket_answer_hidden_characters")],
    ] as const) {
      const refused = await person.client.post("/profile?tab=help", {
        intent: "answer",
        kind: "feedback",
        ticketId: person.ticket,
        body,
      });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      const page = await refused.text();
      expect(page).toMatch(new RegExp(`id="${field}-error"[^>]*><li>${message}</li>`));
      expect(page).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true"`));
      // No failure banner: the field says what to fix.
      expect(page).not.toContain(ANSWER_FORM.failed);
    }
    const kept = await person.client.post("/profile?tab=help", {
      intent: "answer",
      kind: "feedback",
      ticketId: person.ticket,
      body: `A Pixel 8 ${"x".repeat(2000)}`,
    });
    expect(await kept.text()).toContain(`A Pixel 8 ${"x".repeat(2000)}</textarea>`);
    expect(await footprint("feedback", person.ticket)).toEqual(before);
  });

  it("a person's answers are limited to five an hour, as feedback is", async () => {
    const person = await feedbackFrom("Five answers");
    const answer = (n: number) =>
      person.client.post("/profile?tab=help", {
        intent: "answer",
        kind: "feedback",
        ticketId: person.ticket,
        body: `Answer ${n}`,
      });
    for (let n = 1; n <= 5; n++) expect((await answer(n)).status, `answer ${n}`).toBe(302);
    const sixth = await answer(6);
    expect(sixth.status).toBe(400);
    expect(visibleText(await sixth.text())).toMatch(/Too many attempts\. Please try again in \d+ minutes?\./);
    expect(
      await app.sql(
        "select count(*)::int as n from support_messages where ticket_id = $1 and person_user_id is not null",
        [person.ticket],
      ),
    ).toEqual([{ n: 5 }]);
  });
});
