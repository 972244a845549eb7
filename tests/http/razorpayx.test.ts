import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../support/app-server";
import { ledgerAudit } from "../support/ledger-audit";
import { cashOutOf, newOperator } from "../support/console";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startRazorpayXStandIn, type RazorpayXStandIn } from "../support/razorpayx";
import { eventually } from "../support/wait";

// UPI paid by RazorpayX Payouts (issue 37, point 1; docs/decisions/088), on Postgres against a local
// RazorpayX that speaks its protocol: each approved UPI cash-out becomes one payout whatever fails
// (5xx, a dropped answer, a payout made and its answer lost), webhooks are believed only with their
// signature and applied once and never backwards, a lost webhook is made up by the read-back, and
// nothing RazorpayX pays is handed out to be paid by hand too.

const RATE = 83.25;

async function railApp(standIn: RazorpayXStandIn, env: Record<string, string> = {}) {
  const app = await startPostgresApp({ ...standIn.env, RAZORPAYX_INTERVAL_SECONDS: "1", ...env });
  await app.sql(
    "select apply_app_config_patch(jsonb_build_object('usd_inr_rate', $1::numeric), 'Ana Owner', null, 'test')",
    [RATE],
  );
  return app;
}

const row = async (app: PostgresApp, id: string) =>
  (
    await app.sql<{
      status: string;
      reference: string | null;
      payout_status: string | null;
      failure_reason: string | null;
      payout_batch_id: string | null;
    }>("select status, reference, payout_status, failure_reason, payout_batch_id from withdrawals where id = $1", [id])
  )[0]!;
const balanceOf = async (app: PostgresApp, userId: string) =>
  Number(
    (await app.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [userId]))[0]!.balance,
  );

