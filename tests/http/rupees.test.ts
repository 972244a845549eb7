import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cashOutOf, newMember, newOperator } from "../support/console";
import { startHttpStandIn } from "../support/stand-in";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { eventually } from "../support/wait";

// Rupees for UPI users (issue 37, point 3; docs/decisions/087) over plain HTTP: Withdraw shows the
// rupees beside the dollars when UPI is chosen and the UPI minimum in both; the rupees fixed at
// request time are what the history, the console and the CSV say to pay; the rates endpoint's
// rate is applied only near the owner's.
describe("rupees for UPI users over plain HTTP", () => {
  let app: PostgresApp;
  let answer: unknown = { base: "USD", date: "2026-11-27", rates: { INR: 83.25 } };
  let rates: Awaited<ReturnType<typeof startHttpStandIn>>;

  beforeAll(async () => {
    rates = await startHttpStandIn((exchange) => exchange.json(200, answer));
    app = await startPostgresApp({
      INR_RATE_URL: `${rates.url}/v1/latest?base=USD&symbols=INR`,
      INR_RATE_INTERVAL_SECONDS: "1",
    });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await rates?.close();
  });

  /** The owner's rate, as Settings sets it (dated, the endpoint's anchor). */
  const ownerRate = (rate: number | null) =>
    app.sql(
      "select apply_app_config_patch(jsonb_build_object('usd_inr_rate', $1::numeric), 'Ana Owner', null, 'test')",
      [rate],
    );
  const rateInForce = async () =>
    Number((await app.sql<{ rate: string | null }>("select usd_inr_rate as rate from app_config"))[0]!.rate);

  it("without a rate Withdraw shows dollars only; with one, the UPI minimum in both and the rupees beside the amount", async () => {
    await ownerRate(null);
    const person = await newMember(app);
    await app.sql("select record_email_verified($1)", [person.uid]);
    await app.sql("select add_user_coins($1, 1000)", [person.uid]);
    await eventually(async () => !(await person.client.visit("/withdraw")).html.includes("rupees-beside"), {
      what: "Withdraw without rupees while no rate is set",
    });
    expect((await person.client.visit("/withdraw")).html).not.toContain("₹");

    await ownerRate(83.25);
    const page = await eventually(
      async () => {
        const { html } = await person.client.visit("/withdraw");
        return html.includes("rupees-beside") ? html : undefined;
      },
      { what: "Withdraw with the rate the server has heard of" },
    );
    expect(page).toContain("Min. $1.00 (≈ ₹83.25)");
    expect(page).toMatch(
      /<p data-method="upi" data-testid="rupees-beside"[^>]*>Paid in rupees at \$1\u00a0=\u00a0₹83.25, fixed when you send the request\.<\/p>/,
    );
    // A refused request comes back with its amount, and the rupees it comes to.
    const refused = await person.client.post("/withdraw", {
      intent: "withdraw",
      amount: "5",
      method: "upi",
      upiId: "no",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(
      /data-testid="rupees-beside"[^>]*><span[^>]*>≈ ₹416.25 <\/span>Paid in rupees/,
    );
  });

  it("a UPI cash-out keeps the rupees of its day: the history says them, the console and its CSV pay them, whatever the rate does next", async () => {
    await ownerRate(83.25);
    const person = await cashOutOf(app, 5, { method: "upi", upiId: "payee@okaxis" });
    await ownerRate(80);
    const history = (await person.client.visit("/withdraw?history=1")).html;
    expect(history).toContain("₹416.25 to be sent");

    const finance = await newOperator(app, "finance");
    if (person.reviewState === "review")
      expect((await finance.client.post(`/admin/withdrawals/${person.id}`, { intent: "approve" })).status).toBe(302);
    const detail = (await finance.client.visit(`/admin/withdrawals/${person.id}`)).html;
    expect(detail).toContain("₹416.25 at $1\u00a0=\u00a0₹83.25, fixed when it was asked for");
    expect(detail).toContain("Once you have sent ₹416.25 to payee@okaxis yourself.");
    const csv = await (await finance.client.post("/admin/withdrawals.csv", {})).text();
    expect(csv.split("\r\n").find((line) => line.startsWith(person.id))).toMatch(
      /,5\.00,upi,payee@okaxis,.*,416\.25,INR$/,
    );

    await app.sql("select settle_withdrawal($1, 'completed', 'UTR123')", [person.id]);
    expect((await person.client.visit("/withdraw?history=1")).html).toContain("₹416.25 sent");
  });

  it("the rates endpoint's rate is applied near the owner's rate, dated and audited, and a far one is not", async () => {
    await ownerRate(83.25);
    answer = { base: "USD", date: "2026-11-28", rates: { INR: 84.1 } };
    await eventually(async () => (await rateInForce()) === 84.1, { what: "the endpoint's rate applied" });
    const [audit] = await app.sql<{ actor: string; reason: string }>(
      "select actor, reason from operator_actions where record_id = 'usd_inr_rate' order by id desc limit 1",
    );
    expect(audit).toEqual({ actor: "rates endpoint", reason: `rates endpoint ${new URL(rates.url).host}` });

    // 95 is more than 5 % from the owner's 83.25: read twice more, and still not applied.
    answer = { base: "USD", rates: { INR: 95 } };
    const asked = rates.requests.length;
    await eventually(() => rates.requests.length >= asked + 2, { what: "two more reads of the endpoint" });
    expect(await rateInForce()).toBe(84.1);
    // Not rupees per dollar: ignored too.
    answer = { base: "EUR", rates: { INR: 84.2 } };
    const again = rates.requests.length;
    await eventually(() => rates.requests.length >= again + 2, { what: "two more reads of the endpoint" });
    expect(await rateInForce()).toBe(84.1);
  });
});
