import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../support/app-server";
import { createMigratedDatabase } from "../support/db";
import { appUrl, statusCounts } from "../support/http";
import { runOperator } from "../support/operator";
import { withinOneMinute } from "../support/wait";
import { RATE_LIMITS } from "~/server/http/rate-limit.server";
import { startPayPalStandIn, type PayPalStandIn } from "../support/paypal";

// An app server on a scratch Postgres database, configured with a local PayPal. Users and
// withdrawals are arranged in SQL; the operator runs the built command (build/payouts.js) against
// the same database and PayPal, and PayPal's webhooks arrive over HTTP. After every test the
// balances agree with the ledger.
describe("paying out withdrawals: the operator command and the PayPal webhook, on Postgres with a local PayPal", () => {
  let scratch: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let direct: pg.Pool;
  let paypal: PayPalStandIn;
  let app: Awaited<ReturnType<typeof startTestApp>>;

  async function sql<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]> {
    return (await direct.query(text, values)).rows as R[];
  }

  beforeAll(async () => {
    scratch = await createMigratedDatabase();
    paypal = await startPayPalStandIn();
    direct = new pg.Pool({ connectionString: scratch.url, max: 2 });
    direct.on("error", () => {});
    app = await startTestApp({ DATABASE_URL: scratch.url, ...paypal.env });
    // Withdrawals of bonus coins credited just before (holds and locked bonus: docs/decisions/066).
    await direct.query("select apply_demo_settings()");
  }, 120_000);

  afterEach(async () => {
    paypal.clearFailures();
    const [audit] = await sql<{ result: unknown[] }>("select verify_all_balances() as result");
    expect(audit!.result, "every balance agrees with its ledger").toEqual([]);
  });

  afterAll(async () => {
    await app?.stop();
    await paypal?.close();
    await direct?.end();
    await scratch?.drop();
  });

  // ---------------------------------------------------------------------------------------------
  // Arranging

  type Method = "paypal" | "upi" | "bank";

  /** A verified user with `coins` coins who asks for `amount` dollars to `recipient`. */
  async function withdrawal(method: Method, amount: number, recipient: string, coins = Math.ceil(amount * 100) + 500) {
    const userId = `payee-${randomUUID()}`;
    await sql(
      "select provision_user(p_user_id => $1, p_email => $2, p_display_name => 'Payee', p_email_verified => true)",
      [userId, `${userId}@example.com`],
    );
    await sql("select add_user_coins($1, $2)", [userId, coins]);
    const [created] = await sql<{ result: { id: string } }>(
      `select create_withdrawal(p_user_id => $1, amount_param => $2, payment_method_param => $3,
                                recipient_email_param => $4, recipient_upi_param => $5,
                                recipient_bank_details_param => $6) as result`,
      [
        userId,
        amount,
        method,
        method === "paypal" ? recipient : null,
        method === "upi" ? recipient : null,
        method === "bank" ? JSON.stringify({ details: recipient }) : null,
      ],
    );
    return { id: created!.result.id, userId, email: `${userId}@example.com` };
  }

  const paypalEmail = () => `payee.${randomUUID().slice(0, 8)}@example.com`;

  async function row(id: string) {
    const [found] = await sql<{
      status: string;
      reference: string | null;
      failure_reason: string | null;
      payout_batch_id: string | null;
      payout_status: string | null;
      sent_at: Date | null;
    }>(
      "select status, reference, failure_reason, payout_batch_id, payout_status, sent_at from withdrawals where id = $1",
      [id],
    );
    return found!;
  }

  async function balance(userId: string): Promise<number> {
    const [found] = await sql<{ balance: string }>("select balance from user_balance where user_id = $1", [userId]);
    return Number(found!.balance);
  }

  async function notices(id: string) {
    return sql<{ kind: string; data: { reason: string | null } }>(
      "select kind, data from user_notices where data ->> 'withdrawal_id' = $1",
      [id],
    );
  }

  // ---------------------------------------------------------------------------------------------
  // The operator command

  /** Runs `node build/payouts.js ...args` with the scratch database and (unless told) the local PayPal. */
  function payouts(args: string[], { withPayPal = true } = {}) {
    return runOperator(scratch.url, args, withPayPal ? paypal.env : {});
  }

  /** The command's --json answer; fails the test when it exits non-zero unless `code` says so. */
  async function payoutsJson<T>(args: string[], code = 0): Promise<T> {
    const result = await payouts([...args, "--json"]);
    expect(result.code, result.stderr).toBe(code);
    return JSON.parse(result.stdout) as T;
  }

  /** One line on stderr, `error: ...`, no stack trace, and a non-zero exit. */
  function expectOneLineError(result: { code: number | null; stderr: string }, message: string | RegExp) {
    expect(result.code).not.toBe(0);
    const [first] = result.stderr.trim().split("\n");
    expect(first).toMatch(/^error: /);
    expect(first).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at |node:internal|\.js:\d+/);
  }

  type Reviewed = {
    id: string;
    user_id: string;
    created_at: string;
    account_created_at: string;
    earnings_by_source: Record<string, number>;
    same_address_accounts: string[];
  };
  type SendResult = { id: string; result: string; batchId?: string; error?: string; paypalName?: string };
  type SyncResult = {
    id: string;
    result: string;
    payoutStatus: string;
    changed: boolean;
    reference?: string;
    reason?: string;
  };

  it("list shows each pending withdrawal with account age, earnings by source and the other accounts paid to the same address", async () => {
    const shared = paypalEmail();
    const first = await withdrawal("paypal", 5.25, shared, 1000);
    const second = await withdrawal("paypal", 6, shared.toUpperCase(), 1000);
    try {
      const listed = await payoutsJson<Reviewed[]>(["list", "--method", "paypal"]);
      const mine = listed.filter((entry) => entry.id === first.id || entry.id === second.id);
      expect(mine).toHaveLength(2);
      expect(mine[0]).toMatchObject({
        id: first.id,
        user_id: first.userId,
        earnings_by_source: { bonus: 10 },
        same_address_accounts: [second.userId],
      });
      expect(mine[1]!.same_address_accounts).toEqual([first.userId]);
      expect(Date.now() - Date.parse(mine[0]!.account_created_at)).toBeLessThan(60 * 60_000);

      const table = await payouts(["list", "--method", "paypal"]);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(
        /^\d+ pending withdrawals?\n\nID +REQUESTED +AMOUNT +METHOD +RECIPIENT +STATUS +PAYPAL\n/,
      );
      const block = table.stdout.slice(table.stdout.indexOf(first.id));
      expect(block).toMatch(
        new RegExp(
          `^${first.id} +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC +\\$5\\.25 +paypal +${shared} +pending +not sent\\n`,
        ),
      );
      expect(block).toContain(`account ${first.userId} <${first.email}>, less than a day old`);
      expect(block).toContain("earned: bonus $10.00");
      expect(block).toContain(`!! same address as 1 other account: ${second.userId}`);
    } finally {
      for (const { id } of [first, second]) await payouts(["settle", id, "failed", "--reason", "test clean-up"]);
    }
  });

  it("negative lists each account a reversal left below zero, with its balance and the reversal behind it", async () => {
    const userId = `debtor-${randomUUID()}`;
    const email = `${userId}@example.com`;
    await sql(
      "select provision_user(p_user_id => $1, p_email => $2, p_display_name => 'Debtor', p_email_verified => true)",
      [userId, email],
    );
    // A 1,000-coin postback, withdrawn at once; then the network reverses it.
    const transaction = `tx-${randomUUID()}`;
    const postback = (reversal: boolean) =>
      sql("select record_postback($1, $2, $3, 1000, $4, 'Offer')", ["acme", transaction, userId, reversal]);
    await postback(false);
    const all = await balance(userId);
    const [created] = await sql<{ result: { id: string } }>(
      "select create_withdrawal(p_user_id => $1, amount_param => $2, payment_method_param => 'upi', recipient_upi_param => 'me@upi') as result",
      [userId, all],
    );
    await postback(true);
    expect(await balance(userId)).toBe(-10);

    type Negative = {
      user_id: string;
      email: string;
      balance: number;
      reversals: { transaction_id: string; amount: number }[];
    };
    const listed = await payoutsJson<Negative[]>(["negative"]);
    expect(listed.find((account) => account.user_id === userId)).toMatchObject({
      email,
      balance: -10,
      reversals: [{ transaction_id: transaction, amount: -10 }],
    });
    const table = await payouts(["negative"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^\d+ accounts? ha(s|ve) a negative balance/);
    expect(table.stdout).toContain(`${userId} <${email}>  balance -$10.00`);
    expect(table.stdout).toMatch(new RegExp(`reversed -\\$10\\.00  acme ${transaction}  \\d{4}-\\d\\d-\\d\\d`));
    expectOneLineError(await payouts(["negative", "extra"]), /negative takes no arguments/);
    // The review list warns about the account's pending withdrawal, made before the reversal.
    const list = await payouts(["list", "--method", "upi"]);
    const block = list.stdout.slice(list.stdout.indexOf(created!.result.id));
    expect(block).toMatch(
      /^\S+ .*\n( {4}.*\n)* {4}!! balance -\$10\.00: a reversal took back money already withdrawn \(see negative\)\n/,
    );
    // Other tests count pending withdrawals: this one is settled (its refund pays the debt).
    await payouts(["settle", created!.result.id, "failed", "--reason", "test clean-up"]);
    expect(await balance(userId)).toBe(all - 10);
  });

  it("list refuses an unknown status or method with one line", async () => {
    expectOneLineError(await payouts(["list", "--status", "maybe"]), /Unknown status "maybe"/);
    expectOneLineError(await payouts(["list", "--method", "cheque"]), /Unknown method "cheque"/);
    expectOneLineError(await payouts(["list", "--reason", "x"]), /--reason does not go with list/);
    expectOneLineError(await payouts(["refund", "all"]), /Unknown command "refund"/);
  });

  it("send pays a PayPal withdrawal once, through an injected 500 and when run a second time", async () => {
    const payee = await withdrawal("paypal", 5.25, paypalEmail());
    paypal.failNext(1, { kind: "500" }, /^\/v1\/payments\/payouts$/);
    const [sent] = await payoutsJson<SendResult[]>(["send", payee.id]);
    expect(sent).toMatchObject({ id: payee.id, result: "sent", batchId: expect.any(String) });
    const stored = await row(payee.id);
    expect(stored).toMatchObject({ status: "pending", payout_batch_id: sent!.batchId, payout_status: "PENDING" });
    expect(stored.sent_at).toBeInstanceOf(Date);

    const again = await payouts(["send", payee.id]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`already sent  ${payee.id}  batch ${sent!.batchId}`);
    const creates = paypal
      .requestsTo("POST", "/v1/payments/payouts")
      .filter((request) => request.headers["paypal-request-id"] === payee.id);
    expect(creates.map((request) => request.status)).toEqual([500, 201]);
    expect(paypal.payoutsMade(payee.id)).toBe(1);
    expect(await notices(payee.id)).toEqual([]);
  });

  it("send pays once when PayPal's answer is lost after it made the payout", async () => {
    const payee = await withdrawal("paypal", 7.5, paypalEmail());
    paypal.failNext(1, { kind: "drop", afterProcessing: true }, /^\/v1\/payments\/payouts$/);
    const [sent] = await payoutsJson<SendResult[]>(["send", payee.id]);
    expect(sent).toMatchObject({ result: "sent", batchId: paypal.item(payee.id).payout_batch_id });
    expect(paypal.payoutsMade(payee.id)).toBe(1);
  });

  it("a payout PayPal accepted but the database could not record is recorded by the next send, without paying again", async () => {
    const first = await withdrawal("paypal", 5, paypalEmail());
    const second = await withdrawal("paypal", 5, paypalEmail());
    await sql("alter function public.mark_payout_sent(uuid, text, text) rename to mark_payout_sent_off");
    try {
      const results = await payoutsJson<SendResult[]>(["send", first.id, second.id], 1);
      // The run stops at the first payout it could not record.
      expect(results).toEqual([
        {
          id: first.id,
          result: "error",
          error: expect.stringMatching(/could not be recorded .*run send again/),
          unrecorded: true,
        },
      ]);
      expect(await row(first.id)).toMatchObject({ status: "pending", sent_at: null });
      expect(paypal.payoutsMade(second.id)).toBe(0);
    } finally {
      await sql("alter function public.mark_payout_sent_off(uuid, text, text) rename to mark_payout_sent");
    }
    const results = await payoutsJson<SendResult[]>(["send", first.id, second.id]);
    expect(results.map((result) => [result.id, result.result])).toEqual([
      [first.id, "sent"],
      [second.id, "sent"],
    ]);
    expect(await row(first.id)).toMatchObject({ payout_batch_id: paypal.item(first.id).payout_batch_id });
    expect(paypal.payoutsMade(first.id)).toBe(1);
    expect(paypal.payoutsMade(second.id)).toBe(1);
  });

  it("send --all sends every pending PayPal withdrawal not sent yet, and nothing else", async () => {
    const fresh = await withdrawal("paypal", 5, paypalEmail());
    const upi = await withdrawal("upi", 2, "payee.all@okaxis");
    const earlier = await withdrawal("paypal", 5, paypalEmail());
    await payoutsJson(["send", earlier.id]);
    const results = await payoutsJson<SendResult[]>(["send", "--all"]);
    expect(results.map((result) => result.id)).toContain(fresh.id);
    expect(results.map((result) => result.id)).not.toContain(upi.id);
    expect(results.map((result) => result.id)).not.toContain(earlier.id);
    expect(results.every((result) => result.result === "sent")).toBe(true);
    expect(paypal.payoutsMade(earlier.id)).toBe(1);
    expect(paypal.payoutsMade(upi.id)).toBe(0);
    expect(await payoutsJson<SendResult[]>(["send", "--all"])).toEqual([]);
  });

  it("a payout PayPal refuses stays pending with PayPal's error and exit code 1; it can be sent once the cause is fixed", async () => {
    const receiver = paypalEmail();
    const payee = await withdrawal("paypal", 5, receiver);
    paypal.refuseReceiver(receiver, 422, "INSUFFICIENT_FUNDS", "Sender does not have sufficient funds.");
    try {
      const [refused] = await payoutsJson<SendResult[]>(["send", payee.id], 1);
      expect(refused).toMatchObject({ id: payee.id, result: "refused", paypalName: "INSUFFICIENT_FUNDS" });
      expect(refused!.error).toContain("Sender does not have sufficient funds.");
      expect(await row(payee.id)).toMatchObject({ status: "pending", sent_at: null, payout_batch_id: null });
      const table = await payouts(["send", payee.id]);
      expect(table.code).toBe(1);
      expect(table.stdout).toContain(`refused       ${payee.id}  payout ${payee.id}: PayPal 422 INSUFFICIENT_FUNDS`);
      expect(table.stdout).toContain("0 sent, 0 already sent, 1 refused by PayPal, 0 not sent (try again)");
    } finally {
      paypal.acceptReceiver(receiver);
    }
    const [sent] = await payoutsJson<SendResult[]>(["send", payee.id]);
    expect(sent!.result).toBe("sent");
    expect(paypal.payoutsMade(payee.id)).toBe(1);
  });

  it("send and sync without PayPal credentials say so in one line and exit non-zero", async () => {
    const payee = await withdrawal("paypal", 5, paypalEmail());
    for (const args of [["send", payee.id], ["send", "--all"], ["sync"]]) {
      expectOneLineError(
        await payouts(args, { withPayPal: false }),
        "error: PayPal is not configured: set PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET",
      );
    }
    expect(await row(payee.id)).toMatchObject({ status: "pending", sent_at: null });
    expect(paypal.payoutsMade(payee.id)).toBe(0);
  });

  it("send refuses, in one line, an unknown id, something that is not an id, a UPI withdrawal and a settled one", async () => {
    const unknown = randomUUID();
    expectOneLineError(await payouts(["send", unknown]), `error: No withdrawal ${unknown}`);
    expectOneLineError(await payouts(["send", "12345"]), /"12345" is not a withdrawal id/);
    const upi = await withdrawal("upi", 2, "payee.send@okaxis");
    expectOneLineError(await payouts(["send", upi.id]), /is paid by upi, not PayPal/);
    const settled = await withdrawal("paypal", 5, paypalEmail());
    await payoutsJson(["settle", settled.id, "failed", "--reason", "operator refused"]);
    expectOneLineError(await payouts(["send", settled.id]), `error: Withdrawal ${settled.id} is already failed`);
    expectOneLineError(await payouts(["send", upi.id, "--all"]), /ids or --all, not both/);
  });

  it("sync settles from PayPal: SUCCESS completes, RETURNED fails and refunds, UNCLAIMED stays pending; a second sync changes nothing", async () => {
    const success = await withdrawal("paypal", 5, paypalEmail());
    const returned = await withdrawal("paypal", 8.5, paypalEmail());
    const unclaimed = await withdrawal("paypal", 6, paypalEmail());
    await payoutsJson(["send", success.id, returned.id, unclaimed.id]);
    paypal.setItemStatus(success.id, "SUCCESS");
    paypal.setItemStatus(returned.id, "RETURNED", {
      name: "RECEIVER_UNREGISTERED",
      message: "Receiver is unregistered",
    });
    paypal.setItemStatus(unclaimed.id, "UNCLAIMED");
    const returnedBalance = await balance(returned.userId);

    const results = await payoutsJson<SyncResult[]>(["sync"]);
    const byId = new Map(results.map((result) => [result.id, result]));
    expect(byId.get(success.id)).toEqual({
      id: success.id,
      result: "completed",
      payoutStatus: "SUCCESS",
      changed: true,
      reference: paypal.item(success.id).payout_item_id,
    });
    expect(byId.get(returned.id)).toEqual({
      id: returned.id,
      result: "failed",
      payoutStatus: "RETURNED",
      changed: true,
      reason: "The payout was not claimed and PayPal returned it: Receiver is unregistered",
    });
    expect(byId.get(unclaimed.id)).toEqual({
      id: unclaimed.id,
      result: "pending",
      payoutStatus: "UNCLAIMED",
      changed: false,
    });

    expect(await row(success.id)).toMatchObject({
      status: "completed",
      reference: paypal.item(success.id).payout_item_id,
      payout_status: "SUCCESS",
    });
    expect(await row(returned.id)).toMatchObject({
      status: "failed",
      failure_reason: "The payout was not claimed and PayPal returned it: Receiver is unregistered",
    });
    expect(await balance(returned.userId)).toBe(returnedBalance + 8.5);
    expect(await row(unclaimed.id)).toMatchObject({ status: "pending", payout_status: "UNCLAIMED" });
    expect((await notices(success.id)).map((notice) => notice.kind)).toEqual(["withdrawal_completed"]);
    expect((await notices(returned.id)).map((notice) => notice.kind)).toEqual(["withdrawal_failed"]);
    expect(await notices(unclaimed.id)).toEqual([]);

    const again = await payoutsJson<SyncResult[]>(["sync"]);
    expect(again.map((result) => result.id)).not.toContain(success.id);
    expect(again.map((result) => result.id)).not.toContain(returned.id);
    expect(again.find((result) => result.id === unclaimed.id)).toMatchObject({ result: "pending" });
    expect(await notices(success.id)).toHaveLength(1);
    expect(await notices(returned.id)).toHaveLength(1);
    expect(await balance(returned.userId)).toBe(returnedBalance + 8.5);
  });

  it("export-upi writes pending UPI and bank withdrawals as CSV, quoted, with formula cells kept as text", async () => {
    const upi = await withdrawal("upi", 2.5, "payee.csv@okhdfcbank");
    const formula = '=HYPERLINK("http://evil.example","Pay, here")';
    const bank = await withdrawal("bank", 10, formula);
    const pal = await withdrawal("paypal", 5, paypalEmail());
    const exported = await payouts(["export-upi"]);
    expect(exported.code).toBe(0);
    const lines = exported.stdout.split("\r\n");
    expect(lines[0]).toBe("id,created_at,amount,method,upi_id_or_bank_details,email,amount_to_pay,currency");
    expect(lines.at(-1)).toBe("");
    const listed = await payoutsJson<Reviewed[]>(["list", "--status", "pending"]);
    const createdAt = (id: string) => listed.find((entry) => entry.id === id)!.created_at;
    // No rupee rate is set here: a UPI withdrawal is paid in dollars, as asked for.
    expect(lines).toContain(`${upi.id},${createdAt(upi.id)},2.50,upi,payee.csv@okhdfcbank,${upi.email},2.50,USD`);
    expect(lines).toContain(
      `${bank.id},${createdAt(bank.id)},10.00,bank,"'=HYPERLINK(""http://evil.example"",""Pay, here"")",${bank.email},10.00,USD`,
    );
    expect(exported.stdout).not.toContain(pal.id);
    expect(exported.stderr).toMatch(/\d+ pending UPI and bank withdrawal\(s\) to pay by hand/);
  });

  it("list and export-upi print a recipient stored with ESC[2K, ESC[8m, CR and a bidi override escaped, with no raw control byte, and still show the !! warning", async () => {
    const details = "A/C 1234\u001b[2K\u001b[8m 5678\r\nIFSC\u202e HDFC0001234";
    const first = await withdrawal("bank", 10, "A/C placeholder one");
    const second = await withdrawal("bank", 11, "A/C placeholder two");
    try {
      // Written straight into the table, as rows stored before create_withdrawal refused them are.
      await sql(
        "update withdrawals set recipient_bank_details = jsonb_build_object('details', $1::text) where id = any ($2)",
        [details, [first.id, second.id]],
      );
      const escaped = String.raw`A/C 1234\u001b[2K\u001b[8m 5678\r\nIFSC\u202e HDFC0001234`;
      // Nothing a terminal would act on: no C0 control but the line ends, no DEL, C1 or bidi control.
      // eslint-disable-next-line no-control-regex -- control characters are what it looks for
      const raw = /[\u0000-\u0009\u000b-\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

      const table = await payouts(["list", "--method", "bank"]);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).not.toMatch(raw);
      expect(table.stdout).not.toContain("\r");
      const block = table.stdout.slice(table.stdout.indexOf(first.id));
      expect(block.split("\n")[0]).toContain(escaped.slice(0, 40));
      expect(block).toContain(`    !! same address as 1 other account: ${second.userId}`);
      expect(block).toContain(`    account ${first.userId} <${first.email}>, less than a day old`);

      const exported = await payouts(["export-upi"]);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).not.toMatch(raw);
      const rows = exported.stdout.split("\r\n");
      expect(rows.find((line) => line.startsWith(first.id))).toMatch(
        new RegExp(`,10\\.00,bank,${escaped.replace(/[\\[\]]/g, "\\$&")},${first.email},10\\.00,USD$`),
      );
      expect(exported.stdout.split("\n").every((line) => line === "" || line.endsWith("\r"))).toBe(true);

      const json = await payouts(["list", "--method", "bank", "--json"]);
      expect(json.code, json.stderr).toBe(0);
      expect(json.stdout).not.toMatch(raw);
      const listed = JSON.parse(json.stdout) as (Reviewed & { recipient: string })[];
      expect(listed.find((entry) => entry.id === first.id)!.recipient).toBe(details);
    } finally {
      for (const { id } of [first, second]) await payouts(["settle", id, "failed", "--reason", "test clean-up"]);
    }
  });

  it("settle completed keeps the reference and writes one notice; a repeat changes nothing", async () => {
    const payee = await withdrawal("upi", 3, "payee.done@okaxis");
    const after = await balance(payee.userId);
    const settled = await payoutsJson<{ changed: boolean; status: string }>([
      "settle",
      payee.id,
      "completed",
      "--reference",
      "UTR 4109 2231",
    ]);
    expect(settled).toMatchObject({ id: payee.id, status: "completed", changed: true });
    expect(await row(payee.id)).toMatchObject({ status: "completed", reference: "UTR 4109 2231" });
    const repeat = await payouts(["settle", payee.id, "completed", "--reference", "another"]);
    expect(repeat.code).toBe(0);
    expect(repeat.stdout).toBe(`Withdrawal ${payee.id} was already completed: nothing changed.\n`);
    expect(await payoutsJson(["settle", payee.id, "failed"])).toMatchObject({ status: "completed", changed: false });
    expect(await row(payee.id)).toMatchObject({ status: "completed", reference: "UTR 4109 2231" });
    expect(await balance(payee.userId)).toBe(after);
    expect((await notices(payee.id)).map((notice) => notice.kind)).toEqual(["withdrawal_completed"]);
  });

  it("settle failed returns the money and writes one notice with the reason; a repeat changes nothing", async () => {
    const payee = await withdrawal("bank", 12, "HDFC 0012 3456, IFSC HDFC0000123");
    const after = await balance(payee.userId);
    const table = await payouts(["settle", payee.id, "failed", "--reason", "Account closed"]);
    expect(table.stdout).toBe(`Withdrawal ${payee.id} is now failed.\n`);
    expect(await row(payee.id)).toMatchObject({ status: "failed", failure_reason: "Account closed" });
    expect(await balance(payee.userId)).toBe(after + 12);
    expect(await payoutsJson(["settle", payee.id, "failed", "--reason", "again"])).toMatchObject({ changed: false });
    expect(await balance(payee.userId)).toBe(after + 12);
    const written = await notices(payee.id);
    expect(written.map((notice) => [notice.kind, notice.data.reason])).toEqual([
      ["withdrawal_failed", "Account closed"],
    ]);
  });

  it("settle refuses, in one line, an unknown id, a bad status, a mismatched option, and a withdrawal sent to PayPal unless --force", async () => {
    const unknown = randomUUID();
    expectOneLineError(await payouts(["settle", unknown, "completed"]), `error: No withdrawal ${unknown}`);
    const payee = await withdrawal("paypal", 5, paypalEmail());
    expectOneLineError(await payouts(["settle", payee.id, "paid"]), /Unknown status "paid"/);
    expectOneLineError(await payouts(["settle", payee.id, "completed", "--reason", "x"]), /--reason goes with failed/);
    expectOneLineError(await payouts(["settle", payee.id]), /settle takes a withdrawal id and a status/);
    await payoutsJson(["send", payee.id]);
    expectOneLineError(await payouts(["settle", payee.id, "failed"]), /was sent to PayPal .*run sync .*--force/);
    expect(await row(payee.id)).toMatchObject({ status: "pending" });
    const forced = await payoutsJson(["settle", payee.id, "completed", "--reference", "checked in PayPal", "--force"]);
    expect(forced).toMatchObject({ status: "completed", changed: true });
    expect(await notices(payee.id)).toHaveLength(1);
  });

  // ---------------------------------------------------------------------------------------------
  // The webhook

  function deliver(body: string, headers: Record<string, string> = {}, url = `${app.url}/api/paypal/webhook`) {
    return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  }

  /** A PayPal withdrawal that has been sent, as the webhook finds it. */
  async function sentWithdrawal(amount = 5) {
    const payee = await withdrawal("paypal", amount, paypalEmail());
    await payoutsJson(["send", payee.id]);
    return payee;
  }

  it("a forged or unsigned webhook is refused with 403 and changes nothing", async () => {
    const payee = await sentWithdrawal();
    const genuine = paypal.itemEvent(payee.id, "PAYMENT.PAYOUTS-ITEM.FAILED");
    const forged = { ...genuine, event_type: "PAYMENT.PAYOUTS-ITEM.SUCCEEDED" };
    const tampered = await deliver(JSON.stringify(forged), paypal.signedHeaders(genuine));
    expect(tampered.status).toBe(403);
    expect(await tampered.json()).toEqual({ success: false, error: "Invalid signature" });
    const unsigned = await deliver(JSON.stringify(forged));
    expect(unsigned.status).toBe(403);
    expect(app.stderr()).toContain("PayPal webhook refused: signature not verified");
    expect(await row(payee.id)).toMatchObject({ status: "pending", payout_status: "PENDING" });
    expect(await notices(payee.id)).toEqual([]);
  });

  it("SUCCEEDED completes the withdrawal with the payout item id; a repeat answers 200 and changes nothing", async () => {
    const payee = await sentWithdrawal();
    paypal.setItemStatus(payee.id, "SUCCESS");
    const event = paypal.itemEvent(payee.id, "PAYMENT.PAYOUTS-ITEM.SUCCEEDED");
    const first = await deliver(JSON.stringify(event), paypal.signedHeaders(event));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, withdrawal: payee.id, status: "completed", changed: true });
    const itemId = paypal.item(payee.id).payout_item_id;
    expect(await row(payee.id)).toMatchObject({ status: "completed", reference: itemId, payout_status: "SUCCESS" });

    const repeat = await deliver(JSON.stringify(event), paypal.signedHeaders(event));
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toMatchObject({ status: "completed", changed: false });
    expect((await notices(payee.id)).map((notice) => notice.kind)).toEqual(["withdrawal_completed"]);
  });

  it("FAILED fails the withdrawal and returns the money once, with PayPal's reason", async () => {
    const payee = await sentWithdrawal(9);
    const after = await balance(payee.userId);
    const event = paypal.itemEvent(payee.id, "PAYMENT.PAYOUTS-ITEM.FAILED", {
      name: "RECEIVER_ACCOUNT_LOCKED",
      message: "Receiver's account is locked",
    });
    for (let delivery = 0; delivery < 2; delivery++) {
      const response = await deliver(JSON.stringify(event), paypal.signedHeaders(event));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: "failed", changed: delivery === 0 });
    }
    expect(await row(payee.id)).toMatchObject({
      status: "failed",
      failure_reason: "PayPal could not make the payout: Receiver's account is locked",
    });
    expect(await balance(payee.userId)).toBe(after + 9);
    expect((await notices(payee.id)).map((notice) => notice.kind)).toEqual(["withdrawal_failed"]);
  });

  it("UNCLAIMED keeps the withdrawal pending and records PayPal's status", async () => {
    const payee = await sentWithdrawal();
    const event = paypal.itemEvent(payee.id, "PAYMENT.PAYOUTS-ITEM.UNCLAIMED");
    const response = await deliver(JSON.stringify(event), paypal.signedHeaders(event));
    expect(await response.json()).toEqual({ received: true, withdrawal: payee.id, status: "pending", changed: false });
    expect(await row(payee.id)).toMatchObject({ status: "pending", payout_status: "UNCLAIMED" });
    expect(await notices(payee.id)).toEqual([]);
  });

  it("an event type the app does not act on, or about a payout that is not a withdrawal, is answered 200 and ignored", async () => {
    const payee = await sentWithdrawal();
    const batchEvent = { ...paypal.itemEvent(payee.id, "PAYMENT.PAYOUTSBATCH.SUCCESS"), resource_type: "payouts" };
    const ignored = await deliver(JSON.stringify(batchEvent), paypal.signedHeaders(batchEvent));
    expect(ignored.status).toBe(200);
    expect(await ignored.json()).toEqual({ received: true, ignored: "event type" });
    const stranger = paypal.itemEvent(payee.id, "PAYMENT.PAYOUTS-ITEM.SUCCEEDED");
    stranger.resource = {
      ...stranger.resource,
      payout_item: { ...stranger.resource.payout_item, sender_item_id: randomUUID() },
    };
    const unknown = await deliver(JSON.stringify(stranger), paypal.signedHeaders(stranger));
    expect(await unknown.json()).toEqual({ received: true, ignored: "unknown withdrawal" });
    expect(await row(payee.id)).toMatchObject({ status: "pending" });
    expect(await notices(payee.id)).toEqual([]);
  });

  it("a genuine delivery whose body re-serialising would change (spacing, key order, escapes, a large number) is verified over the bytes received and settles the withdrawal", async () => {
    const payee = await sentWithdrawal();
    const event = paypal.itemEvent(payee.id, "PAYMENT.PAYOUTS-ITEM.SUCCEEDED");
    const { resource, ...rest } = event;
    // Keys in another order, indented, "é" and "/" escaped, and an id beyond double precision.
    const raw = `{\r\n  "resource" : ${JSON.stringify(resource, null, 3)},\n\t"summary": "Pay\\u00e9 \\/ done",
  "sequence": 90071992547409931234,
  ${JSON.stringify({ ...rest, summary: undefined }).slice(1, -1)}
}
`;
    expect(JSON.stringify(JSON.parse(raw))).not.toBe(raw);
    const response = await deliver(raw, paypal.signedHeaders(raw));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, withdrawal: payee.id, status: "completed", changed: true });
    expect(paypal.state.verifiedEvents.at(-1)).toBe(raw);
    expect(await row(payee.id)).toMatchObject({ status: "completed", reference: resource.payout_item_id });
  });

  it("a verified event about a UPI or bank withdrawal, a PayPal one never sent, or one sent in another batch answers 200, is logged and settles nothing", async () => {
    const sent = await sentWithdrawal();
    const template = paypal.itemEvent(sent.id, "PAYMENT.PAYOUTS-ITEM.SUCCEEDED");
    /** The same genuine event, but naming `withdrawalId` (and `batchId`). */
    const about = (withdrawalId: string, batchId = template.resource.payout_batch_id) => ({
      ...template,
      resource: {
        ...template.resource,
        payout_batch_id: batchId,
        payout_item: { ...template.resource.payout_item, sender_item_id: withdrawalId },
      },
    });
    const upi = await withdrawal("upi", 2, "payee.webhook@okaxis");
    const bank = await withdrawal("bank", 10, "HDFC 0099 8877, IFSC HDFC0000123");
    const unsent = await withdrawal("paypal", 5, paypalEmail());
    const cases = [
      { payee: upi, event: about(upi.id) },
      { payee: bank, event: about(bank.id) },
      { payee: unsent, event: about(unsent.id) },
      { payee: sent, event: about(sent.id, "ANOTHERBATCH1") },
    ];
    for (const { payee, event } of cases) {
      const before = await balance(payee.userId);
      for (const eventType of ["PAYMENT.PAYOUTS-ITEM.SUCCEEDED", "PAYMENT.PAYOUTS-ITEM.FAILED"]) {
        const typed = { ...event, event_type: eventType };
        const response = await deliver(JSON.stringify(typed), paypal.signedHeaders(typed));
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ received: true, ignored: "not sent to PayPal" });
      }
      expect(await row(payee.id)).toMatchObject({ status: "pending", reference: null, failure_reason: null });
      expect(await balance(payee.userId)).toBe(before);
      expect(await notices(payee.id)).toEqual([]);
      expect(app.stderr()).toContain(`withdrawal ${payee.id} was not sent to PayPal`);
    }
    expect((await row(unsent.id)).payout_status).toBeNull();
    expect((await row(sent.id)).payout_status).toBe("PENDING");
    for (const { payee } of cases.slice(0, 3))
      await payouts(["settle", payee.id, "failed", "--reason", "test clean-up"]);
  });

  it("a malformed body is 400, a body over 64 KB is 413 (declared or streamed), and GET is 405", async () => {
    expect((await deliver("this is not json")).status).toBe(400);
    expect((await deliver(JSON.stringify({ event_type: 5, resource: {} }))).status).toBe(400);
    expect((await deliver(JSON.stringify(["PAYMENT.PAYOUTS-ITEM.SUCCEEDED"]))).status).toBe(400);
    const oversized = JSON.stringify({
      event_type: "PAYMENT.PAYOUTS-ITEM.SUCCEEDED",
      resource: {},
      pad: "x".repeat(70_000),
    });
    const declared = await deliver(oversized);
    expect(declared.status).toBe(413);
    const streamed = await fetch(`${app.url}/api/paypal/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          for (let chunk = 0; chunk < 5; chunk++) controller.enqueue(new TextEncoder().encode("x".repeat(16_000)));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const get = await fetch(`${app.url}/api/paypal/webhook`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  // Last: it uses up this minute's allowance of genuine deliveries.
  it("unsigned and forged deliveries past the 600 a minute are refused with 403 and not counted: with one genuine delivery left in the minute, a genuine one is processed and the next refused with 429", async () => {
    const { name, limit, windowSeconds } = RATE_LIMITS.paypalWebhook;
    const key = `${name}:paypal`;
    /** The window hit_rate_limit counts in now (fixed, on whole minutes of the database's clock) and its hits. */
    const currentWindow = async () => {
      const [found] = await sql<{ start: string; hits: number }>(
        `select w.start::text as start,
                coalesce((select r.hits from rate_limit_windows r where r.key = $2 and r.window_start = w.start), 0) as hits
           from (select to_timestamp(floor(extract(epoch from now()) / $1) * $1) as start) w`,
        [windowSeconds, key],
      );
      return found!;
    };
    // The minute's count is set one short of the limit instead of reaching it with 599 deliveries,
    // which a busy machine may not send within one minute; the run is a few seconds' work, made
    // again from the next minute's top if it crosses into it (whose count starts over).
    const seen = await withinOneMinute(
      async () => {
        const payee = await sentWithdrawal();
        const event = paypal.itemEvent(payee.id, "PAYMENT.PAYOUTS-ITEM.SUCCEEDED");
        const other = paypal.itemEvent(payee.id, "PAYMENT.PAYOUTS-ITEM.FAILED");
        const ignoredEvent = { ...event, event_type: "PAYMENT.PAYOUTSBATCH.SUCCESS" };
        const { start } = await currentWindow();
        await sql(
          `insert into rate_limit_windows (key, window_start, window_seconds, hits, expires_at)
           values ($1, $2::timestamptz, $3, $4, $2::timestamptz + make_interval(secs => 2 * $3))
           on conflict (key, window_start) do update set hits = excluded.hits`,
          [key, start, windowSeconds, limit - 1],
        );
        // Unsigned ones (PayPal is not even asked), then ones signed for another event.
        const unsigned = await statusCounts(() => deliver(JSON.stringify(event)), 40);
        const forged = await statusCounts(() => deliver(JSON.stringify(event), paypal.signedHeaders(other)), 20);
        const afterRefused = await currentWindow();
        const genuine = await deliver(JSON.stringify(event), paypal.signedHeaders(event));
        const genuineResult: unknown = await genuine.json();
        const afterGenuine = await currentWindow();
        const limited = await deliver(JSON.stringify(ignoredEvent), paypal.signedHeaders(ignoredEvent));
        await limited.arrayBuffer();
        return {
          payee,
          unsigned,
          forged,
          afterRefused,
          genuine: { status: genuine.status, result: genuineResult },
          afterGenuine,
          limited: { status: limited.status, retryAfter: Number(limited.headers.get("retry-after")) },
        };
      },
      { needMs: 15_000 },
    );
    expect(seen.unsigned).toEqual({ 403: 40 });
    expect(seen.forged).toEqual({ 403: 20 });
    expect(seen.afterRefused.hits).toBe(limit - 1);
    expect(seen.genuine.status).toBe(200);
    expect(seen.genuine.result).toMatchObject({ withdrawal: seen.payee.id, status: "completed", changed: true });
    expect(seen.afterGenuine.hits).toBe(limit);
    // Genuine deliveries are limited: this one is the 601st of the minute.
    expect(seen.limited.status).toBe(429);
    expect(seen.limited.retryAfter).toBeGreaterThanOrEqual(1);
  }, 240_000);

  it("answers 503 'PayPal is not configured' on an app without PayPal credentials", async () => {
    const response = await deliver("{}", {}, `${appUrl()}/api/paypal/webhook`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ success: false, error: "PayPal is not configured" });
  });
});