describe("RazorpayX pays UPI cash-outs, settled by its signed webhooks", () => {
  let razorpayx: RazorpayXStandIn;
  let app: PostgresApp;

  beforeAll(async () => {
    razorpayx = await startRazorpayXStandIn();
    // Read-backs only after an hour: here the webhooks settle.
    app = await railApp(razorpayx, { RAZORPAYX_SETTLE_AFTER_MINUTES: "60" });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await razorpayx?.close();
  });

  const paidOnce = (id: string) =>
    eventually(() => (razorpayx.payoutsFor(id).length === 1 ? razorpayx.payoutsFor(id)[0] : undefined), {
      what: `the payout of ${id}`,
    });

  it("an approved UPI cash-out is one composite payout in paise with the withdrawal id as idempotency key and reference; processed pays it with its UTR", async () => {
    const person = await cashOutOf(app, 5, { method: "upi", upiId: "payee@okaxis" });
    const payout = await paidOnce(person.id);
    const create = razorpayx.requests.find((request) => request.method === "POST" && request.body.includes(person.id))!;
    expect(create.headers["x-payout-idempotency"]).toBe(person.id);
    expect(JSON.parse(create.body)).toEqual({
      account_number: razorpayx.env.RAZORPAYX_ACCOUNT_NUMBER,
      amount: 41625,
      currency: "INR",
      mode: "UPI",
      purpose: "payout",
      fund_account: {
        account_type: "vpa",
        vpa: { address: "payee@okaxis" },
        contact: { name: "Rewards member", type: "customer", reference_id: person.uid },
      },
      queue_if_low_balance: true,
      reference_id: person.id,
      narration: "Rewards cash out",
    });
    await eventually(async () => (await row(app, person.id)).payout_batch_id === payout.id, {
      what: "the payout recorded",
    });
    // On its way: the person reads "Sending".
    expect((await person.client.visit("/withdraw?history=1")).html).toContain('data-testid="money-state">Sending<');

    const processed = razorpayx.advance(payout.id, "processed");
    const answer = await razorpayx.deliver(app.url, "payout.processed", processed);
    expect(answer).toMatchObject({ status: 200, body: { withdrawal: person.id, status: "completed", changed: true } });
    expect(await row(app, person.id)).toMatchObject({
      status: "completed",
      reference: processed.utr,
      payout_status: "processed",
    });
    const history = (await person.client.visit("/withdraw?history=1")).html;
    expect(history).toContain("₹416.25 sent");
    expect(history).toContain(`Bank reference (UTR) ${processed.utr}`);
    // Delivered again, and an older status arriving late: nothing moves.
    expect((await razorpayx.deliver(app.url, "payout.processed", processed)).body).toMatchObject({ changed: false });
    const late = { ...processed, status: "queued" };
    expect((await razorpayx.deliver(app.url, "payout.queued", late)).body).toMatchObject({
      status: "completed",
      changed: false,
    });
    expect(await row(app, person.id)).toMatchObject({ status: "completed", payout_status: "processed" });
    const notices = await app.sql<{ kind: string }>(
      "select kind from user_notices where user_id = $1 and kind like 'withdrawal_%'",
      [person.uid],
    );
    expect(notices).toEqual([{ kind: "withdrawal_completed" }]);
  });

  it("a reversal gives the money back once, with a notice that says why; repeats change nothing", async () => {
    const person = await cashOutOf(app, 3, { method: "upi", upiId: "reversed@okicici" });
    const payout = await paidOnce(person.id);
    await eventually(async () => (await row(app, person.id)).payout_batch_id === payout.id, {
      what: "the payout recorded",
    });
    const before = await balanceOf(app, person.uid);
    const reversed = razorpayx.advance(payout.id, "reversed", { description: "Beneficiary bank was offline." });
    for (let delivery = 0; delivery < 3; delivery++)
      expect((await razorpayx.deliver(app.url, "payout.reversed", reversed)).status).toBe(200);
    expect(await row(app, person.id)).toMatchObject({
      status: "failed",
      failure_reason: "The bank returned the UPI payout: Beneficiary bank was offline.",
    });
    expect(await balanceOf(app, person.uid)).toBe(before + 3);
    const [notice] = await app.sql<{ data: { reason: string } }>(
      "select data from user_notices where user_id = $1 and kind = 'withdrawal_failed'",
      [person.uid],
    );
    expect(notice!.data.reason).toBe("The bank returned the UPI payout: Beneficiary bank was offline.");
    // processed arriving after the reversal (out of order) cannot pay it.
    const processed = { ...reversed, status: "processed", utr: "UTRLATE" };
    expect((await razorpayx.deliver(app.url, "payout.processed", processed)).body).toMatchObject({ changed: false });
    expect((await row(app, person.id)).status).toBe("failed");
    expect(await balanceOf(app, person.uid)).toBe(before + 3);
  });

  it("a webhook without the right signature, or signed with another secret, is refused before anything is read", async () => {
    const person = await cashOutOf(app, 2, { method: "upi", upiId: "forged@okaxis" });
    const payout = await paidOnce(person.id);
    await eventually(async () => (await row(app, person.id)).payout_batch_id === payout.id, {
      what: "the payout recorded",
    });
    const processed = { ...payout, status: "processed", utr: "UTRFORGED" };
    expect((await razorpayx.deliver(app.url, "payout.processed", processed, "another-secret")).status).toBe(403);
    const unsigned = await fetch(new URL("/api/razorpayx/webhook", app.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ event: "payout.processed", payload: { payout: { entity: processed } } }),
    });
    expect(unsigned.status).toBe(403);
    expect((await row(app, person.id)).status).toBe("pending");
  });

  it("a UPI ID the network does not know fails the cash-out, and one RazorpayX refuses is never paid: both give the money back with the reason", async () => {
    const unknown = await cashOutOf(app, 2, { method: "upi", upiId: "unknown.person@okaxis" });
    await eventually(async () => (await row(app, unknown.id)).status === "failed", {
      what: "the failed payout applied",
    });
    expect((await row(app, unknown.id)).failure_reason).toBe("The UPI payout failed: The beneficiary VPA is invalid.");
    expect(await balanceOf(app, unknown.uid)).toBe(2);

    const refused = await cashOutOf(app, 2, { method: "upi", upiId: "refused.person@okaxis" });
    await eventually(async () => (await row(app, refused.id)).status === "failed", { what: "the refusal applied" });
    expect(await row(app, refused.id)).toMatchObject({
      failure_reason: "RazorpayX refused the UPI payout: Invalid VPA. Please enter a valid Virtual Payment Address",
      payout_batch_id: null,
    });
    expect(razorpayx.payoutsFor(refused.id)).toHaveLength(0);
    expect(await balanceOf(app, refused.uid)).toBe(2);
    const [notice] = await app.sql<{ kind: string }>(
      "select kind from user_notices where user_id = $1 and kind like 'withdrawal_%'",
      [refused.uid],
    );
    expect(notice).toEqual({ kind: "withdrawal_failed" });
  });

  it("5xx answers and dropped connections are tried again with the same key and body: one payout", async () => {
    razorpayx.failNext(2, "http500", /^\/v1\/payouts$/);
    razorpayx.failNext(2, "drop", /^\/v1\/payouts$/);
    const person = await cashOutOf(app, 4, { method: "upi", upiId: "retry@okaxis" });
    const payout = await paidOnce(person.id);
    await eventually(async () => (await row(app, person.id)).payout_batch_id === payout.id, {
      what: "the payout recorded",
    });
    const creates = razorpayx.requests.filter(
      (request) => request.method === "POST" && request.body.includes(person.id),
    );
    expect(creates.length).toBeGreaterThanOrEqual(5);
    expect(new Set(creates.map((request) => request.headers["x-payout-idempotency"]))).toEqual(new Set([person.id]));
    expect(new Set(creates.map((request) => request.body)).size).toBe(1);
    expect(razorpayx.payoutsFor(person.id)).toHaveLength(1);
  });

  it("a payout made whose answer was lost (a crash between the call and the write) is recorded by the next attempt, and made once", async () => {
    razorpayx.failNext(1, "made-then-drop", /^\/v1\/payouts$/);
    // The next attempts of this run are dropped too, as if the server had gone down.
    razorpayx.failNext(2, "drop", /^\/v1\/payouts$/);
    const person = await cashOutOf(app, 6, { method: "upi", upiId: "crash@okaxis" });
    const payout = await paidOnce(person.id);
    await eventually(async () => (await row(app, person.id)).payout_batch_id === payout.id, {
      what: "the payout recorded",
    });
    expect(razorpayx.payoutsFor(person.id)).toHaveLength(1);
  });

  it("by hand, a cash-out RazorpayX pays cannot be settled, and the CSV to pay by hand leaves it out", async () => {
    const person = await cashOutOf(app, 2, { method: "upi", upiId: "hand@okaxis" });
    await paidOnce(person.id);
    const finance = await newOperator(app, "finance");
    const refused = await finance.client.post(`/admin/withdrawals/${person.id}`, {
      intent: "mark-paid",
      reference: "UTRHAND",
    });
    expect(refused.status).not.toBe(500);
    expect((await row(app, person.id)).status).toBe("pending");
    const csv = await (await finance.client.post("/admin/withdrawals.csv", {})).text();
    expect(csv).not.toContain(person.id);
  });
});

