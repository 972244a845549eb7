import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DbError, ruleViolation } from "~/server/db/core.server";
import type { UserSummary } from "~/server/account/users.server";
import { openTestPostgres, type TestDatabase } from "../support/db";
import { recordPostback } from "../support/arrange";

// PGlite has one connection, so races can only be shown on a real Postgres server. Each race is
// proven once, where it proves most: overdrawing one balance, one check-in, one settlement and
// migrations applied once through the pooler (tests/http/pooler.test.ts: HTTP through two servers),
// withdrawals on the production settings in tests/integration/money-races.test.ts.
describe("concurrency on a Postgres server", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPostgres(20);
  });
  afterEach(async () => {
    // Whatever raced, every balance still equals its ledger.
    expect(await t.db.rpc("verify_all_balances")).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("provisions a user once when sign-ins race", async () => {
    const userId = `race-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.db.rpc<UserSummary>("provision_user", {
          p_user_id: userId,
          p_email: "r@example.com",
          p_display_name: "Racer",
        }),
      ),
    );
    expect(new Set(results.map((result) => result.referral_code)).size).toBe(1);
    const [count] = await t.sql<{ n: number }>(
      "select (select count(*) from user_profiles where id = $1)::int + (select count(*) from user_balance where user_id = $1)::int + (select count(*) from notification_preferences where user_id = $1)::int as n",
      [userId],
    );
    expect(count!.n).toBe(3);
  });

  it("credits one completion when 100 completions of a task arrive at once", async () => {
    const userId = `task-race-${Date.now()}`;
    await t.db.rpc("provision_user", { p_user_id: userId, p_email: null, p_display_name: "x" });
    await t.db.rpc("start_task", { p_user_id: userId, p_task_id: "task-003", p_title: "Game", p_reward: 200 });
    await t.sql("update task_starts set started_at = now() - interval '10 seconds' where user_id = $1", [userId]);
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.db.rpc<{ reward: number }>("complete_task", { p_user_id: userId, p_task_id: "task-003", p_min_seconds: 5 }),
      ),
    );
    expect(results.filter((result) => result.reward === 200)).toHaveLength(1);
    expect(results.filter((result) => result.reward === 0)).toHaveLength(99);
    expect(await t.db.rpc("get_user_summary", { p_user_id: userId })).toMatchObject({ balance: 2 });
  });

  it("credits one postback when 100 identical postbacks arrive at once", async () => {
    const userId = `postback-race-${Date.now()}`;
    await t.db.rpc("provision_user", { p_user_id: userId, p_email: null, p_display_name: "x" });
    const results = await Promise.all(Array.from({ length: 100 }, () => recordPostback(t, userId, "same-tx", 500)));
    expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
    expect(await t.db.rpc("get_user_summary", { p_user_id: userId })).toMatchObject({ balance: 5 });
  });

  it("takes credits and reversals of one transaction arriving at once, with repeats of each, in every interleaving: a reversal before its credit is refused, and its retry takes the credit back", async () => {
    const userId = `postback-net-${Date.now()}`;
    await t.db.rpc("provision_user", { p_user_id: userId, p_email: null, p_display_name: "x" });
    const postback = (transactionId: string, coins: number, reversal: boolean) =>
      recordPostback(t, userId, transactionId, coins, { reversal });
    // 40 transactions: each a credit of 500 coins and a reversal (200 coins for even ones, all 500
    // for odd ones), each sent three times, all at once in a shuffled order.
    const transactions = Array.from({ length: 40 }, (_, index) => ({
      id: `tx-net-${index}`,
      reversed: index % 2 ? 500 : 200,
    }));
    const calls = transactions.flatMap((tx) =>
      [0, 1, 2].flatMap(() => [() => postback(tx.id, 500, false), () => postback(tx.id, tx.reversed, true)]),
    );
    for (let i = calls.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [calls[i], calls[j]] = [calls[j]!, calls[i]!];
    }
    // A reversal that comes before its credit is refused (docs/decisions/077), nothing else.
    const refusedFirst = (error: unknown) => {
      if (error instanceof DbError && error.hint === "reversal_names_no_credit") return { refused: true };
      throw error;
    };
    const results = await Promise.all(calls.map((call) => call().catch(refusedFirst)));
    // Then the network retries each reversal it was refused, as it does with any answer but 200.
    const retried = await Promise.all(transactions.map((tx) => postback(tx.id, tx.reversed, true)));
    const taken = [...results, ...retried].filter((result) => "duplicate" in result && !result.duplicate);
    expect(taken).toHaveLength(80);

    // Whatever the order, each transaction moved exactly credit minus reversal: 3.00 or nothing.
    const perTransaction = await t.sql<{ transaction_id: string; amount: string; rows: number }>(
      "select transaction_id, sum(amount) as amount, count(*)::int as rows from provider_postbacks where user_id = $1 group by transaction_id",
      [userId],
    );
    expect(perTransaction).toHaveLength(40);
    for (const row of perTransaction) {
      const index = Number(row.transaction_id.slice("tx-net-".length));
      expect([row.transaction_id, Number(row.amount), row.rows]).toEqual([row.transaction_id, index % 2 ? 0 : 3, 2]);
    }
    const [ledger] = await t.sql<{ amount: string }>(
      "select sum(amount) as amount from transaction_history where user_id = $1 and transaction_type in ('postback', 'postback_reversal')",
      [userId],
    );
    expect(Number(ledger!.amount)).toBe(60);
    expect(await t.db.rpc("get_user_summary", { p_user_id: userId })).toMatchObject({ balance: 60 });
    expect(await t.db.rpc("verify_user_balance", { p_user_id: userId })).toMatchObject({ consistent: true });
  });

  it("pays a provider offer once when its in-app completion and its postback race", async () => {
    const userId = `offer-race-${Date.now()}`;
    await t.db.rpc("provision_user", { p_user_id: userId, p_email: null, p_display_name: "x" });
    await t.db.rpc("start_task", {
      p_user_id: userId,
      p_task_id: "acme-2",
      p_title: "Chess",
      p_reward: 300,
      p_provider: "acme",
    });
    await t.sql("update task_starts set started_at = now() - interval '10 seconds' where user_id = $1", [userId]);
    await Promise.all([
      ...Array.from({ length: 20 }, () =>
        t.db.rpc("complete_task", { p_user_id: userId, p_task_id: "acme-2", p_min_seconds: 5 }),
      ),
      ...Array.from({ length: 20 }, () => recordPostback(t, userId, "tx-chess", 300, { offerId: "acme-2" })),
    ]);
    expect(await t.db.rpc("get_user_summary", { p_user_id: userId })).toMatchObject({ balance: 3 });
    expect(await t.db.rpc("get_task_completions", { p_user_id: userId })).toEqual({ "acme-2": "credited" });
  });

  it("a reversal racing a withdrawal of the same money, 40 rounds in both orders: either the withdrawal is refused or the balance is negative by what was withdrawn, never money lost", async () => {
    const rounds = 40;
    const outcomes = await Promise.all(
      Array.from({ length: rounds }, async (_, round) => {
        const userId = `reversal-race-${Date.now()}-${round}`;
        await t.db.rpc("provision_user", {
          p_user_id: userId,
          p_email: null,
          p_display_name: "x",
          p_email_verified: true,
        });
        const postback = (reversal: boolean) => recordPostback(t, userId, `tx-race-${round}`, 1000, { reversal });
        await postback(false);
        const withdrawal = () =>
          t.db.rpc("create_withdrawal", {
            p_user_id: userId,
            amount_param: 10,
            payment_method_param: "upi",
            recipient_email_param: null,
            recipient_upi_param: "me@upi",
            recipient_bank_details_param: null,
          });
        // Even rounds send the reversal first, odd rounds the withdrawal; both are in flight at once.
        const [first, second] =
          round % 2 === 0 ? [() => postback(true), withdrawal] : [withdrawal, () => postback(true)];
        const settled = await Promise.allSettled([first(), second()]);
        const withdrawn = settled[round % 2 === 0 ? 1 : 0]!;
        const reversed = settled[round % 2 === 0 ? 0 : 1]!;
        expect(reversed.status).toBe("fulfilled");
        const audit = await t.db.rpc<{ balance: number; consistent: boolean }>("verify_user_balance", {
          p_user_id: userId,
        });
        expect(audit.consistent).toBe(true);
        if (withdrawn.status === "rejected") {
          expect(ruleViolation(withdrawn.reason)?.rule).toBe("amount_exceeds_balance");
          expect(audit.balance).toBe(0);
          return "refused";
        }
        expect(audit.balance).toBe(-10);
        return "negative";
      }),
    );
    expect(outcomes).toHaveLength(rounds);
  });
});
