import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserSummary } from "~/server/account/users.server";
import { ruleMessage } from "~/domain/rules";
import type { NegativeAccount } from "~/server/withdrawals/payouts/operator.server";
import { ledgerAudit } from "../support/ledger-audit";
import { dbRefusal, openTestPglite, type TestDatabase } from "../support/db";
import { provisionMember, recordPostback } from "../support/arrange";

/** An account with no email, not verified (provision_user's default), named `userId` when given. */
const provision = (t: TestDatabase, userId?: string) =>
  provisionMember(t, { prefix: "earn", userId, name: "Earner", email: null, verified: false });

async function summary(t: TestDatabase, userId: string) {
  return t.db.rpc<UserSummary>("get_user_summary", { p_user_id: userId });
}

/** create_withdrawal of `amount` dollars (to a valid recipient of `method` unless told). */
function withdraw(
  t: TestDatabase,
  userId: string,
  amount: number,
  method: "paypal" | "upi" | "bank" = "upi",
  recipient: string | null = method === "upi" ? "me@upi" : method === "paypal" ? "me@example.com" : "Bank 1",
) {
  return t.db.rpc("create_withdrawal", {
    p_user_id: userId,
    amount_param: amount,
    payment_method_param: method,
    recipient_email_param: method === "paypal" ? recipient : null,
    recipient_upi_param: method === "upi" ? recipient : null,
    recipient_bank_details_param: method === "bank" && recipient !== null ? { details: recipient } : null,
  });
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  return (await dbRefusal(promise)).message;
}

/** Backdates a task start so the completion's five-second rule is met without waiting. */
async function backdateStart(t: TestDatabase, userId: string, taskId: string, seconds = 10) {
  await t.sql(
    `update task_starts set started_at = now() - make_interval(secs => $3) where user_id = $1 and task_id = $2`,
    [userId, taskId, seconds],
  );
}