describe("RazorpayX's read-back settles what no webhook told", () => {
  let razorpayx: RazorpayXStandIn;
  let app: PostgresApp;

  beforeAll(async () => {
    // Too little balance: payouts are queued. Read back at every run.
    razorpayx = await startRazorpayXStandIn({ balancePaise: 0 });
    app = await railApp(razorpayx, { RAZORPAYX_SETTLE_AFTER_MINUTES: "0" });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await razorpayx?.close();
  });

  it("a payout queued for low balance is Sending to the person and queued to the operator, then paid from the read-back alone", async () => {
    const person = await cashOutOf(app, 5, { method: "upi", upiId: "queued@okaxis" });
    await eventually(async () => (await row(app, person.id)).payout_status === "queued", { what: "the queued payout" });
    expect((await person.client.visit("/withdraw?history=1")).html).toContain('data-testid="money-state">Sending<');
    const [payout] = razorpayx.payoutsFor(person.id);
    const finance = await newOperator(app, "finance");
    const console = (await finance.client.visit(`/admin/withdrawals/${person.id}`)).html;
    expect(console).toContain("With RazorpayX");
    expect(console).toContain(`payout ${payout!.id}, queued`);
    expect(console).toMatch(/data-testid="payout-event"[^>]*>.*?queued.*?its answer/s);
    // Nothing to settle by hand while RazorpayX holds it.
    expect(console).not.toContain("Mark paid");
    expect(console).toContain(
      "RazorpayX has this payout: its webhook (or its read-back, every few minutes) settles it.",
    );
    expect(console).not.toContain("PayPal has this payout");
    razorpayx.advance(payout!.id, "processed");
    await eventually(async () => (await row(app, person.id)).status === "completed", {
      what: "paid from the read-back",
    });
    const events = await app.sql<{ status: string; source: string }>(
      "select status, source from payout_events where withdrawal_id = $1 order by id",
      [person.id],
    );
    expect(events).toEqual([
      { status: "queued", source: "create" },
      { status: "processed", source: "reconciler" },
    ]);
    expect(razorpayx.payoutsFor(person.id)).toHaveLength(1);
  });
});

