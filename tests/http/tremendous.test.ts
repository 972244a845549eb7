import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../support/app-server";
import { ledgerAudit } from "../support/ledger-audit";
import { cashOutOf, newOperator } from "../support/console";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startTremendousStandIn, TREMENDOUS_WEBHOOK_PRIVATE_KEY, type TremendousStandIn } from "../support/tremendous";
import { HttpClient } from "../support/http";
import { eventually } from "../support/wait";

// Gift cards through Tremendous (issue 37, point 2; docs/decisions/089), on Postgres against a
// local Tremendous that speaks its protocol: the catalogue read and offered by country, each
// approved gift card cash-out one order whose external_id is the withdrawal id whatever fails (5xx,
// 429, a dropped answer, an order made and its answer lost), webhooks believed only with their
// signature and applied once and never backwards, a bounced card cancelled before the money comes
// back, and a lost webhook made up by the read-back.

const RATE = 80;

async function giftCardApp(standIn: TremendousStandIn, env: Record<string, string> = {}) {
  const app = await startPostgresApp({ ...standIn.env, TREMENDOUS_INTERVAL_SECONDS: "1", ...env });
  await app.sql(
    "select apply_app_config_patch(jsonb_build_object('usd_inr_rate', $1::numeric), 'Ana Owner', null, 'test')",
    [RATE],
  );
  // The catalogue is read when the server starts.
  await eventually(
    async () => (await app.sql<{ n: number }>("select count(*)::int as n from giftcard_products"))[0]!.n > 0,
    { what: "the catalogue read" },
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
      payout_item_id: string | null;
    }>(
      "select status, reference, payout_status, failure_reason, payout_batch_id, payout_item_id from withdrawals where id = $1",
      [id],
    )
  )[0]!;
const balanceOf = async (app: PostgresApp, userId: string) =>
  Number(
    (await app.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [userId]))[0]!.balance,
  );
const giftCard = (product: string) => ({ method: "giftcard", giftcardProduct: product });

