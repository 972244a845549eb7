import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleViolation } from "~/server/db/core.server";
import { dbRefusal, openTestPglite, type TestDatabase } from "../support/db";
import { provisionMember } from "../support/arrange";

// Cash out (supabase/migrations/20261123000000_cash_out_and_referrals.sql): create_withdrawal's
// checks in order, settlement exactly once with a notice, PayPal payout bookkeeping and the
// operator's review list.

interface Withdrawal {
  id: string;
  created_at: string;
  amount: number;
  payment_method: string;
  status: string;
  changed?: boolean;
}

interface Summary {
  balance: number;
  total_earned: number;
  email_verified: boolean;
}

interface Notice {
  id: number;
  kind: string;
  data: Record<string, unknown>;
  created_at: string;
}

interface OperatorRow {
  id: string;
  user_id: string;
  email: string | null;
  email_verified: boolean;
  amount: number;
  payment_method: string;
  recipient: string;
  status: string;
  reference: string | null;
  failure_reason: string | null;
  payout_batch_id: string | null;
  payout_status: string | null;
  sent_at: string | null;
  account_created_at: string;
  earnings_by_source: Record<string, number>;
  same_address_accounts: string[];
}

interface Recipient {
  email?: string | null;
  upi?: string | null;
  bank?: unknown;
}

/** A user with a verified email and `coins` bonus coins (100 coins are $1): provisionMember, as "Casher". */
const provision = (t: TestDatabase, { coins = 0, verified = true } = {}) =>
  provisionMember(t, { prefix: "cash", name: "Casher", coins, verified });

function withdraw(t: TestDatabase, userId: string, amount: unknown, method: unknown, recipient: Recipient = {}) {
  return t.db.rpc<Withdrawal>("create_withdrawal", {
    p_user_id: userId,
    amount_param: amount,
    payment_method_param: method,
    recipient_email_param: recipient.email ?? null,
    recipient_upi_param: recipient.upi ?? null,
    recipient_bank_details_param: recipient.bank ?? null,
  });
}

function settle(t: TestDatabase, withdrawalId: string, status: unknown, reference?: string, reason?: string) {
  return t.db.rpc<Withdrawal>("settle_withdrawal", {
    p_withdrawal_id: withdrawalId,
    p_status: status,
    ...(reference !== undefined ? { p_reference: reference } : {}),
    ...(reason !== undefined ? { p_reason: reason } : {}),
  });
}

/** The rule identifier and catalogue message a refused call was refused with. */
async function rule(promise: Promise<unknown>) {
  return ruleViolation(await dbRefusal(promise));
}

async function ruleKey(promise: Promise<unknown>) {
  return (await rule(promise))?.rule;
}

function summary(t: TestDatabase, userId: string) {
  return t.db.rpc<Summary>("get_user_summary", { p_user_id: userId });
}

async function ledger(t: TestDatabase, userId: string) {
  return t.sql<{ transaction_type: string; amount: number; status: string; description: string }>(
    `select transaction_type, amount::float8 as amount, status, description
       from transaction_history where user_id = $1 order by id`,
    [userId],
  );
}

async function withdrawalRow(t: TestDatabase, withdrawalId: string) {
  const [row] = await t.sql<{
    status: string;
    reference: string | null;
    failure_reason: string | null;
    payout_batch_id: string | null;
    payout_status: string | null;
    sent_at: string | null;
    recipient_email: string | null;
    recipient_upi: string | null;
    recipient_bank_details: unknown;
  }>(
    `select status, reference, failure_reason, payout_batch_id, payout_status, sent_at::text as sent_at,
            recipient_email, recipient_upi, recipient_bank_details
       from withdrawals where id = $1`,
    [withdrawalId],
  );
  return row!;
}

async function noticeCount(t: TestDatabase, userId: string) {
  const [row] = await t.sql<{ n: number }>("select count(*)::int as n from user_notices where user_id = $1", [userId]);
  return row!.n;
}