describe("two servers and their read-backs paying and settling the same UPI cash-outs on one Postgres", () => {
  let razorpayx: RazorpayXStandIn;
  let a: PostgresApp;
  let b: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    razorpayx = await startRazorpayXStandIn();
    // Both pay every second and read back every unsettled payout at every run.
    a = await railApp(razorpayx, { RAZORPAYX_SETTLE_AFTER_MINUTES: "0" });
    b = await startTestApp({
      DATABASE_URL: a.scratchUrl,
      ...razorpayx.env,
      RAZORPAYX_INTERVAL_SECONDS: "1",
      RAZORPAYX_SETTLE_AFTER_MINUTES: "0",
    });
  }, 180_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await razorpayx?.close();
  });

  it("each cash-out is one payout and is settled once: one notice, the money out once, the ledger clean", async () => {
    const people = await Promise.all(
      Array.from({ length: 12 }, (_, index) => cashOutOf(a, 2, { method: "upi", upiId: `race${index}@okaxis` })),
    );
    await eventually(() => people.every((person) => razorpayx.payoutsFor(person.id).length > 0), {
      what: "every cash-out paid",
      timeoutMs: 30_000,
    });
    // Half paid, half reversed; each webhook delivered to both servers at once, twice, while the
    // read-backs of both servers learn the same.
    await Promise.all(
      people.map(async (person, index) => {
        const [payout] = razorpayx.payoutsFor(person.id);
        const status = index % 2 === 0 ? "processed" : "reversed";
        const moved = razorpayx.advance(payout!.id, status);
        await Promise.all([a.url, b.url, a.url, b.url].map((url) => razorpayx.deliver(url, `payout.${status}`, moved)));
      }),
    );
    await eventually(
      async () =>
        (
          await a.sql<{ n: number }>(
            "select count(*)::int as n from withdrawals where id = any($1::uuid[]) and status = 'pending'",
            [people.map((person) => person.id)],
          )
        )[0]!.n === 0,
      { what: "every cash-out settled", timeoutMs: 30_000 },
    );
    for (const [index, person] of people.entries()) {
      expect(razorpayx.payoutsFor(person.id), person.id).toHaveLength(1);
      const notices = await a.sql<{ kind: string }>(
        "select kind from user_notices where user_id = $1 and kind like 'withdrawal_%'",
        [person.uid],
      );
      expect(notices).toEqual([{ kind: index % 2 === 0 ? "withdrawal_completed" : "withdrawal_failed" }]);
      // Paid: $2 out; reversed: refunded once, back to the $2 given.
      expect(await balanceOf(a, person.uid)).toBe(index % 2 === 0 ? 0 : 2);
    }
    expect((await ledgerAudit(a.sql)).problems).toEqual([]);
  });

  it("a server with RazorpayX but no webhook secret believes no webhook (503), whatever it carries", async () => {
    const c = await startTestApp({
      DATABASE_URL: a.scratchUrl,
      ...razorpayx.env,
      RAZORPAYX_WEBHOOK_SECRET: "",
      RAZORPAYX_INTERVAL_SECONDS: "3600",
    });
    try {
      const person = await cashOutOf(a, 2, { method: "upi", upiId: "nosecret@okaxis" });
      const payout = await eventually(() => razorpayx.payoutsFor(person.id)[0], { what: "the payout" });
      const answer = await razorpayx.deliver(c.url, "payout.processed", razorpayx.advance(payout.id, "processed"));
      expect(answer.status).toBe(503);
    } finally {
      await c.stop();
    }
  });
});