describe("Tremendous sells gift cards, settled by its signed webhooks", () => {
  let tremendous: TremendousStandIn;
  let app: PostgresApp;

  beforeAll(async () => {
    tremendous = await startTremendousStandIn();
    // Read-backs only after an hour: here the webhooks settle.
    app = await giftCardApp(tremendous, { TREMENDOUS_SETTLE_AFTER_MINUTES: "60" });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await tremendous?.close();
  });

  const orderedOnce = (id: string) =>
    eventually(() => (tremendous.ordersFor(id).length === 1 ? tremendous.ordersFor(id)[0] : undefined), {
      what: `the order of ${id}`,
      timeoutMs: 30_000,
    });
  const recorded = (id: string, orderId: string) =>
    eventually(async () => (await row(app, id)).payout_batch_id === orderId, { what: "the order recorded" });

  it("Withdraw offers Gift card with the cards of the person's country and the amounts each takes, another country one link away", async () => {
    const person = await cashOutOf(app, 5, { method: "paypal", paypalEmail: "pp@example.com" });
    const page = (await person.client.visit("/withdraw")).html;
    expect(page).toContain('value="giftcard"');
    expect(page).toContain("Gift card (United States)");
    expect(page).toContain("Amazon.com");
    expect(page).toContain("$1.00 to $2,000.00");
    expect(page).toContain("$25.00");
    expect(page).not.toContain("Zalando");
    expect(page).not.toContain("Broken card");
    expect(page).toContain('href="/withdraw?country=IN"');
    const india = (await person.client.visit("/withdraw?country=IN")).html;
    expect(india).toContain("Gift card (India)");
    expect(india).toContain("Amazon.in");
    expect(india).toContain("₹100.00 to ₹10,000.00");
    expect(india).not.toContain("Amazon.com");
  });

  it("a gift card cash-out is one order with the withdrawal id as external_id, emailed to the verified address; delivery pays it", async () => {
    const person = await cashOutOf(app, 5, giftCard("AMZNUS000001"));
    const order = await orderedOnce(person.id);
    const create = tremendous.requests.find(
      (request) => request.method === "POST" && request.body.includes(person.id),
    )!;
    expect(create.headers.authorization).toBe(`Bearer ${tremendous.env.TREMENDOUS_API_KEY}`);
    expect(JSON.parse(create.body)).toEqual({
      external_id: person.id,
      payment: { funding_source_id: "balance" },
      reward: {
        products: ["AMZNUS000001"],
        value: { denomination: 5, currency_code: "USD" },
        recipient: { name: expect.any(String), email: person.email },
        delivery: { method: "EMAIL" },
      },
    });
    await recorded(person.id, order.id);
    expect(await row(app, person.id)).toMatchObject({
      payout_status: "scheduled",
      payout_item_id: order.rewards[0]!.id,
    });
    expect((await person.client.visit("/withdraw?history=1")).html).toContain('data-testid="money-state">Sending<');

    tremendous.advance(order.id, "SUCCEEDED");
    const reward = { id: order.rewards[0]!.id, type: "rewards" as const };
    const answer = await tremendous.deliver(app.url, "REWARDS.DELIVERY.SUCCEEDED", reward);
    expect(answer).toMatchObject({ status: 200, body: { withdrawal: person.id, status: "completed", changed: true } });
    expect(await row(app, person.id)).toMatchObject({ status: "completed", reference: order.id });
    const history = (await person.client.visit("/withdraw?history=1")).html;
    expect(history).toContain("Your Amazon.com gift card was emailed to your verified address.");
    expect(history).toContain(`Tremendous order ${order.id}`);
    // Delivered again, and a cancellation arriving late: nothing moves.
    expect((await tremendous.deliver(app.url, "REWARDS.DELIVERY.SUCCEEDED", reward)).body).toMatchObject({
      changed: false,
    });
    expect((await tremendous.deliver(app.url, "REWARDS.CANCELED", reward)).body).toMatchObject({
      status: "completed",
      changed: false,
    });
    const notices = await app.sql<{ kind: string }>(
      "select kind from user_notices where user_id = $1 and kind like 'withdrawal_%'",
      [person.uid],
    );
    expect(notices).toEqual([{ kind: "withdrawal_completed" }]);
  });

  it("a card in rupees is ordered at the value fixed when it was asked for", async () => {
    const person = await cashOutOf(app, 5, giftCard("AMZNIN000001"));
    await orderedOnce(person.id);
    const create = tremendous.requests.find(
      (request) => request.method === "POST" && request.body.includes(person.id),
    )!;
    expect(JSON.parse(create.body).reward.value).toEqual({ denomination: 400, currency_code: "INR" });
    expect((await person.client.visit("/withdraw?history=1")).html).toContain("A ₹400.00 card");
  });

  it("a bounced email: the card is cancelled at Tremendous, then the money comes back once with the reason and a notice", async () => {
    const person = await cashOutOf(app, 3, giftCard("AMZNUS000001"));
    const order = await orderedOnce(person.id);
    await recorded(person.id, order.id);
    tremendous.advance(order.id, "FAILED");
    const reward = { id: order.rewards[0]!.id, type: "rewards" as const };
    const failed = await tremendous.deliver(app.url, "REWARDS.DELIVERY.FAILED", reward, {
      failure_reason: "invalid_email",
      retryable: false,
    });
    expect(failed.body).toMatchObject({ status: "pending", changed: true });
    await eventually(async () => (await row(app, person.id)).status === "failed", {
      what: "the cancelled card refunded",
      timeoutMs: 20_000,
    });
    expect(tremendous.canceled(reward.id)).toBe(true);
    expect((await row(app, person.id)).failure_reason).toBe(
      "The gift card could not be delivered to your email (invalid email)",
    );
    expect(await balanceOf(app, person.uid)).toBe(3);
    // Tremendous's own REWARDS.CANCELED arrives after: nothing more comes back.
    expect((await tremendous.deliver(app.url, "REWARDS.CANCELED", reward)).body).toMatchObject({ changed: false });
    expect(await balanceOf(app, person.uid)).toBe(3);
    const [notice] = await app.sql<{ data: { reason: string } }>(
      "select data from user_notices where user_id = $1 and kind = 'withdrawal_failed'",
      [person.uid],
    );
    expect(notice!.data.reason).toBe("The gift card could not be delivered to your email (invalid email)");
  });

  it("a webhook without the right signature is refused before anything is read: none, another key, another algorithm, a changed body", async () => {
    const person = await cashOutOf(app, 2, giftCard("AMZNUS000001"));
    const order = await orderedOnce(person.id);
    await recorded(person.id, order.id);
    const body = JSON.stringify({
      event: "REWARDS.DELIVERY.SUCCEEDED",
      uuid: "forged",
      created_utc: new Date().toISOString(),
      payload: { resource: { id: order.rewards[0]!.id, type: "rewards" }, meta: {} },
    });
    const sign = (key: string, text = body) => createHmac("sha256", key).update(text).digest("hex");
    for (const signature of [
      null,
      "",
      `sha256=${sign("another-key")}`,
      `sha1=${createHmac("sha1", TREMENDOUS_WEBHOOK_PRIVATE_KEY).update(body).digest("hex")}`,
      sign(TREMENDOUS_WEBHOOK_PRIVATE_KEY),
      `sha256=${sign(TREMENDOUS_WEBHOOK_PRIVATE_KEY, body.replace("forged", "changed"))}`,
    ]) {
      const response = await fetch(new URL("/api/tremendous/webhook", app.url), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(signature === null ? {} : { "tremendous-webhook-signature": signature }),
        },
        body,
      });
      expect(response.status, String(signature)).toBe(401);
    }
    expect((await row(app, person.id)).status).toBe("pending");
    expect(
      await app.sql("select 1 from payout_events where withdrawal_id = $1 and source = 'webhook'", [person.id]),
    ).toEqual([]);
  });

  it("5xx, 429 and dropped answers are tried again with the same external_id and body: one order", async () => {
    tremendous.failNext(1, "http500", /^\/orders$/);
    tremendous.failNext(1, "http429", /^\/orders$/);
    tremendous.failNext(2, "drop", /^\/orders$/);
    const person = await cashOutOf(app, 4, giftCard("AMZNUS000001"));
    const order = await orderedOnce(person.id);
    await recorded(person.id, order.id);
    const creates = tremendous.requests.filter(
      (request) => request.method === "POST" && request.path === "/orders" && request.body.includes(person.id),
    );
    expect(creates.length).toBeGreaterThanOrEqual(5);
    expect(new Set(creates.map((request) => request.body)).size).toBe(1);
    expect(tremendous.ordersFor(person.id)).toHaveLength(1);
  });

  it("an order made whose answer was lost (a crash between the call and the write) is recorded by the next attempt, and made once", async () => {
    tremendous.failNext(1, "made-then-drop", /^\/orders$/);
    tremendous.failNext(2, "drop", /^\/orders$/);
    const person = await cashOutOf(app, 6, giftCard("AMZNUS000001"));
    const order = await orderedOnce(person.id);
    await recorded(person.id, order.id);
    // The repeat was answered 201 with the first order: still one.
    expect(tremendous.requests.some((request) => request.path === "/orders" && request.status === 201)).toBe(true);
    expect(tremendous.ordersFor(person.id)).toHaveLength(1);
  });

  it("a card or amount the catalogue does not offer is refused on its field, and nothing changes", async () => {
    const person = await cashOutOf(app, 5, { method: "paypal", paypalEmail: "pp2@example.com" });
    await app.sql("select add_user_coins($1, 1000)", [person.uid]);
    const before = await balanceOf(app, person.uid);
    const euro = await person.client.post("/withdraw", {
      intent: "withdraw",
      amount: "5",
      ...giftCard("ZALANDO00001"),
    });
    expect(euro.status).toBe(400);
    expect(await euro.text()).toContain("Please choose a gift card from the list");
    const visa = await person.client.post("/withdraw", {
      intent: "withdraw",
      amount: "5",
      ...giftCard("VISA25000001"),
    });
    expect(visa.status).toBe(400);
    expect(await visa.text()).toContain("This card comes in $25.00.");
    expect(await balanceOf(app, person.uid)).toBe(before);
  });

  it("by hand, a gift card cannot be marked paid, nor failed once Tremendous has it", async () => {
    const person = await cashOutOf(app, 2, giftCard("AMZNUS000001"));
    await orderedOnce(person.id);
    const finance = await newOperator(app, "finance");
    const page = (await finance.client.visit(`/admin/withdrawals/${person.id}`)).html;
    expect(page).toContain("Amazon.com gift card ($2.00), emailed to");
    expect(page).toContain("With Tremendous");
    expect(page).not.toContain("Mark paid");
    for (const intent of ["mark-paid", "mark-failed"]) {
      const refused = await finance.client.post(`/admin/withdrawals/${person.id}`, {
        intent,
        reference: "BYHAND",
        reason: "by hand",
      });
      expect(refused.status).not.toBe(500);
    }
    expect((await row(app, person.id)).status).toBe("pending");
  });
});