async function expectLedgerAudit(t: TestDatabase) {
  expect(await t.db.rpc("verify_all_balances")).toEqual([]);
}

// The rules are SQL, run here on PGlite (Postgres's own engine, compiled); the HTTP suite runs them
// again through the app on the Postgres server, and races are proven on the server
// (tests/integration/concurrency.test.ts, tests/http/pooler.test.ts).
describe.each([["PGlite", openTestPglite]])("cash out on %s", (_name, open) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("create_withdrawal", () => {
    it("refuses an unverified email with email_not_verified before the amount, balance, method or recipient", async () => {
      const userId = await provision(t, { verified: false });
      // Everything else about these requests is wrong too; the verified email is checked first.
      expect(await rule(withdraw(t, userId, -1, "crypto"))).toEqual({
        rule: "email_not_verified",
        message: "Please verify your email address before withdrawing",
      });
      expect(await ruleKey(withdraw(t, userId, 1000, "paypal"))).toBe("email_not_verified");
      // A funded user with a valid request is refused until the email is verified.
      await t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: 1000 });
      expect(await ruleKey(withdraw(t, userId, 5, "paypal", { email: "me@example.com" }))).toBe("email_not_verified");
      expect(await summary(t, userId)).toMatchObject({ email_verified: false, balance: 10 });
      expect(await t.db.rpc("record_email_verified", { p_user_id: userId })).toMatchObject({ email_verified: true });
      expect(await withdraw(t, userId, 5, "paypal", { email: "me@example.com" })).toMatchObject({ status: "pending" });
      expect((await summary(t, userId)).balance).toBe(5);
      await expectLedgerAudit(t);
    });

    it("refuses 0, a negative amount, 1.005, 1e10 and null with invalid_amount before the balance is checked", async () => {
      // A zero balance and no recipient: only the amount check can explain invalid_amount.
      const userId = await provision(t);
      for (const amount of [0, -5, 1.005, 1e10, null]) {
        expect(await rule(withdraw(t, userId, amount, "paypal")), `amount ${amount}`).toEqual({
          rule: "invalid_amount",
          message: "Please enter a valid amount",
        });
      }
      // The largest numeric(12,2) amount is an amount; it just exceeds the balance.
      expect(await ruleKey(withdraw(t, userId, 9999999999.99, "paypal"))).toBe("amount_exceeds_balance");
      expect(await t.db.rpc("get_user_withdrawals", { p_user_id: userId })).toEqual([]);
    });

    it("refuses an amount over the balance with amount_exceeds_balance before the method minimum and the recipient", async () => {
      const userId = await provision(t, { coins: 300 });
      // $4 is over the $3 balance, under PayPal's $5 minimum, and has no recipient: the balance message wins.
      expect(await rule(withdraw(t, userId, 4, "paypal"))).toEqual({
        rule: "amount_exceeds_balance",
        message: "Amount exceeds your available balance",
      });
      expect(await ruleKey(withdraw(t, userId, 3.01, "upi"))).toBe("amount_exceeds_balance");
      expect(await ruleKey(withdraw(t, userId, 11, "bank"))).toBe("amount_exceeds_balance");
      expect((await summary(t, userId)).balance).toBe(3);
      // The whole balance is not over it.
      expect(await withdraw(t, userId, 3, "upi", { upi: "name@okhdfcbank" })).toMatchObject({ amount: 3 });
      expect((await summary(t, userId)).balance).toBe(0);
      await expectLedgerAudit(t);
    });

    it("refuses an amount under the method's minimum from app_config (PayPal 5.00, UPI 1.00, bank 10.00) with below_minimum before the recipient", async () => {
      const userId = await provision(t, { coins: 2000 });
      expect(await t.db.rpc("get_app_config")).toMatchObject({
        min_withdrawal: { paypal: 5, upi: 1, bank: 10, giftcard: 1 },
      });
      // No recipient given: the minimum message wins.
      const paypal = await dbRefusal(withdraw(t, userId, 4.99, "paypal"));
      expect(paypal.details).toBe("5.00");
      expect(ruleViolation(paypal)).toEqual({ rule: "below_minimum", message: "Minimum withdrawal amount is $5.00" });
      const upi = await dbRefusal(withdraw(t, userId, 0.99, "upi"));
      expect([upi.details, ruleViolation(upi)?.message]).toEqual(["1.00", "Minimum withdrawal amount is $1.00"]);
      const bank = await dbRefusal(withdraw(t, userId, 9.99, "bank"));
      expect([bank.details, ruleViolation(bank)?.message]).toEqual(["10.00", "Minimum withdrawal amount is $10.00"]);
      // Exactly the minimum is enough (the next check is the recipient).
      expect(await ruleKey(withdraw(t, userId, 5, "paypal"))).toBe("paypal_email_required");
      expect(await ruleKey(withdraw(t, userId, 1, "upi"))).toBe("upi_id_required");
      expect(await ruleKey(withdraw(t, userId, 10, "bank"))).toBe("bank_details_required");
      try {
        await t.sql("update app_config set min_withdrawal_upi = 2.5");
        const raised = await dbRefusal(withdraw(t, userId, 2, "upi", { upi: "name@okhdfcbank" }));
        expect([raised.details, ruleViolation(raised)?.message]).toEqual([
          "2.50",
          "Minimum withdrawal amount is $2.50",
        ]);
      } finally {
        await t.sql("update app_config set min_withdrawal_upi = 1");
      }
      expect((await summary(t, userId)).balance).toBe(20);
    });

    it("refuses a missing recipient of the chosen method with paypal_email_required, upi_id_required or bank_details_required", async () => {
      const userId = await provision(t, { coins: 2000 });
      expect(await rule(withdraw(t, userId, 5, "paypal"))).toEqual({
        rule: "paypal_email_required",
        message: "Please enter your PayPal email",
      });
      expect(await ruleKey(withdraw(t, userId, 5, "paypal", { email: "   " }))).toBe("paypal_email_required");
      // Another method's recipient does not count.
      expect(await ruleKey(withdraw(t, userId, 5, "paypal", { upi: "name@okhdfcbank" }))).toBe("paypal_email_required");
      expect(await rule(withdraw(t, userId, 2, "upi", { email: "me@example.com" }))).toEqual({
        rule: "upi_id_required",
        message: "Please enter your UPI ID",
      });
      expect(await ruleKey(withdraw(t, userId, 2, "upi", { upi: " " }))).toBe("upi_id_required");
      expect(await rule(withdraw(t, userId, 10, "bank"))).toEqual({
        rule: "bank_details_required",
        message: "Please enter your bank account details",
      });
      for (const bank of [{ details: "  " }, {}, ["IBAN DE89"], { iban: "DE89" }]) {
        expect(await ruleKey(withdraw(t, userId, 10, "bank", { bank })), JSON.stringify(bank)).toBe(
          "bank_details_required",
        );
      }
      expect((await summary(t, userId)).balance).toBe(20);
    });

    it("refuses a malformed PayPal email with invalid_paypal_email and keeps a well-formed one trimmed", async () => {
      const userId = await provision(t, { coins: 2000 });
      for (const email of ["me@", "a b@x.com", "@example.com", "me@example", "me@@example.com", "me@example.c"]) {
        expect(await rule(withdraw(t, userId, 5, "paypal", { email })), email).toEqual({
          rule: "invalid_paypal_email",
          message: "Please enter a valid PayPal email address",
        });
      }
      expect((await summary(t, userId)).balance).toBe(20);
      const created = await withdraw(t, userId, 5, "paypal", { email: "  Me.Name+tag@Example.co.uk " });
      expect(await withdrawalRow(t, created.id)).toMatchObject({
        recipient_email: "Me.Name+tag@Example.co.uk",
        recipient_upi: null,
        recipient_bank_details: null,
      });
      await expectLedgerAudit(t);
    });

    it("refuses a malformed UPI id with invalid_upi_id, accepts name@okhdfcbank and 9876543210@ybl, and a 256- but not a 257-character name", async () => {
      const userId = await provision(t, { coins: 2000 });
      for (const upi of ["x@1", "x@ybl", "name", "name@", "na me@ybl", "name@ok1", "name@b", "@ybl", "a@b@ybl"]) {
        expect(await rule(withdraw(t, userId, 1, "upi", { upi })), upi).toEqual({
          rule: "invalid_upi_id",
          message: "Please enter a valid UPI ID, such as name@okhdfcbank",
        });
      }
      expect(await ruleKey(withdraw(t, userId, 1, "upi", { upi: `${"a".repeat(257)}@ybl` }))).toBe("invalid_upi_id");
      expect((await summary(t, userId)).balance).toBe(20);
      for (const upi of ["name@okhdfcbank", "9876543210@ybl", "first.last_1-x@paytm", `${"a".repeat(256)}@ybl`]) {
        const created = await withdraw(t, userId, 1, "upi", { upi: ` ${upi} ` });
        expect((await withdrawalRow(t, created.id)).recipient_upi).toBe(upi);
      }
      expect((await summary(t, userId)).balance).toBe(16);
      await expectLedgerAudit(t);
    });

    it("refuses bank details over 1,000 characters with bank_details_too_long and keeps 1,000 trimmed", async () => {
      const userId = await provision(t, { coins: 2000 });
      expect(await rule(withdraw(t, userId, 10, "bank", { bank: { details: "x".repeat(1001) } }))).toEqual({
        rule: "bank_details_too_long",
        message: "Bank details can be at most 1,000 characters",
      });
      const created = await withdraw(t, userId, 10, "bank", { bank: { details: ` ${"x".repeat(1000)} `, extra: 1 } });
      expect((await withdrawalRow(t, created.id)).recipient_bank_details).toEqual({ details: "x".repeat(1000) });
      await expectLedgerAudit(t);
    });

    it("refuses an unsupported payment method with unsupported_payment_method", async () => {
      const userId = await provision(t, { coins: 2000 });
      for (const method of ["crypto", "PayPal", "", null]) {
        expect(await rule(withdraw(t, userId, 5, method, { email: "me@example.com" })), String(method)).toEqual({
          rule: "unsupported_payment_method",
          message: "Please choose a payment method",
        });
      }
      expect((await summary(t, userId)).balance).toBe(20);
      expect(await t.db.rpc("get_user_withdrawals", { p_user_id: userId })).toEqual([]);
    });

    it("a created withdrawal deducts the balance, writes one pending ledger row, and is listed newest first", async () => {
      const userId = await provision(t, { coins: 3000 });
      const upi = await withdraw(t, userId, 2, "upi", { upi: "name@okhdfcbank" });
      const paypal = await withdraw(t, userId, 5.5, "paypal", { email: "me@example.com" });
      const bank = await withdraw(t, userId, 10, "bank", { bank: { details: "IBAN DE89 3704 0044 0532 0130 00" } });
      expect(paypal).toEqual({
        id: expect.any(String),
        created_at: expect.any(String),
        amount: 5.5,
        payment_method: "paypal",
        status: "pending",
        // Its step (docs/decisions/068): approved at once (demo settings, a score under the threshold), not sent yet.
        review_state: "approved",
        sent_at: null,
        settled_at: null,
        failure_reason: null,
        // Paid in dollars (no rupees are fixed for PayPal; decision 087), no reference until paid.
        payout_currency: null,
        payout_amount: null,
        giftcard_name: null,
        reference: null,
      });
      // Withdrawals do not reduce what was earned.
      expect(await summary(t, userId)).toMatchObject({ balance: 12.5, total_earned: 30 });
      expect(await ledger(t, userId)).toEqual([
        { transaction_type: "bonus", amount: 30, status: "completed", description: "Bonus coins" },
        { transaction_type: "withdrawal", amount: -2, status: "pending", description: "Withdrawal via UPI" },
        { transaction_type: "withdrawal", amount: -5.5, status: "pending", description: "Withdrawal via PayPal" },
        { transaction_type: "withdrawal", amount: -10, status: "pending", description: "Withdrawal via bank transfer" },
      ]);
      const list = await t.db.rpc<Withdrawal[]>("get_user_withdrawals", { p_user_id: userId });
      expect(list.map((w) => [w.id, w.amount, w.status])).toEqual([
        [bank.id, 10, "pending"],
        [paypal.id, 5.5, "pending"],
        [upi.id, 2, "pending"],
      ]);
      // Made within one millisecond (PGlite's clock resolution) they are still listed newest first.
      await t.sql("update withdrawals set created_at = date_trunc('second', created_at) where user_id = $1", [userId]);
      expect((await t.db.rpc<Withdrawal[]>("get_user_withdrawals", { p_user_id: userId })).map((w) => w.id)).toEqual([
        bank.id,
        paypal.id,
        upi.id,
      ]);
      await expectLedgerAudit(t);
    });
  });

  describe("settle_withdrawal", () => {
    it("completing a withdrawal keeps the money, marks its ledger row completed and stores the trimmed reference", async () => {
      const userId = await provision(t, { coins: 2000 });
      const created = await withdraw(t, userId, 6, "upi", { upi: "name@okhdfcbank" });
      expect(await settle(t, created.id, "completed", "  UTR-123  ", "ignored for a completion")).toMatchObject({
        id: created.id,
        status: "completed",
        changed: true,
      });
      expect(await withdrawalRow(t, created.id)).toMatchObject({
        status: "completed",
        reference: "UTR-123",
        failure_reason: null,
      });
      expect(await summary(t, userId)).toMatchObject({ balance: 14, total_earned: 20 });
      expect((await ledger(t, userId)).at(-1)).toMatchObject({ transaction_type: "withdrawal", status: "completed" });
      await expectLedgerAudit(t);
    });

    it("failing a withdrawal refunds it: the balance is back, its ledger row is 'failed', the reason is stored", async () => {
      const userId = await provision(t, { coins: 2000 });
      const created = await withdraw(t, userId, 6, "paypal", { email: "me@example.com" });
      expect((await summary(t, userId)).balance).toBe(14);
      expect(await settle(t, created.id, "failed", undefined, " Receiver unregistered ")).toMatchObject({
        status: "failed",
        changed: true,
      });
      expect(await withdrawalRow(t, created.id)).toMatchObject({
        status: "failed",
        reference: null,
        failure_reason: "Receiver unregistered",
      });
      expect(await summary(t, userId)).toMatchObject({ balance: 20, total_earned: 20 });
      expect((await ledger(t, userId)).at(-1)).toMatchObject({
        transaction_type: "withdrawal",
        amount: -6,
        status: "failed",
      });
      await expectLedgerAudit(t);
    });

    it("a repeated settlement, with the same or the other status, returns changed: false and moves nothing", async () => {
      const userId = await provision(t, { coins: 2000 });
      const completed = await withdraw(t, userId, 6, "upi", { upi: "name@okhdfcbank" });
      const failed = await withdraw(t, userId, 5, "upi", { upi: "name@okhdfcbank" });
      await settle(t, completed.id, "completed", "UTR-1");
      await settle(t, failed.id, "failed", undefined, "Bank refused");
      const before = { summary: await summary(t, userId), ledger: await ledger(t, userId) };
      expect(before.summary.balance).toBe(14);

      for (const status of ["completed", "failed"]) {
        expect(await settle(t, completed.id, status, "UTR-2", "late")).toMatchObject({
          id: completed.id,
          status: "completed",
          changed: false,
        });
        expect(await settle(t, failed.id, status, "UTR-3", "again")).toMatchObject({
          id: failed.id,
          status: "failed",
          changed: false,
        });
      }
      expect(await withdrawalRow(t, completed.id)).toMatchObject({ reference: "UTR-1", failure_reason: null });
      expect(await withdrawalRow(t, failed.id)).toMatchObject({ reference: null, failure_reason: "Bank refused" });
      expect(await summary(t, userId)).toEqual(before.summary);
      expect(await ledger(t, userId)).toEqual(before.ledger);
      expect(await noticeCount(t, userId)).toBe(2);
      await expectLedgerAudit(t);
    });

    it("each first settlement writes one notice (withdrawal_completed, withdrawal_failed) that take_user_notices returns once", async () => {
      const userId = await provision(t, { coins: 2000 });
      expect(await t.db.rpc("take_user_notices", { p_user_id: userId })).toEqual([]);
      const completed = await withdraw(t, userId, 6, "paypal", { email: "me@example.com" });
      const failed = await withdraw(t, userId, 2.5, "upi", { upi: "name@okhdfcbank" });
      // Creating a withdrawal announces nothing yet.
      expect(await noticeCount(t, userId)).toBe(0);
      await settle(t, completed.id, "completed", "PAY-1");
      await settle(t, failed.id, "failed", undefined, "Invalid UPI");
      await settle(t, failed.id, "failed");
      expect(await noticeCount(t, userId)).toBe(2);

      const notices = await t.db.rpc<Notice[]>("take_user_notices", { p_user_id: userId });
      expect(notices).toEqual([
        {
          id: expect.any(Number),
          kind: "withdrawal_completed",
          data: { withdrawal_id: completed.id, amount: 6, payment_method: "paypal", reason: null },
          created_at: expect.any(String),
        },
        {
          id: expect.any(Number),
          kind: "withdrawal_failed",
          data: { withdrawal_id: failed.id, amount: 2.5, payment_method: "upi", reason: "Invalid UPI" },
          created_at: expect.any(String),
        },
      ]);
      expect(await t.db.rpc("take_user_notices", { p_user_id: userId })).toEqual([]);
      await expectLedgerAudit(t);
    });

    it("allows app_config.withdrawals_per_hour withdrawals an hour; refused requests do not count", async () => {
      const userId = await provision(t, { coins: 2000 });
      for (let i = 0; i < 3; i++) {
        expect((await rule(withdraw(t, userId, 1, "upi", { upi: "typo" })))?.rule).toBe("invalid_upi_id");
      }
      for (let i = 0; i < 5; i++) await withdraw(t, userId, 1, "upi", { upi: "name@okhdfcbank" });
      const sixth = await rule(withdraw(t, userId, 1, "upi", { upi: "name@okhdfcbank" }));
      expect(sixth?.rule).toBe("withdrawal_rate_limited");
      expect(sixth?.message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
      expect((await summary(t, userId)).balance).toBe(15);
      await expectLedgerAudit(t);
    });

    it("take_user_notices hands out at most five notices per call, oldest first, each exactly once", async () => {
      const userId = await provision(t, { coins: 2000 });
      const ids: string[] = [];
      try {
        await t.sql("update app_config set withdrawals_per_hour = 10");
        for (let i = 0; i < 6; i++) ids.push((await withdraw(t, userId, 1, "upi", { upi: "name@okhdfcbank" })).id);
      } finally {
        await t.sql("update app_config set withdrawals_per_hour = 5");
      }
      for (const id of ids) await settle(t, id, "completed");
      const first = await t.db.rpc<Notice[]>("take_user_notices", { p_user_id: userId });
      const second = await t.db.rpc<Notice[]>("take_user_notices", { p_user_id: userId });
      expect([...first, ...second].map((notice) => notice.data.withdrawal_id)).toEqual(ids);
      expect([first.length, second.length]).toEqual([5, 1]);
      expect(await t.db.rpc("take_user_notices", { p_user_id: userId })).toEqual([]);
      await expectLedgerAudit(t);
    });

    it("refuses an invalid status with invalid_settlement_status and an unknown withdrawal with withdrawal_not_found", async () => {
      const userId = await provision(t, { coins: 2000 });
      const created = await withdraw(t, userId, 6, "upi", { upi: "name@okhdfcbank" });
      for (const status of ["pending", "done", "COMPLETED", null]) {
        expect(await rule(settle(t, created.id, status)), String(status)).toEqual({
          rule: "invalid_settlement_status",
          message: "Invalid status",
        });
      }
      expect((await withdrawalRow(t, created.id)).status).toBe("pending");
      expect(await rule(settle(t, "00000000-0000-4000-8000-000000000000", "completed"))).toEqual({
        rule: "withdrawal_not_found",
        message: "Withdrawal not found",
      });
      expect(await noticeCount(t, userId)).toBe(0);
      expect((await summary(t, userId)).balance).toBe(14);
      await expectLedgerAudit(t);
    });
  });

  describe("PayPal payout bookkeeping", () => {
    it("mark_payout_sent records the batch and status of a pending withdrawal, keeps the first sent_at, and refuses a settled one with withdrawal_not_pending", async () => {
      const userId = await provision(t, { coins: 2000 });
      const created = await withdraw(t, userId, 5, "paypal", { email: "me@example.com" });
      expect(
        await t.db.rpc("mark_payout_sent", {
          p_withdrawal_id: created.id,
          p_batch_id: "BATCH-1",
          p_payout_status: "PENDING",
        }),
      ).toMatchObject({ id: created.id, status: "pending" });
      const first = await withdrawalRow(t, created.id);
      expect(first).toMatchObject({
        payout_batch_id: "BATCH-1",
        payout_status: "PENDING",
        sent_at: expect.any(String),
      });
      await t.db.rpc("mark_payout_sent", {
        p_withdrawal_id: created.id,
        p_batch_id: "BATCH-2",
        p_payout_status: "UNCLAIMED",
      });
      expect(await withdrawalRow(t, created.id)).toMatchObject({
        payout_batch_id: "BATCH-2",
        payout_status: "UNCLAIMED",
        sent_at: first.sent_at,
      });

      await settle(t, created.id, "completed", "PAY-9");
      expect(
        await rule(
          t.db.rpc("mark_payout_sent", {
            p_withdrawal_id: created.id,
            p_batch_id: "BATCH-3",
            p_payout_status: "SUCCESS",
          }),
        ),
      ).toEqual({ rule: "withdrawal_not_pending", message: "Withdrawal is not pending" });
      expect(await withdrawalRow(t, created.id)).toMatchObject({
        status: "completed",
        payout_batch_id: "BATCH-2",
        payout_status: "UNCLAIMED",
      });
      expect(await summary(t, userId)).toMatchObject({ balance: 15 });
      await expectLedgerAudit(t);
    });

    it("record_payout_status updates a pending withdrawal's payout status and leaves a settled one alone (returning null)", async () => {
      const userId = await provision(t, { coins: 2000 });
      const pending = await withdraw(t, userId, 5, "paypal", { email: "me@example.com" });
      const settled = await withdraw(t, userId, 5, "paypal", { email: "me@example.com" });
      await t.db.rpc("mark_payout_sent", { p_withdrawal_id: settled.id, p_batch_id: "B", p_payout_status: "PENDING" });
      await settle(t, settled.id, "failed", undefined, "Returned");

      expect(
        await t.db.rpc("record_payout_status", { p_withdrawal_id: pending.id, p_payout_status: "ONHOLD" }),
      ).toMatchObject({ id: pending.id, status: "pending" });
      expect(await withdrawalRow(t, pending.id)).toMatchObject({ status: "pending", payout_status: "ONHOLD" });

      expect(
        await t.db.rpc("record_payout_status", { p_withdrawal_id: settled.id, p_payout_status: "UNCLAIMED" }),
      ).toBeNull();
      expect(await withdrawalRow(t, settled.id)).toMatchObject({ status: "failed", payout_status: "PENDING" });
      expect(await summary(t, userId)).toMatchObject({ balance: 15 });
      await expectLedgerAudit(t);
    });
  });

  describe("operator_withdrawals", () => {
    it("lists withdrawals by status and method, oldest first, with the recipient, account_created_at and earnings_by_source", async () => {
      const userId = await provision(t, { coins: 2000 });
      await t.db.rpc("daily_checkin", { p_user_id: userId });
      const paypal = await withdraw(t, userId, 5, "paypal", { email: "ops@example.com" });
      const upi = await withdraw(t, userId, 1, "upi", { upi: "ops@okhdfcbank" });
      const bank = await withdraw(t, userId, 10, "bank", { bank: { details: "IBAN OPS" } });
      await settle(t, bank.id, "completed", "WIRE-1");
      const mine = async (status: string | null, method: string | null = null) =>
        (await t.db.rpc<OperatorRow[]>("operator_withdrawals", { p_status: status, p_method: method })).filter(
          (row) => row.user_id === userId,
        );

      const [account] = await t.sql<{ created_at: string }>(
        "select to_json(created_at)#>>'{}' as created_at from user_profiles where id = $1",
        [userId],
      );
      const pending = await mine("pending");
      expect(pending.map((row) => row.id)).toEqual([paypal.id, upi.id]);
      expect(pending[0]).toMatchObject({
        email: `${userId}@example.com`,
        email_verified: true,
        amount: 5,
        payment_method: "paypal",
        recipient: "ops@example.com",
        status: "pending",
        account_created_at: account!.created_at,
        earnings_by_source: { bonus: 20, checkin: 0.1 },
        same_address_accounts: [],
      });
      expect(pending[1]).toMatchObject({ recipient: "ops@okhdfcbank", payment_method: "upi" });
      // The default lists pending ones.
      expect((await t.db.rpc<OperatorRow[]>("operator_withdrawals")).filter((row) => row.user_id === userId)).toEqual(
        pending,
      );
      expect((await mine("pending", "upi")).map((row) => row.id)).toEqual([upi.id]);
      expect((await mine("pending", "bank")).map((row) => row.id)).toEqual([]);
      expect(await mine("completed")).toEqual([
        expect.objectContaining({ id: bank.id, recipient: "IBAN OPS", reference: "WIRE-1", status: "completed" }),
      ]);
      // A null status lists every status.
      expect((await mine(null)).map((row) => row.id)).toEqual([paypal.id, upi.id, bank.id]);
      // Oldest first even within one millisecond (PGlite's clock resolution).
      await t.sql("update withdrawals set created_at = date_trunc('second', created_at) where user_id = $1", [userId]);
      expect((await mine(null)).map((row) => row.id)).toEqual([paypal.id, upi.id, bank.id]);
      await expectLedgerAudit(t);
    });

    it("shows the other accounts paid to the same PayPal email, case-insensitively, in same_address_accounts", async () => {
      const first = await provision(t, { coins: 2000 });
      const second = await provision(t, { coins: 2000 });
      const other = await provision(t, { coins: 2000 });
      const a = await withdraw(t, first, 5, "paypal", { email: "Shared.Payee@Example.com" });
      const a2 = await withdraw(t, first, 5, "paypal", { email: "shared.payee@example.com" });
      const b = await withdraw(t, second, 5, "paypal", { email: " shared.payee@EXAMPLE.COM " });
      const c = await withdraw(t, other, 5, "paypal", { email: "someone.else@example.com" });
      const rows = await t.db.rpc<OperatorRow[]>("operator_withdrawals", { p_status: "pending", p_method: "paypal" });
      const byId = new Map(rows.map((row) => [row.id, row]));
      // An account's own other withdrawals to the address are not "other accounts".
      expect(byId.get(a.id)!.same_address_accounts).toEqual([second]);
      expect(byId.get(a2.id)!.same_address_accounts).toEqual([second]);
      expect(byId.get(b.id)!.same_address_accounts).toEqual([first]);
      expect(byId.get(c.id)!.same_address_accounts).toEqual([]);
      await expectLedgerAudit(t);
    });
  });
});
