import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FeedbackEntry, TicketKind, TicketPage } from "~/domain/support";
import type { MissingCreditReport } from "~/domain/offer-credits";
import { dbRefusal, openTestPglite, type TestDatabase } from "../support/db";
import { newUserId, provisionMember, provisionOperator } from "../support/arrange";

// A ticket is a conversation (supabase/migrations/20261209000000_support_is_a_conversation.sql,
// docs/decisions/082): the person answers their own ticket while it is open or waiting, never once
// resolved nor anyone else's (nothing changes then); an answer is open again for the console and
// tells the operators who answer it by a notice that carries none of the person's words.

describe("a ticket as a conversation, in SQL", () => {
  let t: TestDatabase;
  let support: string;
  let owner: string;

  beforeAll(async () => {
    t = await openTestPglite();
    support = await provisionOperator(t, "support", "conversation");
    owner = await provisionOperator(t, "owner", "conversation");
  });
  afterAll(async () => {
    await t?.close();
  });

  const member = () => provisionMember(t, { prefix: "conversation", name: "Ana" });

  async function feedbackOf(userId: string, message = "My survey never paid out.") {
    const { id } = await t.db.rpc<{ id: number }>("submit_feedback", {
      p_user_id: userId,
      p_name: "Ana",
      p_email: "ana@example.com",
      p_message: message,
    });
    return id;
  }
  async function reportOf(userId: string) {
    const { id } = await t.db.rpc<{ id: number }>("report_missing_credit", {
      p_user_id: userId,
      p_network: "bitlabs",
      p_offer_name: "Survey 88",
      p_completed_on: new Date().toISOString().slice(0, 10),
      p_details: "Answered all 20 questions.",
    });
    return id;
  }
  const answer = (userId: string, kind: TicketKind, id: number, body: string) =>
    t.db.rpc<{ message_id: number; status: string }>("answer_ticket", {
      p_user_id: userId,
      p_kind: kind,
      p_id: id,
      p_body: body,
    });
  const write = (kind: TicketKind, id: number, body: string, internal = false, operator = support) =>
    t.db.rpc("operator_reply_ticket", {
      p_operator_id: operator,
      p_actor: "Sam Support",
      p_kind: kind,
      p_id: id,
      p_body: body,
      p_internal: internal,
    });
  const update = (kind: TicketKind, id: number, change: { status?: string; assign?: string }, operator = support) =>
    t.db.rpc("operator_update_ticket", {
      p_operator_id: operator,
      p_actor: "Sam Support",
      p_kind: kind,
      p_id: id,
      p_status: change.status ?? null,
      p_assign: change.assign ?? null,
    });
  const readTicket = (kind: TicketKind, id: number) =>
    t.db.rpc<TicketPage>("operator_ticket", { p_operator_id: support, p_kind: kind, p_id: id });
  const feedbackList = (userId: string) => t.db.rpc<FeedbackEntry[]>("get_user_feedback", { p_user_id: userId });
  const reportList = (userId: string) =>
    t.db.rpc<MissingCreditReport[]>("get_missing_credit_reports", { p_user_id: userId });
  const answeredNotices = (kind: TicketKind, id: number) =>
    t.sql<{ user_id: string; data: unknown }>(
      `select user_id, data from user_notices
        where kind = 'ticket_answered' and data ->> 'ticket_kind' = $1 and (data ->> 'ticket_id')::bigint = $2
        order by user_id`,
      [kind, id],
    );
  /** Everything an answer could change on a ticket: its status, its messages, the notices. */
  const ticketFootprint = async (kind: TicketKind, id: number) => ({
    status: (await readTicket(kind, id)).status,
    messages: await t.sql("select id, body from support_messages where ticket_kind = $1 and ticket_id = $2", [
      kind,
      id,
    ]),
    notices: await t.sql("select count(*)::int as n from user_notices where kind = 'ticket_answered'"),
  });

  it("the person's answer to a reply is stored in order after it, sets the ticket back to open, and both sides read the conversation with who wrote each", async () => {
    const ana = await member();
    const id = await feedbackOf(ana);
    await write("feedback", id, "Checked BitLabs: screened out.", true);
    await write("feedback", id, "BitLabs screened you out of that survey.");
    expect((await readTicket("feedback", id)).status).toBe("waiting");

    expect(await answer(ana, "feedback", id, "  But I finished it,\r\nall 20 questions.\n\n")).toMatchObject({
      status: "open",
    });

    const [mine] = await feedbackList(ana);
    expect(mine!.status).toBe("open");
    expect(mine!.message).toBe("My survey never paid out.");
    // The internal note is not the person's to see; their answer keeps its line break, trimmed.
    expect(mine!.messages.map(({ from, body }) => ({ from, body }))).toEqual([
      { from: "support", body: "BitLabs screened you out of that survey." },
      { from: "person", body: "But I finished it,\nall 20 questions." },
    ]);
    expect(Date.parse(mine!.messages[1]!.created_at)).toBeGreaterThanOrEqual(Date.parse(mine!.messages[0]!.created_at));

    const ticket = await readTicket("feedback", id);
    expect(ticket.status).toBe("open");
    expect(
      ticket.messages.map(({ from, operator_name, internal, body }) => ({ from, operator_name, internal, body })),
    ).toEqual([
      { from: "operator", operator_name: "Sam Support", internal: true, body: "Checked BitLabs: screened out." },
      {
        from: "operator",
        operator_name: "Sam Support",
        internal: false,
        body: "BitLabs screened you out of that survey.",
      },
      { from: "person", operator_name: null, internal: false, body: "But I finished it,\nall 20 questions." },
    ]);
    expect(
      await t.sql(
        "select person_user_id, operator_user_id from support_messages where ticket_id = $1 and person_user_id is not null",
        [id],
      ),
    ).toEqual([{ person_user_id: ana, operator_user_id: null }]);
  });

  it("an answered ticket is in the console's Open list again, not in Waiting for them", async () => {
    const ana = await member();
    const id = await feedbackOf(ana, "Where is my referral bonus?");
    await write("feedback", id, "Your friend has not earned $1.00 yet.");
    const listed = async (view: string) =>
      (
        await t.db.rpc<{ kind: string; id: number }[]>("operator_tickets", {
          p_operator_id: support,
          p_view: view,
          p_limit: 201,
        })
      ).filter((row) => row.kind === "feedback" && row.id === id).length;
    expect([await listed("open"), await listed("waiting")]).toEqual([0, 1]);
    await answer(ana, "feedback", id, "They have now, please check.");
    expect([await listed("open"), await listed("waiting")]).toEqual([1, 0]);
  });

  it("a missing-credit report is a conversation too: what they did first, then the replies and answers", async () => {
    const ana = await member();
    const id = await reportOf(ana);
    await write("missing_credit", id, "Which day did you finish it?");
    await answer(ana, "missing_credit", id, "Yesterday evening.");
    const [report] = await reportList(ana);
    expect(report).toMatchObject({ id, status: "open", details: "Answered all 20 questions." });
    expect(report!.messages.map(({ from, body }) => ({ from, body }))).toEqual([
      { from: "support", body: "Which day did you finish it?" },
      { from: "person", body: "Yesterday evening." },
    ]);
  });

  it("an open ticket nobody answered yet can be answered (more detail); it stays open", async () => {
    const ana = await member();
    const id = await feedbackOf(ana);
    expect(await answer(ana, "feedback", id, "It was the shopping survey.")).toMatchObject({ status: "open" });
    expect((await feedbackList(ana))[0]!.messages.map((message) => message.from)).toEqual(["person"]);
  });

  it("refuses an answer to a resolved ticket with ticket_resolved and changes nothing", async () => {
    const ana = await member();
    const id = await feedbackOf(ana);
    await write("feedback", id, "Credited, thanks for waiting.");
    await update("feedback", id, { status: "resolved" });
    const before = await ticketFootprint("feedback", id);
    expect((await dbRefusal(answer(ana, "feedback", id, "Thanks!"))).hint).toBe("ticket_resolved");
    expect(await ticketFootprint("feedback", id)).toEqual(before);
    expect(before.status).toBe("resolved");
  });

  it("refuses an answer to someone else's ticket, an unknown one and an unknown kind with ticket_not_found and changes nothing", async () => {
    const [ana, bo] = [await member(), await member()];
    const id = await feedbackOf(ana);
    await write("feedback", id, "Could you tell us more?");
    const report = await reportOf(ana);
    const before = [await ticketFootprint("feedback", id), await ticketFootprint("missing_credit", report)];
    for (const [who, kind, ticket] of [
      [bo, "feedback", id],
      [bo, "missing_credit", report],
      // A support operator is not the person either.
      [support, "feedback", id],
      [newUserId("ghost"), "feedback", id],
      [ana, "feedback", 999_999_999],
      // The report's id as feedback: a ticket is its kind and its id.
      [ana, "feedback", report === id ? 999_999_998 : report],
      [ana, "other", id],
    ] as [string, TicketKind, number][]) {
      expect((await dbRefusal(answer(who, kind, ticket, "Let me in"))).hint, `${who} ${kind} ${ticket}`).toBe(
        "ticket_not_found",
      );
    }
    expect(
      (await dbRefusal(t.db.rpc("answer_ticket", { p_user_id: null, p_kind: "feedback", p_id: id, p_body: "x" }))).hint,
    ).toBe("ticket_not_found");
    expect([await ticketFootprint("feedback", id), await ticketFootprint("missing_credit", report)]).toEqual(before);
  });

  it("refuses a blank answer, one over 2,000 characters and one with a hidden character, and accepts 2,000 with line breaks", async () => {
    const ana = await member();
    const id = await feedbackOf(ana);
    await write("feedback", id, "What happened?");
    const before = await ticketFootprint("feedback", id);
    for (const [body, rule] of [
      ["", "ticket_answer_required"],
      [" \r\n\t\n ", "ticket_answer_required"],
      ["é".repeat(2001), "ticket_answer_too_long"],
      ["Pay me\u202e now", "ticket_answer_hidden_characters"],
      ["tab\tinside", "ticket_answer_hidden_characters"],
      ["zero\u200bwidth", "ticket_answer_hidden_characters"],
      ["a lone\rreturn", "ticket_answer_hidden_characters"],
    ]) {
      expect((await dbRefusal(answer(ana, "feedback", id, body!))).hint, JSON.stringify(body)).toBe(rule);
    }
    expect(await ticketFootprint("feedback", id)).toEqual(before);
    const longest = `${"é".repeat(1998)}\r\nx`;
    await answer(ana, "feedback", id, longest);
    expect((await feedbackList(ana))[0]!.messages.at(-1)!.body).toBe(`${"é".repeat(1998)}\nx`);
  });

  it("tells every operator when nobody has the ticket, only its operator once assigned, never the person, and the notice carries the ticket, not their words", async () => {
    const ana = await member();
    const id = await feedbackOf(ana);
    await answer(ana, "feedback", id, "Secret words only the console shows");
    const operators = (await t.sql<{ user_id: string }>("select user_id from operators order by user_id")).map(
      (row) => row.user_id,
    );
    expect(operators).toEqual(expect.arrayContaining([support, owner]));
    const everyone = await answeredNotices("feedback", id);
    expect(everyone.map((row) => row.user_id)).toEqual(operators);
    for (const notice of everyone) expect(notice.data).toEqual({ ticket_kind: "feedback", ticket_id: id });

    await update("feedback", id, { assign: "me" }, owner);
    await answer(ana, "feedback", id, "More secret words");
    expect((await answeredNotices("feedback", id)).filter((row) => row.user_id === owner)).toHaveLength(2);
    expect((await answeredNotices("feedback", id)).map((row) => row.user_id).sort()).toEqual(
      [...operators, owner].sort(),
    );
    expect(await t.sql("select count(*)::int as n from user_notices where user_id = $1", [ana])).toEqual([{ n: 0 }]);
  });

  it("an operator's own ticket tells the other operators, and an assignee who is no longer an operator tells them all", async () => {
    const own = await feedbackOf(support, "A ticket of my own");
    await answer(support, "feedback", own, "Adding a detail");
    const notified = (await answeredNotices("feedback", own)).map((row) => row.user_id);
    expect(notified).toContain(owner);
    expect(notified).not.toContain(support);

    const ana = await member();
    const former = await provisionOperator(t, "finance", "former");
    const id = await feedbackOf(ana);
    await update("feedback", id, { assign: "me" }, former);
    await t.sql("select revoke_operator_role('conversation-test', $1)", [former]);
    await answer(ana, "feedback", id, "Anyone there?");
    const told = (await answeredNotices("feedback", id)).map((row) => row.user_id);
    expect(told).toEqual(expect.arrayContaining([support, owner]));
    expect(told).not.toContain(former);
  });

  it("a ticket_answered notice is delivered as a support notice: only the channel's own switch governs it", async () => {
    expect(await t.sql("select notice_category('ticket_answered') as category")).toEqual([{ category: "support" }]);
  });

  it("the person's answers go with their account", async () => {
    const ana = await member();
    const id = await reportOf(ana);
    await answer(ana, "missing_credit", id, "Please check again.");
    await t.sql("delete from user_profiles where id = $1", [ana]);
    expect(await t.sql("select count(*)::int as n from support_messages where person_user_id = $1", [ana])).toEqual([
      { n: 0 },
    ]);
  });
});