describe("Tremendous's read-back and two servers settling the same gift cards on one Postgres", () => {
  let tremendous: TremendousStandIn;
  let a: PostgresApp;
  let b: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    tremendous = await startTremendousStandIn();
    // Both order every second and read back every unsettled order at every run.
    a = await giftCardApp(tremendous, { TREMENDOUS_SETTLE_AFTER_MINUTES: "0" });
    b = await startTestApp({
      DATABASE_URL: a.scratchUrl,
      ...tremendous.env,
      TREMENDOUS_INTERVAL_SECONDS: "1",
      TREMENDOUS_SETTLE_AFTER_MINUTES: "0",
    });
  }, 180_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await tremendous?.close();
  });

  it("each cash-out is one order and is settled once, by webhooks to both servers and both read-backs: one notice, the ledger clean", async () => {
    const people = await Promise.all(
      Array.from({ length: 8 }, () => cashOutOf(a, 2, { method: "giftcard", giftcardProduct: "AMZNUS000001" })),
    );
    await eventually(() => people.every((person) => tremendous.ordersFor(person.id).length > 0), {
      what: "every card ordered",
      timeoutMs: 30_000,
    });
    // Half delivered, half bounced (then cancelled); each webhook to both servers at once, twice,
    // while both servers read the orders back.
    await Promise.all(
      people.map(async (person, index) => {
        const [order] = tremendous.ordersFor(person.id);
        const delivered = index % 2 === 0;
        tremendous.advance(order!.id, delivered ? "SUCCEEDED" : "FAILED");
        const event = delivered ? "REWARDS.DELIVERY.SUCCEEDED" : "REWARDS.DELIVERY.FAILED";
        await Promise.all(
          [a.url, b.url, a.url, b.url].map((url) =>
            tremendous.deliver(url, event, { id: order!.rewards[0]!.id, type: "rewards" }),
          ),
        );
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
      expect(tremendous.ordersFor(person.id), person.id).toHaveLength(1);
      const notices = await a.sql<{ kind: string }>(
        "select kind from user_notices where user_id = $1 and kind like 'withdrawal_%'",
        [person.uid],
      );
      expect(notices).toEqual([{ kind: index % 2 === 0 ? "withdrawal_completed" : "withdrawal_failed" }]);
      expect(await balanceOf(a, person.uid)).toBe(index % 2 === 0 ? 0 : 2);
    }
    expect((await ledgerAudit(a.sql)).problems).toEqual([]);
  });

  it("an order no webhook told about is paid from the read-back alone", async () => {
    const person = await cashOutOf(a, 5, { method: "giftcard", giftcardProduct: "TARGET000001" });
    const order = await eventually(() => tremendous.ordersFor(person.id)[0], { what: "the order" });
    tremendous.advance(order.id, "SUCCEEDED");
    await eventually(async () => (await row(a, person.id)).status === "completed", {
      what: "paid from the read-back",
      timeoutMs: 20_000,
    });
    const events = await a.sql<{ status: string; source: string }>(
      "select status, source from payout_events where withdrawal_id = $1 order by id",
      [person.id],
    );
    expect(events).toEqual([
      { status: "scheduled", source: "create" },
      { status: "delivered", source: "reconciler" },
    ]);
  });

  it("a server without Tremendous offers no gift card, refuses one posted, and one with Tremendous but no webhook key believes no webhook (503)", async () => {
    const plain = await startTestApp({ DATABASE_URL: a.scratchUrl });
    const noKey = await startTestApp({
      DATABASE_URL: a.scratchUrl,
      ...tremendous.env,
      TREMENDOUS_WEBHOOK_PRIVATE_KEY: "",
      TREMENDOUS_INTERVAL_SECONDS: "3600",
    });
    try {
      const person = await cashOutOf(a, 5, { method: "paypal", paypalEmail: "plain@example.com" });
      await a.sql("select add_user_coins($1, 500)", [person.uid]);
      // The same session, at the other server (one Firebase project, one database).
      const client = new HttpClient(plain.url);
      for (const [name, value] of person.client.cookies) client.cookies.set(name, value);
      expect((await client.visit("/withdraw")).html).not.toContain('value="giftcard"');
      const refused = await client.post("/withdraw", { intent: "withdraw", amount: "2", ...giftCard("AMZNUS000001") });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("Please choose a gift card from the list");
      const answer = await tremendous.deliver(noKey.url, "REWARDS.DELIVERY.SUCCEEDED", { id: "ANY", type: "rewards" });
      expect(answer.status).toBe(503);
    } finally {
      await plain.stop();
      await noKey.stop();
    }
  });
});
