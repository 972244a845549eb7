import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerAudit } from "../support/ledger-audit";
import { dbRefusal, openTestPostgres, type TestDatabase } from "../support/db";
import { newUserId, provisionMember } from "../support/arrange";

// Withdrawals reviewed by risk (issue 17, part 5; supabase/migrations/20261201000000_withdrawals_reviewed_by_risk.sql,
// docs/decisions/068-withdrawals-reviewed-by-risk.md), on Postgres with the review settings of
// production (a first withdrawal reviewed, threshold 50). Money clears at once and bonus money is
// unlocked here, so each test arranges only what the score should see.

/** A keyed hash as the app makes them (64 hex digits): the same input, the same signal. */
const hash = (value: string) => createHash("sha256").update(value).digest("hex");

interface Withdrawal {
  id: string;
  review_state: "review" | "approved" | "rejected";
  risk_score: number;
  risk_reasons: { code: string; points: number; detail: string; accounts: string[] }[];
}

describe("withdrawals reviewed by risk on Postgres", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await openTestPostgres(24, "production");
    await t.sql("update app_config set postback_hold_days = 0, bonus_unlock_ratio = null");
  });
  afterAll(async () => {
    await t?.close();
  });

  const provision = ({ coins = 0, referralCode = null as string | null, identity = null as string | null } = {}) =>
    provisionMember(t, { prefix: "risk", name: "Payee", coins, referralCode, identity });

  async function referralCode(userId: string) {
    const [row] = await t.sql<{ referral_code: string }>("select referral_code from user_profiles where id = $1", [
      userId,
    ]);
    return row!.referral_code;
  }

  function signals(userId: string, device: string, network: string) {
    return t.db.rpc("record_account_signals", {
      p_user_id: userId,
      p_signals: [
        { kind: "device", hash: hash(`device:${device}`) },
        { kind: "address", hash: hash(`address:${network}`) },
      ],
    });
  }

  async function withdraw(userId: string, amount: number, upi = `${userId}@upi`): Promise<Withdrawal> {
    const created = await t.db.rpc<{ id: string }>("create_withdrawal", {
      p_user_id: userId,
      amount_param: amount,
      payment_method_param: "upi",
      recipient_upi_param: upi,
      p_recipient_hash: hash(`upi:${upi}`),
    });
    return row(created.id);
  }

  async function row(id: string): Promise<Withdrawal> {
    const [found] = await t.sql<Withdrawal>(
      "select id, review_state, risk_score, risk_reasons from withdrawals where id = $1",
      [id],
    );
    return found!;
  }

  const codes = (withdrawal: Withdrawal) => withdrawal.risk_reasons.map((reason) => reason.code).sort();
  const reason = (withdrawal: Withdrawal, code: string) => withdrawal.risk_reasons.find((r) => r.code === code);

  const approve = (ids: string[]) =>
    t.db.rpc<{ id: string; result: string }[]>("approve_withdrawals", { p_ids: ids, p_actor: "ops-anna" });

  async function balance(userId: string) {
    const [found] = await t.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [userId]);
    return Number(found!.balance);
  }

  async function expectCleanAudit() {
    expect((await ledgerAudit(t.sql)).problems).toEqual([]);
  }

  it("a first withdrawal waits for review with its score and reasons; once one is paid, the next is approved at once", async () => {
    const userId = await provision({ coins: 1500 });
    const first = await withdraw(userId, 5);
    expect(first.review_state).toBe("review");
    // Made minutes ago (20) and $15.00 earned today against nothing before (15).
    expect(codes(first)).toEqual(["earnings_burst", "new_account"]);
    expect(first.risk_score).toBe(35);

    expect(await approve([first.id])).toEqual([{ id: first.id, result: "approved" }]);
    await t.db.rpc("settle_withdrawal", { p_withdrawal_id: first.id, p_status: "completed" });
    const second = await withdraw(userId, 5);
    expect(second).toMatchObject({ review_state: "approved", risk_score: 35 });
    await expectCleanAudit();
  });

  it("without first-withdrawal review a withdrawal is approved at once, unless its score reaches the threshold", async () => {
    await t.sql("update app_config set review_first_withdrawal = false");
    try {
      // $4.00: too little to count as a burst of earnings.
      const calm = await provision({ coins: 400 });
      expect(await withdraw(calm, 2)).toMatchObject({ review_state: "approved", risk_score: 20 });
      // Another account already asked for money to this UPI ID: 20 + 40.
      const copycat = await provision({ coins: 400 });
      const shared = await withdraw(copycat, 2, `${calm}@upi`);
      expect(shared).toMatchObject({ review_state: "review", risk_score: 60 });
      expect(reason(shared, "same_payout_address")!.accounts).toEqual([calm]);
    } finally {
      await t.sql("update app_config set review_first_withdrawal = true");
    }
  });

  it("an alias farm of one device and one network, referring each other and cashing out to one UPI ID, is named in the review queue", async () => {
    const farmer = await provision({ coins: 500 });
    await signals(farmer, "farm-phone", "farm-wifi");
    const code = await referralCode(farmer);
    const aliases: string[] = [];
    for (let index = 0; index < 3; index++) {
      const alias = await provision({ coins: 500, referralCode: code });
      await signals(alias, "farm-phone", "farm-wifi");
      aliases.push(alias);
    }
    const farmUpi = `farm-${farmer}@upi`;
    const withdrawals = [];
    for (const alias of aliases) withdrawals.push(await withdraw(alias, 1, farmUpi));

    const last = withdrawals[2]!;
    expect(last.review_state).toBe("review");
    expect(reason(last, "same_device")!.accounts.sort()).toEqual([farmer, aliases[0], aliases[1]].sort());
    expect(reason(last, "same_address_range")!.accounts.sort()).toEqual([farmer, aliases[0], aliases[1]].sort());
    expect(reason(last, "same_payout_address")!.accounts.sort()).toEqual([aliases[0], aliases[1]].sort());
    expect(reason(last, "referral_between_linked")!.accounts).toEqual([farmer]);
    expect(last.risk_score).toBe(100);

    const queue =
      await t.db.rpc<{ id: string; user_id: string; risk_reasons: Withdrawal["risk_reasons"] }[]>(
        "operator_review_queue",
      );
    const queued = queue.filter((entry) => aliases.includes(entry.user_id));
    expect(queued.map((entry) => entry.id)).toEqual(withdrawals.map((withdrawal) => withdrawal.id));
    const named = new Set(queued.flatMap((entry) => entry.risk_reasons.flatMap((r) => r.accounts)));
    expect([...named].sort()).toEqual([farmer, ...aliases].sort());
  });

  it("an account made again with the email of a deleted one is linked to it", async () => {
    const identity = hash(`identity:${newUserId("risk")}`);
    const before = await provision({ identity });
    await t.db.rpc("delete_account", { p_user_id: before, p_email_hash: hash(`email:${before}`) });
    const again = await provision({ identity, coins: 500 });
    const withdrawal = await withdraw(again, 2);
    expect(codes(withdrawal)).toContain("same_email");
    expect(reason(withdrawal, "same_email")!.points).toBe(25);
  });

  it("reversals, a balance that went below zero and a changed payout address each add to the score", async () => {
    const userId = await provision();
    const postback = (id: string, coins: number, reversal = false) =>
      t.db.rpc("record_postback", {
        p_provider: "acme",
        p_transaction_id: id,
        p_user_id: userId,
        p_coins: coins,
        p_reversal: reversal,
        p_description: "Offer",
      });
    await postback(`${userId}-1`, 1000);
    const paid = await withdraw(userId, 10, "first@upi");
    await approve([paid.id]);
    await t.db.rpc("settle_withdrawal", { p_withdrawal_id: paid.id, p_status: "completed" });
    await postback(`${userId}-1`, 1000, true);
    expect(await balance(userId)).toBe(-10);
    await postback(`${userId}-2`, 2000);

    const next = await withdraw(userId, 5, "second@upi");
    expect(codes(next)).toEqual(
      ["earnings_burst", "new_account", "payout_address_changed", "reversals", "was_negative"].sort(),
    );
    // $10.00 of $30.00 of offers reversed: a third.
    expect(reason(next, "reversals")).toMatchObject({ points: 30, detail: "$10.00 of offer earnings reversed (33%)" });
    expect(next.risk_score).toBe(100);
    await expectCleanAudit();
  });

  it("reject refunds a withdrawal through the ledger, tells the owner why and logs who did it; a repeat changes nothing", async () => {
    const userId = await provision({ coins: 800 });
    const withdrawal = await withdraw(userId, 5);
    expect(await balance(userId)).toBe(3);

    const rejected = await t.db.rpc<{ status: string; changed: boolean }>("reject_withdrawal", {
      p_withdrawal_id: withdrawal.id,
      p_reason: "Earnings from a blocked offer",
      p_actor: "ops-anna",
    });
    expect(rejected).toMatchObject({ status: "failed", changed: true, review_state: "rejected" });
    expect(await balance(userId)).toBe(8);
    const [ledger] = await t.sql<{ status: string }>(
      "select status from transaction_history where withdrawal_id = $1",
      [withdrawal.id],
    );
    expect(ledger!.status).toBe("failed");
    const notices = await t.sql<{ kind: string; data: Record<string, unknown> }>(
      "select kind, data from user_notices where user_id = $1 and kind like 'withdrawal%'",
      [userId],
    );
    expect(notices).toEqual([
      {
        kind: "withdrawal_failed",
        data: expect.objectContaining({ refused: true, reason: "Earnings from a blocked offer" }),
      },
    ]);
    const log = await t.sql("select actor, action, reason from operator_actions where withdrawal_id = $1", [
      withdrawal.id,
    ]);
    expect(log).toEqual([{ actor: "ops-anna", action: "reject", reason: "Earnings from a blocked offer" }]);

    const again = await t.db.rpc<{ changed: boolean }>("reject_withdrawal", {
      p_withdrawal_id: withdrawal.id,
      p_reason: "again",
      p_actor: "ops-anna",
    });
    expect(again.changed).toBe(false);
    expect(await balance(userId)).toBe(8);
    expect(
      (
        await dbRefusal(
          t.db.rpc("reject_withdrawal", { p_withdrawal_id: withdrawal.id, p_reason: " ", p_actor: "ops" }),
        )
      ).hint,
    ).toBe("reason_required");
    await expectCleanAudit();
  });

  it("a withdrawal waiting for review is neither sent to PayPal nor settled as paid", async () => {
    const userId = await provision({ coins: 800 });
    const withdrawal = await withdraw(userId, 5);
    expect(withdrawal.review_state).toBe("review");
    const sent = await dbRefusal(
      t.db.rpc("mark_payout_sent", { p_withdrawal_id: withdrawal.id, p_batch_id: "B1", p_payout_status: "PENDING" }),
    );
    expect(sent.hint).toBe("withdrawal_not_approved");
    const settled = await dbRefusal(
      t.db.rpc("settle_withdrawal", { p_withdrawal_id: withdrawal.id, p_status: "completed" }),
    );
    expect(settled.hint).toBe("withdrawal_not_approved");
    const [state] = await t.sql("select status, sent_at from withdrawals where id = $1", [withdrawal.id]);
    expect(state).toEqual({ status: "pending", sent_at: null });
  });

  it("paused cash-outs refuse new withdrawals and the approval of pending ones until resumed", async () => {
    const userId = await provision({ coins: 1500 });
    const pending = await withdraw(userId, 5);
    await t.db.rpc("set_payouts_paused", {
      p_user_id: userId,
      p_paused: true,
      p_reason: "Checking referrals",
      p_actor: "ops",
    });

    expect((await dbRefusal(withdraw(userId, 5))).hint).toBe("payouts_paused");
    expect(await approve([pending.id])).toEqual([{ id: pending.id, result: "payouts_paused" }]);
    const summary = await t.db.rpc<{ payouts_paused: boolean }>("get_user_summary", { p_user_id: userId });
    expect(summary.payouts_paused).toBe(true);

    await t.db.rpc("set_payouts_paused", { p_user_id: userId, p_paused: false, p_reason: null, p_actor: "ops" });
    expect(await approve([pending.id])).toEqual([{ id: pending.id, result: "approved" }]);
    const log = await t.sql<{ action: string }>("select action from operator_actions where user_id = $1 order by id", [
      userId,
    ]);
    expect(log.map((entry) => entry.action)).toEqual(["pause", "resume", "approve"]);
  });

  it("a ban refuses sign-in, refunds the withdrawals not yet sent, lists the one PayPal has, and an unban reopens", async () => {
    const userId = await provision({ coins: 3000 });
    await t.sql("update app_config set review_first_withdrawal = false");
    let unsent: Withdrawal;
    let sent: Withdrawal;
    try {
      unsent = await withdraw(userId, 5);
      sent = await withdraw(userId, 5);
    } finally {
      await t.sql("update app_config set review_first_withdrawal = true");
    }
    await t.db.rpc("mark_payout_sent", { p_withdrawal_id: sent.id, p_batch_id: "B-ban", p_payout_status: "PENDING" });
    expect(await balance(userId)).toBe(20);

    const banned = await t.db.rpc("ban_account", { p_user_id: userId, p_reason: "Alias farm", p_actor: "ops" });
    expect(banned).toEqual({ user_id: userId, changed: true, rejected: [unsent.id], still_sent: [sent.id] });
    expect(await balance(userId)).toBe(25);
    expect(await t.db.rpc("account_closed", { p_user_id: userId })).toBe(true);
    expect((await dbRefusal(t.db.rpc("set_account_active", { p_user_id: userId, p_active: true }))).hint).toBe(
      "account_banned",
    );
    expect((await dbRefusal(withdraw(userId, 5))).hint).toBe("account_banned");
    const [reasonRow] = await t.sql("select failure_reason from withdrawals where id = $1", [unsent.id]);
    expect(reasonRow).toEqual({ failure_reason: "Account closed: Alias farm" });

    await t.db.rpc("unban_account", { p_user_id: userId, p_actor: "ops" });
    expect(await t.db.rpc("account_closed", { p_user_id: userId })).toBe(false);
    await t.db.rpc("set_account_active", { p_user_id: userId, p_active: true });
    await expectCleanAudit();
  });

  it("the operator log cannot be changed or emptied", async () => {
    const userId = await provision();
    await t.db.rpc("set_payouts_paused", { p_user_id: userId, p_paused: true, p_reason: "Checking", p_actor: "ops" });
    const refusal = (statement: string) =>
      t.sql(statement, [userId]).then(
        () => null,
        (error: { hint?: string }) => error.hint,
      );
    expect(await refusal("update operator_actions set actor = 'someone else' where user_id = $1")).toBe(
      "audit_append_only",
    );
    expect(await refusal("delete from operator_actions where user_id = $1")).toBe("audit_append_only");
    expect(await t.sql("select actor from operator_actions where user_id = $1", [userId])).toEqual([{ actor: "ops" }]);
  });

  it("a ban racing twenty withdrawals of the account leaves none of them waiting, every refused one refunded", async () => {
    const userId = await provision({ coins: 10_000 });
    const attempts = Array.from({ length: 20 }, () =>
      withdraw(userId, 1).then(
        (withdrawal) => withdrawal,
        (error: unknown) => error,
      ),
    );
    const ban = t.db.rpc("ban_account", { p_user_id: userId, p_reason: "Race", p_actor: "ops" });
    await Promise.all([...attempts, ban]);
    const left = await t.sql<{ n: number }>(
      "select count(*)::int as n from withdrawals where user_id = $1 and status = 'pending'",
      [userId],
    );
    expect(left[0]!.n).toBe(0);
    const [money] = await t.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [userId]);
    expect(Number(money!.balance)).toBe(100);
    await expectCleanAudit();
  });
});