describe("with RAZORPAYX_VALIDATE_UPI, a UPI ID is checked with RazorpayX before its first payout", () => {
  let razorpayx: RazorpayXStandIn;
  let app: PostgresApp;

  beforeAll(async () => {
    razorpayx = await startRazorpayXStandIn();
    app = await railApp(razorpayx, { RAZORPAYX_VALIDATE_UPI: "true", RAZORPAYX_SETTLE_AFTER_MINUTES: "60" });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await razorpayx?.close();
  });

  it("a UPI ID that does not exist is never paid: the person reads why, and the money is back in their balance", async () => {
    const person = await cashOutOf(app, 3, { method: "upi", upiId: "ghost.person@okaxis" });
    await eventually(async () => (await row(app, person.id)).status === "failed", { what: "the refusal" });
    expect((await row(app, person.id)).failure_reason).toBe(
      "This UPI ID does not exist. Check it and ask for the cash-out again: the money is back in your balance.",
    );
    expect(razorpayx.payoutsFor(person.id)).toHaveLength(0);
    expect(await balanceOf(app, person.uid)).toBe(3);
    expect((await person.client.visit("/withdraw?history=1")).html).toContain("This UPI ID does not exist.");
  });

  it("an existing UPI ID is checked once, its registered name shown to the operator beside the account's, then paid; the next cash-out to it is not checked again", async () => {
    const person = await cashOutOf(app, 2, { method: "upi", upiId: "asha.verma@okaxis" });
    await eventually(() => razorpayx.payoutsFor(person.id).length === 1, { what: "the payout" });
    const finance = await newOperator(app, "finance");
    const page = (await finance.client.visit(`/admin/withdrawals/${person.id}`)).html;
    expect(page).toMatch(/Registered to Asha Verma; the account&#x27;s name is [^<]+/);
    const again = await cashOutOf(app, 2, { method: "upi", upiId: "asha.verma@okaxis" }, person);
    await eventually(() => razorpayx.payoutsFor(again.id).length === 1, { what: "the second payout" });
    expect(razorpayx.validationCalls.filter((address) => address === "asha.verma@okaxis")).toHaveLength(1);
  });

  it("a check the bank answers later waits: nothing is paid until it is read back as existing", async () => {
    const person = await cashOutOf(app, 2, { method: "upi", upiId: "slow.bank@okaxis" });
    await eventually(() => razorpayx.payoutsFor(person.id).length === 1, {
      what: "the payout once the check came back",
    });
    const [validation] = await app.sql<{ status: string; registered_name: string }>(
      "select status, registered_name from upi_validations where address = 'slow.bank@okaxis'",
    );
    expect(validation).toEqual({ status: "completed", registered_name: "Asha Verma" });
    // Asked once, then read back (never asked twice while it waited).
    expect(razorpayx.validationCalls.filter((address) => address === "slow.bank@okaxis")).toHaveLength(1);
  });
});
