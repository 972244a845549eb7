import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbRefusal, openTestPglite, type TestDatabase } from "../support/db";
import { provisionMember, provisionOperator } from "../support/arrange";

// An appeal before any ban (issue 38, point 4; docs/decisions/090) in SQL: only paused cash-outs and
// one's own withdrawal refused at review can be appealed, one open appeal at a time; the console
// lists open appeals; an operator shares only the refused withdrawal's own reasons, audited, never on
// their own account; the person reads what was shared and nothing else.

interface Feedback {
  id: number;
  appeal: { cause: string; withdrawal: { amount: number } | null; reasons: string[] } | null;
}

describe("appeals", () => {
  let t: TestDatabase;
  let support: string;

  beforeAll(async () => {
    t = await openTestPglite();
    support = await provisionOperator(t, "support", "appeals");
    // Every cash-out goes to review (a first one), so it can be refused.
    await t.sql("update app_config set review_first_withdrawal = true");
  });
  afterAll(async () => {
    await t?.close();
  });

  const member = () => provisionMember(t, { prefix: "appeal", name: "Ada Appeal", coins: 2000 });
  const appeal = (userId: string, withdrawalId: string | null, message = "I earned it on surveys.") =>
    t.db.rpc<{ id: number; cause: string }>("submit_appeal", {
      p_user_id: userId,
      p_withdrawal_id: withdrawalId,
      p_message: message,
    });
  /** A PayPal cash-out of $5, refused at review with a reason. */
  async function refused(userId: string) {
    const { id } = await t.db.rpc<{ id: string }>("create_withdrawal", {
      p_user_id: userId,
      amount_param: 5,
      payment_method_param: "paypal",
      recipient_email_param: "ada@example.com",
    });
    await t.db.rpc("reject_withdrawal", {
      p_withdrawal_id: id,
      p_reason: "Signals shared with other accounts",
      p_actor: "Sam Support",
    });
    return id;
  }
  const feedbackOf = (userId: string) => t.db.rpc<Feedback[]>("get_user_feedback", { p_user_id: userId });

  it("a refused cash-out can be appealed once at a time by its owner; a pending, paid or someone else's cannot", async () => {
    const ada = await member();
    const other = await member();
    const id = await refused(ada);
    expect((await dbRefusal(appeal(other, id))).hint).toBe("nothing_to_appeal");
    const asked = await appeal(ada, id);
    expect(asked.cause).toBe("withdrawal_refused");
    expect((await dbRefusal(appeal(ada, id, "Again"))).hint).toBe("appeal_open");
    // Nothing is paused: a review of paused cash-outs is refused.
    expect((await dbRefusal(appeal(ada, null))).hint).toBe("nothing_to_appeal");
    // Resolved, it can be asked again.
    await t.sql("update user_feedback set status = 'resolved' where id = $1", [asked.id]);
    expect((await appeal(ada, id, "New facts")).cause).toBe("withdrawal_refused");
    const [count] = await t.sql<{ n: number }>(
      "select count(*)::int as n from user_feedback where user_id = $1 and appeal_withdrawal_id = $2",
      [ada, id],
    );
    expect(count!.n).toBe(2);
  });

  it("paused cash-outs can be appealed while they are paused; the message follows a ticket answer's rules", async () => {
    const ada = await member();
    for (const [message, hint] of [
      ["   ", "ticket_answer_required"],
      ["x".repeat(2001), "ticket_answer_too_long"],
      ["hi\u202eevil", "ticket_answer_hidden_characters"],
    ] as const) {
      await t.db.rpc("set_payouts_paused", { p_user_id: ada, p_paused: true, p_reason: "Checking", p_actor: "Sam" });
      expect((await dbRefusal(appeal(ada, null, message))).hint).toBe(hint);
    }
    const asked = await appeal(ada, null, "Line one\nLine two");
    expect(asked.cause).toBe("payouts_paused");
    const [entry] = await feedbackOf(ada);
    expect(entry).toMatchObject({ id: asked.id, appeal: { cause: "payouts_paused", withdrawal: null, reasons: [] } });
  });

  it("the console lists open appeals oldest first; an operator shares only the withdrawal's own reasons, audited, and the person reads exactly those", async () => {
    const ada = await member();
    const id = await refused(ada);
    const { id: ticket } = await appeal(ada, id);
    const open = await t.db.rpc<{ id: number; appeal: string }[]>("operator_open_appeals", { p_operator_id: support });
    expect(open).toContainEqual(expect.objectContaining({ id: ticket, appeal: "withdrawal_refused" }));
    const context = await t.db.rpc<{ reasons: { code: string; shown: boolean }[] }>("operator_appeal", {
      p_operator_id: support,
      p_ticket_id: ticket,
    });
    const codes = context.reasons.map((reason) => reason.code);
    expect(codes).toContain("new_account");
    expect(context.reasons.every((reason) => !reason.shown)).toBe(true);
    // Before anything is shared, the person reads no reason.
    expect((await feedbackOf(ada))[0]!.appeal!.reasons).toEqual([]);
    const share = (list: string[], operator = support) =>
      t.db.rpc<{ shown: string[]; changed: boolean }>("operator_show_appeal_reasons", {
        p_operator_id: operator,
        p_actor: "Sam Support",
        p_ticket_id: ticket,
        p_codes: list,
      });
    const unknown = await dbRefusal(share(["same_device_of_someone_else"]));
    expect(unknown.hint, unknown.message).toBe("unknown_appeal_reason");
    expect(await share(["new_account", "new_account"])).toEqual({ shown: ["new_account"], changed: true });
    expect(await share(["new_account"])).toEqual({ shown: ["new_account"], changed: false });
    const [reason] = (await feedbackOf(ada))[0]!.appeal!.reasons;
    expect(reason).toMatch(/^account made/);
    const audit = await t.sql<{ action: string; after: unknown }>(
      "select action, after from operator_actions where record_kind = 'feedback' and record_id = $1",
      [String(ticket)],
    );
    expect(audit).toEqual([{ action: "show_appeal_reasons", after: { shown: ["new_account"] } }]);
    // An operator's own appeal is not theirs to answer.
    await t.db.rpc("grant_operator_role", { p_actor: "test", p_user_id: ada, p_role: "support" });
    expect((await dbRefusal(share([], ada))).hint).toBe("operator_self_action");
    // Feedback that is no appeal has no context and no reasons to share.
    const { id: plain } = await t.db.rpc<{ id: number }>("submit_feedback", {
      p_user_id: ada,
      p_name: "Ada",
      p_email: "ada@example.com",
      p_message: "Hello",
    });
    expect(await t.db.rpc("operator_appeal", { p_operator_id: support, p_ticket_id: plain })).toBeNull();
  });
});