// The rules are SQL, run here on PGlite (Postgres's own engine, compiled); the HTTP suite runs them
// again through the app on the Postgres server, and races are proven on the server
// (tests/integration/concurrency.test.ts, tests/http/pooler.test.ts).
describe.each([["PGlite", openTestPglite]])("earning functions on %s", (_name, open) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("converts coins to dollars at the configured rate, rounding down to the cent", async () => {
    const [row] = await t.sql<{ a: string; b: string; c: string }>(
      "select coins_to_dollars(10) as a, coins_to_dollars(175) as b, coins_to_dollars(-30) as c",
    );
    expect([Number(row!.a), Number(row!.b), Number(row!.c)]).toEqual([0.1, 1.75, -0.3]);
    try {
      await t.sql("update app_config set coins_per_dollar = 1000");
      const [thousand] = await t.sql<{ a: string }>("select coins_to_dollars(15) as a");
      expect(Number(thousand!.a)).toBe(0.01);
    } finally {
      await t.sql("update app_config set coins_per_dollar = 100");
    }
  });

  it("checks in once a day for 10 coins, and refuses a second time with the spec's message", async () => {
    const userId = await provision(t);
    expect(await t.db.rpc("get_checkin_status", { p_user_id: userId })).toMatchObject({
      checked_in_today: false,
      streak_days: 0,
    });
    const result = await t.db.rpc<{ coins: number; amount: number; balance: number }>("daily_checkin", {
      p_user_id: userId,
    });
    expect(result).toMatchObject({ coins: 10, amount: 0.1, balance: 0.1 });
    expect(await refusal(t.db.rpc("daily_checkin", { p_user_id: userId }))).toBe("Already checked in today!");
    const status = await t.db.rpc<{ checked_in_today: boolean; streak_days: number }>("get_checkin_status", {
      p_user_id: userId,
    });
    expect(status.checked_in_today).toBe(true);
    expect(status.streak_days).toBe(1);
    expect(await summary(t, userId)).toMatchObject({ balance: 0.1, total_earned: 0.1 });
  });

  it("credits bonus coins through add_user_coins and refuses non-positive amounts", async () => {
    const userId = await provision(t);
    expect(await t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: 250 })).toMatchObject({
      amount: 2.5,
    });
    expect(await refusal(t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: 0 }))).toMatch(/positive/);
    expect(await refusal(t.db.rpc("add_user_coins", { user_id_param: "nobody", amount_param: 5 }))).toBe(
      "Account not found",
    );
  });

  it("completes a started task once, only after five seconds, with the reward the server chose", async () => {
    const userId = await provision(t);
    expect(
      await refusal(t.db.rpc("complete_task", { p_user_id: userId, p_task_id: "task-001", p_min_seconds: 5 })),
    ).toBe("Task was not started");
    await t.db.rpc("start_task", { p_user_id: userId, p_task_id: "task-001", p_title: "Quick survey", p_reward: 100 });
    expect(
      await refusal(t.db.rpc("complete_task", { p_user_id: userId, p_task_id: "task-001", p_min_seconds: 5 })),
    ).toBe("Task is not finished yet");
    await backdateStart(t, userId, "task-001");
    expect(
      await t.db.rpc("complete_task", { p_user_id: userId, p_task_id: "task-001", p_min_seconds: 5 }),
    ).toMatchObject({ success: true, reward: 100, balance: 1 });
    // docs/product.md, "Earn: the rules": completing it again succeeds with reward 0.
    expect(
      await t.db.rpc("complete_task", { p_user_id: userId, p_task_id: "task-001", p_min_seconds: 5 }),
    ).toMatchObject({ success: true, reward: 0 });
    expect(
      await t.db.rpc("start_task", { p_user_id: userId, p_task_id: "task-001", p_title: "x", p_reward: 100 }),
    ).toMatchObject({ already_completed: true });
    expect(await t.db.rpc("get_task_completions", { p_user_id: userId })).toEqual({ "task-001": "credited" });
    const [ledger] = await t.sql<{ description: string; coins: number }>(
      "select description, coins from transaction_history where user_id = $1",
      [userId],
    );
    expect(ledger).toEqual({ description: "Task completed: Quick survey", coins: 100 });
  });

  it("records a provider postback once, and a reversal takes back all that was credited, even what was withdrawn", async () => {
    const userId = await provision(t);
    const postback = (transactionId: string, coins: number, reversal = false) =>
      recordPostback(t, userId, transactionId, coins, { reversal });
    expect(await postback("tx-1", 300)).toEqual({ duplicate: false, amount: 3, coins: 300 });
    expect(await postback("tx-1", 300)).toEqual({ duplicate: true, amount: 0 });
    expect((await summary(t, userId)).balance).toBe(3);
    // Spend part of it, then the provider reverses the whole offer.
    await t.db.rpc("record_email_verified", { p_user_id: userId });
    await withdraw(t, userId, 2);
    expect(await postback("tx-1", 300, true)).toMatchObject({ duplicate: false, amount: -3 });
    expect(await postback("tx-1", 300, true)).toMatchObject({ duplicate: true });
    // total_earned (and this month's leaderboard earnings) drop by what was reversed.
    expect(await summary(t, userId)).toMatchObject({ balance: -2, total_earned: 0 });
    // The reversal is in the user's history.
    const history = await t.sql<{ transaction_type: string; amount: string; description: string }>(
      "select transaction_type, amount, description from transaction_history where user_id = $1 order by id",
      [userId],
    );
    expect(history.map((row) => [row.transaction_type, Number(row.amount)])).toEqual([
      ["postback", 3],
      ["withdrawal", -2],
      ["postback_reversal", -3],
    ]);
    // A reversal of something never credited, or of more than was credited, is refused (docs/decisions/077).
    expect((await dbRefusal(postback("tx-unknown", 50, true))).hint).toBe("reversal_names_no_credit");
    await postback("tx-2", 100);
    expect((await dbRefusal(postback("tx-2", 500, true))).hint).toBe("reversal_exceeds_credit");
    expect(await postback("tx-2", 100, true)).toMatchObject({ amount: -1 });
    expect(await t.db.rpc("verify_user_balance", { p_user_id: userId })).toMatchObject({
      balance: -2,
      consistent: true,
    });
  });

  describe("reversals are never lost (docs/decisions/065)", () => {
    /** A verified account that earned 1,000 coins by a postback and withdrew all $10.00 of them. */
    async function cashedOut() {
      const userId = await provision(t);
      const tx = `tx-cash-${userId}`;
      await t.db.rpc("record_email_verified", { p_user_id: userId });
      await recordPostback(t, userId, tx, 1000);
      await withdraw(t, userId, 10);
      return { userId, reverse: () => recordPostback(t, userId, tx, 1000, { reversal: true }), tx };
    }

    it("a reversal after a cash-out takes back the full amount: the balance goes negative by what was withdrawn", async () => {
      const { userId, reverse } = await cashedOut();
      expect(await summary(t, userId)).toMatchObject({ balance: 0, total_earned: 10 });
      expect(await reverse()).toEqual({
        duplicate: false,
        amount: -10,
        coins: -1000,
      });
      expect(await summary(t, userId)).toMatchObject({ balance: -10, total_earned: 0 });
      const [month] = await t.sql<{ amount: string }>(
        "select amount from monthly_earnings where user_id = $1 and month = current_month()",
        [userId],
      );
      expect(Number(month!.amount)).toBe(0);
      expect(await t.db.rpc("verify_user_balance", { p_user_id: userId })).toMatchObject({ consistent: true });
    });

    it("a negative balance refuses every withdrawal with negative_balance, before the amount, method and recipient checks", async () => {
      const { userId, reverse } = await cashedOut();
      await reverse();
      await t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: 100 });
      expect((await summary(t, userId)).balance).toBe(-9);
      for (const [amount, method, recipient] of [
        [1, "upi", "me@upi"],
        [0.01, "paypal", null],
        [99999, "bank", null],
      ] as const) {
        const refused = await dbRefusal(withdraw(t, userId, amount, method, recipient));
        expect(refused.hint).toBe("negative_balance");
        expect(ruleMessage("negative_balance")).toBe(
          "Your balance is negative because an offer network reversed a reward. New earnings pay it back first; you can withdraw again once it is above zero.",
        );
      }
      // An invalid amount is still refused as such first.
      expect((await dbRefusal(withdraw(t, userId, 0))).hint).toBe("invalid_amount");
      expect(await summary(t, userId)).toMatchObject({ balance: -9 });
      const [count] = await t.sql<{ n: number }>("select count(*)::int as n from withdrawals where user_id = $1", [
        userId,
      ]);
      expect(count!.n).toBe(1);
    });

    it("the next earning pays the debt first: the balance goes from -$10.00 to -$10.00 + each credit, by every credit path", async () => {
      const { userId, reverse } = await cashedOut();
      await reverse();
      const balance = async () => (await summary(t, userId)).balance;
      expect(await balance()).toBe(-10);
      expect(await t.db.rpc("daily_checkin", { p_user_id: userId })).toMatchObject({ amount: 0.1, balance: -9.9 });
      await t.db.rpc("start_task", { p_user_id: userId, p_task_id: "task-001", p_title: "Survey", p_reward: 100 });
      await backdateStart(t, userId, "task-001");
      expect(
        await t.db.rpc("complete_task", { p_user_id: userId, p_task_id: "task-001", p_min_seconds: 5 }),
      ).toMatchObject({ reward: 100, balance: -8.9 });
      expect(await recordPostback(t, userId, "tx-next", 250)).toMatchObject({ amount: 2.5 });
      expect(await balance()).toBe(-6.4);
      await t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: 640 });
      expect(await balance()).toBe(0);
      // Zero is not negative: the ordinary amount check answers again.
      expect((await dbRefusal(withdraw(t, userId, 1))).hint).toBe("amount_exceeds_balance");
      expect(await t.db.rpc("verify_user_balance", { p_user_id: userId })).toMatchObject({ consistent: true });
    });

    it("a failed withdrawal refunds onto a negative balance: -$10.00 back to $0.00", async () => {
      const { userId, reverse } = await cashedOut();
      await reverse();
      const [pending] = await t.sql<{ id: string }>("select id from withdrawals where user_id = $1", [userId]);
      await t.db.rpc("settle_withdrawal", { p_withdrawal_id: pending!.id, p_status: "failed", p_reason: "bounced" });
      expect(await summary(t, userId)).toMatchObject({ balance: 0, total_earned: 0 });
      expect(await t.db.rpc("verify_user_balance", { p_user_id: userId })).toMatchObject({ consistent: true });
    });

    it("the ledger audit stays clean with negative balances, and still reports a balance that differs from its ledger", async () => {
      const { userId, reverse } = await cashedOut();
      await reverse();
      expect((await summary(t, userId)).balance).toBe(-10);
      const audit = await ledgerAudit((text) => t.sql(text));
      expect(audit.problems).toEqual([]);
      await t.sql("update user_balance set balance = -11 where user_id = $1", [userId]);
      try {
        expect((await ledgerAudit((text) => t.sql(text))).problems).toEqual([
          expect.stringContaining(`"user_id":"${userId}"`),
        ]);
      } finally {
        await t.sql("update user_balance set balance = -10 where user_id = $1", [userId]);
      }
    });

    it("lists the negative account for the operator with its balance and the reversal that caused it", async () => {
      const { userId, reverse, tx } = await cashedOut();
      await reverse();
      const accounts = await t.db.rpc<NegativeAccount[]>("operator_negative_balances");
      expect(accounts.find((account) => account.user_id === userId)).toEqual({
        user_id: userId,
        email: null,
        balance: -10,
        reversals: [{ provider: "acme", transaction_id: tx, amount: -10, created_at: expect.any(String) }],
      });
      expect(accounts.every((account) => account.balance < 0)).toBe(true);
    });
  });

  it("records a provider offer completed in the app as pending, pays nothing, and its postback with p_offer_id credits it once", async () => {
    const userId = await provision(t);
    const complete = (taskId: string) =>
      t.db.rpc("complete_task", { p_user_id: userId, p_task_id: taskId, p_min_seconds: 5 });
    await t.db.rpc("start_task", {
      p_user_id: userId,
      p_task_id: "acme-7",
      p_title: "Install Chess Pro",
      p_reward: 300,
      p_provider: "acme",
    });
    expect(await refusal(complete("acme-7"))).toBe("Task is not finished yet");
    await backdateStart(t, userId, "acme-7");
    expect(await complete("acme-7")).toEqual({
      success: true,
      task_id: "acme-7",
      reward: 0,
      pending: true,
      expected_reward: 300,
    });
    expect(await complete("acme-7")).toMatchObject({ reward: 0, pending: true });
    expect(await t.db.rpc("get_task_completions", { p_user_id: userId })).toEqual({ "acme-7": "pending" });
    expect(
      await t.db.rpc("start_task", { p_user_id: userId, p_task_id: "acme-7", p_title: "x", p_reward: 300 }),
    ).toEqual({ task_id: "acme-7", already_completed: true, status: "pending" });
    expect(await summary(t, userId)).toMatchObject({ balance: 0, total_earned: 0 });

    const postback = (transactionId: string, offerId?: string, coins = 280) =>
      recordPostback(t, userId, transactionId, coins, { offerId });
    // The provider's amount pays (it may differ from what the offer was listed at).
    expect(await postback("tx-chess", "acme-7")).toEqual({ duplicate: false, amount: 2.8, coins: 280 });
    expect(await postback("tx-chess", "acme-7")).toEqual({ duplicate: true, amount: 0 });
    expect(await complete("acme-7")).toMatchObject({ reward: 0, pending: false });
    expect(await t.db.rpc("get_task_completions", { p_user_id: userId })).toEqual({ "acme-7": "credited" });
    const [completion] = await t.sql(
      "select reward, status, provider, transaction_id from completed_tasks where user_id = $1 and task_id = 'acme-7'",
      [userId],
    );
    expect(completion).toEqual({ reward: 280, status: "credited", provider: "acme", transaction_id: "tx-chess" });
    // The notice names the task.
    const [notice] = await t.sql<{ data: { title: string; coins: number } }>(
      "select data from user_notices where user_id = $1 and kind = 'postback_reward'",
      [userId],
    );
    expect(notice!.data).toMatchObject({ title: "Install Chess Pro", coins: 280 });

    // An offer finished on the provider's site: credited and recorded as done; no offer id: credited only.
    expect(await postback("tx-site", "acme-8", 100)).toMatchObject({ duplicate: false, amount: 1 });
    expect(await postback("tx-plain", undefined, 50)).toMatchObject({ duplicate: false, amount: 0.5 });
    expect(await t.db.rpc("get_task_completions", { p_user_id: userId })).toEqual({
      "acme-7": "credited",
      "acme-8": "credited",
    });
    expect(await summary(t, userId)).toMatchObject({ balance: 4.3, total_earned: 4.3 });

    // The app's own tasks keep the 5-second rule and pay at once.
    await t.db.rpc("start_task", { p_user_id: userId, p_task_id: "task-002", p_title: "Trailer", p_reward: 75 });
    await backdateStart(t, userId, "task-002");
    expect(await complete("task-002")).toMatchObject({ reward: 75, pending: false });
    expect(await summary(t, userId)).toMatchObject({ balance: 5.05 });
    expect(await t.db.rpc("verify_user_balance", { p_user_id: userId })).toMatchObject({ consistent: true });
  });

  it("refuses a task reward or postback coins above 10,000,000, and postback coins of zero", async () => {
    const userId = await provision(t);
    const start = (reward: number) =>
      t.db.rpc("start_task", { p_user_id: userId, p_task_id: "big", p_title: "Big", p_reward: reward });
    expect((await dbRefusal(start(10_000_001))).hint).toBe("invalid_reward");
    expect(await start(10_000_000)).toMatchObject({ already_completed: false });
    const postback = (coins: number) => recordPostback(t, userId, `tx-${coins}`, coins);
    expect((await dbRefusal(postback(0))).hint).toBe("invalid_coins");
    expect((await dbRefusal(postback(10_000_001))).hint).toBe("invalid_coins");
    expect(await t.sql("select * from provider_postbacks where user_id = $1", [userId])).toEqual([]);
  });

  it("refuses a reversal that names no credit of this person, or takes back more than it paid, and leaves its id to the genuine reversal", async () => {
    const userId = await provision(t);
    const other = await provision(t);
    const postback = (person: string, transactionId: string, coins: number, reversal: boolean) =>
      recordPostback(t, person, transactionId, coins, { reversal });
    // Before its credit: refused, recorded nowhere (the network's retry comes after the credit).
    expect((await dbRefusal(postback(userId, "tx-early", 200, true))).hint).toBe("reversal_names_no_credit");
    expect(await postback(userId, "tx-early", 500, false)).toEqual({ duplicate: false, amount: 5, coins: 500 });
    // Naming this credit with another person, or more coins than it paid: refused.
    expect((await dbRefusal(postback(other, "tx-early", 500, true))).hint).toBe("reversal_names_no_credit");
    expect((await dbRefusal(postback(userId, "tx-early", 501, true))).hint).toBe("reversal_exceeds_credit");
    expect(await t.sql("select kind from provider_postbacks where transaction_id = 'tx-early' order by id")).toEqual([
      { kind: "credit" },
    ]);
    // The genuine reversal still takes the credit back, once.
    expect(await postback(userId, "tx-early", 500, true)).toMatchObject({ duplicate: false, amount: -5 });
    expect(await postback(userId, "tx-early", 500, true)).toMatchObject({ duplicate: true });
    expect(await summary(t, userId)).toMatchObject({ balance: 0, total_earned: 0 });
    expect(await summary(t, other)).toMatchObject({ balance: 0 });
    expect(await t.db.rpc("verify_user_balance", { p_user_id: userId })).toMatchObject({ consistent: true });
  });

  it("ranks this month's earners, top first, naming them User + 4 characters of the id", async () => {
    const ids = [
      await provision(t, `zz01-${Date.now()}`),
      await provision(t, `zz02-${Date.now()}`),
      await provision(t, `zz03-${Date.now()}`),
    ];
    await t.db.rpc("add_user_coins", { user_id_param: ids[0], amount_param: 90_000 });
    await t.db.rpc("add_user_coins", { user_id_param: ids[1], amount_param: 95_000 });
    await t.db.rpc("add_user_coins", { user_id_param: ids[2], amount_param: 80_000 });
    const board = await t.db.rpc<{ rank: number; user_id: string; username: string; total_earned: number }[]>(
      "get_leaderboard",
      { p_limit: 50 },
    );
    expect(board.slice(0, 3)).toEqual([
      { rank: 1, user_id: ids[1], username: "Userzz02", total_earned: 950 },
      { rank: 2, user_id: ids[0], username: "Userzz01", total_earned: 900 },
      { rank: 3, user_id: ids[2], username: "Userzz03", total_earned: 800 },
    ]);
    // Last month's earnings do not count.
    await t.sql("update monthly_earnings set month = (current_month() - interval '1 month')::date where user_id = $1", [
      ids[1],
    ]);
    const next = await t.db.rpc<{ username: string }[]>("get_leaderboard", { p_limit: 2 });
    expect(next.map((row) => row.username)).toEqual(["Userzz01", "Userzz03"]);
  });

  it("finds every balance in step with its ledger, and reports one that is not", async () => {
    expect(await t.db.rpc("verify_all_balances")).toEqual([]);
    const userId = await provision(t);
    await t.sql("update user_balance set balance = balance + 1 where user_id = $1", [userId]);
    expect(await t.db.rpc("verify_all_balances")).toEqual([
      expect.objectContaining({ user_id: userId, balance: 1, ledger_balance: 0 }),
    ]);
    await t.sql("update user_balance set balance = balance - 1 where user_id = $1", [userId]);
  });

  it("announces each completed task to listeners of its user (live refresh)", async () => {
    const userId = await provision(t);
    const heard: string[] = [];
    const unsubscribe = await t.db.listen!("completed_tasks", (payload) => heard.push(payload));
    try {
      await t.db.rpc("start_task", { p_user_id: userId, p_task_id: "task-009", p_title: "Streaming", p_reward: 160 });
      await backdateStart(t, userId, "task-009");
      await t.db.rpc("complete_task", { p_user_id: userId, p_task_id: "task-009", p_min_seconds: 5 });
      await expect.poll(() => heard).toContain(userId);
    } finally {
      await unsubscribe();
    }
  });
});
