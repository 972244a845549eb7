import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dollarsToRupees } from "~/domain/rupees";
import { dbRefusal, openTestPglite, type TestDatabase } from "../support/db";
import { provisionMember, provisionOperator } from "../support/arrange";

// Rupees for UPI users (issue 37, point 3; docs/decisions/087), in SQL: the rate an owner sets
// (dated, audited, a rise of more than 2 % waiting for a second owner), the rates endpoint's moves
// bounded by the owner's rate, and a UPI cash-out's rupees fixed when it is asked for.

interface Withdrawal {
  id: string;
  payout_currency: string | null;
  payout_amount: number | null;
}

describe("the rupee rate and UPI cash-outs in rupees", () => {
  let t: TestDatabase;
  let owner: string;
  let secondOwner: string;

  beforeAll(async () => {
    t = await openTestPglite();
    owner = await provisionOperator(t, "owner", "rupees");
    secondOwner = await provisionOperator(t, "owner", "rupees");
  });
  afterAll(async () => {
    await t?.close();
  });

  const setRate = (rate: number | null, operatorId = owner) =>
    t.db.rpc<{ changed: unknown[]; waiting: { id: number } | null }>("operator_set_settings", {
      p_operator_id: operatorId,
      p_actor: "Ana Owner",
      p_changes: { usd_inr_rate: rate },
      p_reason: "The rate of the day",
    });
  /** The owner's rate, applied (a second owner approves what waits). */
  const ownerRate = async (rate: number | null) => {
    const saved = await setRate(rate);
    if (saved.waiting)
      await t.db.rpc("operator_decide_setting_change", {
        p_operator_id: secondOwner,
        p_actor: "Bo Owner",
        p_change_id: saved.waiting.id,
        p_approve: true,
      });
  };
  const endpointRate = (rate: number) =>
    t.db.rpc<{ applied: boolean; reason?: string }>("record_inr_rate", {
      p_rate: rate,
      p_source: "rates endpoint test",
    });
  const config = async () =>
    (
      await t.sql<{ rate: string | null; set_at: Date | null; anchor: string | null }>(
        "select usd_inr_rate as rate, usd_inr_rate_set_at as set_at, usd_inr_rate_anchor as anchor from app_config",
      )
    )[0]!;
  const appConfigRate = async () =>
    (await t.db.rpc<{ inr_rate: { rate: number; set_at: string } | null }>("get_app_config", {})).inr_rate;

  async function upiWithdrawal(amount: number, method = "upi"): Promise<Withdrawal> {
    const userId = await provisionMember(t, { prefix: "rupees", coins: 100_000 });
    const created = await t.db.rpc<{ id: string }>("create_withdrawal", {
      p_user_id: userId,
      amount_param: amount,
      payment_method_param: method,
      recipient_email_param: method === "paypal" ? `${userId}@example.com` : null,
      recipient_upi_param: method === "upi" ? "payee@okaxis" : null,
      recipient_bank_details_param: null,
    });
    const [row] = await t.sql<Withdrawal & { payout_rate: string | null }>(
      "select id, payout_currency, payout_amount::float8 as payout_amount, payout_rate from withdrawals where id = $1",
      [created.id],
    );
    return row!;
  }

  it("a UPI cash-out asked for while a rate is in force keeps its rupees, rounded to the paisa as the page rounds them; PayPal keeps none", async () => {
    await ownerRate(83.25);
    const upi = await upiWithdrawal(4.9);
    // 4.90 × 83.25 = 407.925: half up to ₹407.93 in the database and on the page alike.
    expect(upi).toMatchObject({ payout_currency: "INR", payout_amount: 407.93, payout_rate: "83.2500" });
    expect(dollarsToRupees(4.9, 83.25)).toBe(407.93);
    expect(await upiWithdrawal(5, "paypal")).toMatchObject({ payout_currency: null, payout_amount: null });
    // The person's history and the console read them.
    const [history] = await t.sql<{ json: Record<string, unknown> }>(
      "select withdrawal_json(w) as json from withdrawals w where id = $1",
      [upi.id],
    );
    expect(history!.json).toMatchObject({ payout_currency: "INR", payout_amount: 407.93 });
  });

  it("the rupees stay as fixed when the rate changes afterwards", async () => {
    await ownerRate(83.25);
    const asked = await upiWithdrawal(10);
    expect(asked.payout_amount).toBe(832.5);
    await ownerRate(80);
    const [after] = await t.sql<{ payout_amount: number }>(
      "select payout_amount::float8 as payout_amount from withdrawals where id = $1",
      [asked.id],
    );
    expect(after!.payout_amount).toBe(832.5);
    expect((await upiWithdrawal(10)).payout_amount).toBe(800);
  });

  it("a rate older than seven days is not used: no rupees are fixed and the app is told none is in force", async () => {
    await ownerRate(83.25);
    expect(await appConfigRate()).toMatchObject({ rate: 83.25 });
    await t.sql("update app_config set usd_inr_rate_set_at = now() - interval '7 days 1 minute'");
    expect(await appConfigRate()).toBeNull();
    expect(await upiWithdrawal(3)).toMatchObject({ payout_currency: null, payout_amount: null });
    // Set again (even to the same value through the endpoint's bounds): in force once more.
    await ownerRate(83.3);
    expect(await appConfigRate()).toMatchObject({ rate: 83.3 });
  });

  it("the rate carries the date it was set, which other settings leave alone; emptied, it has none", async () => {
    await ownerRate(82);
    await t.sql("update app_config set usd_inr_rate_set_at = '2026-01-01T00:00:00Z'");
    await t.db.rpc("operator_set_settings", {
      p_operator_id: owner,
      p_actor: "Ana Owner",
      p_changes: { checkin_coins: 11 },
      p_reason: "Another setting",
    });
    expect((await config()).set_at!.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    const [{ before }] = (await t.sql<{ before: Date }>("select now() as before")) as [{ before: Date }];
    await ownerRate(81);
    // Dated by the database when the rate changed: no earlier than the moment just before.
    expect((await config()).set_at!.getTime()).toBeGreaterThanOrEqual(before.getTime());
    await ownerRate(null);
    expect(await config()).toMatchObject({ rate: null, set_at: null });
  });

  it("a rise of more than 2 % waits for a second owner; a fall, or a smaller rise, applies at once, each audited", async () => {
    await ownerRate(80);
    const rise = await setRate(82);
    expect(rise.waiting).not.toBeNull();
    expect((await config()).rate).toBe("80.0000");
    expect((await setRate(81.5)).waiting).toBeNull();
    expect((await config()).rate).toBe("81.5000");
    expect((await setRate(79)).waiting).toBeNull();
    expect((await config()).rate).toBe("79.0000");
    const audit = await t.sql<{ actor: string; before: unknown; after: unknown }>(
      "select actor, before, after from operator_actions where record_id = 'usd_inr_rate' order by id desc limit 1",
    );
    expect(audit[0]).toEqual({ actor: "Ana Owner", before: { value: 81.5 }, after: { value: 79 } });
    // A first rate (none before) waits as well.
    await ownerRate(null);
    expect((await setRate(83)).waiting).not.toBeNull();
  });

  it("the rates endpoint moves the rate only within 5 % of the owner's rate, each move dated and audited; steps cannot walk it further", async () => {
    await ownerRate(null);
    expect(await endpointRate(83)).toMatchObject({ applied: false, reason: "no_rate_set" });
    expect((await config()).rate).toBeNull();

    await ownerRate(80);
    expect(await endpointRate(83.5)).toMatchObject({ applied: true });
    expect(await config()).toMatchObject({ rate: "83.5000", anchor: "80.0000" });
    const [audit] = await t.sql<{ actor: string; action: string; after: unknown }>(
      "select actor, action, after from operator_actions where record_id = 'usd_inr_rate' order by id desc limit 1",
    );
    expect(audit).toEqual({ actor: "rates endpoint", action: "set_setting", after: { value: 83.5 } });
    // 84.01 is within 5 % of 83.5 but not of the owner's 80: refused, the rate stays.
    expect(await endpointRate(84.01)).toMatchObject({ applied: false, reason: "moved_too_far" });
    expect(await endpointRate(75.99)).toMatchObject({ applied: false, reason: "moved_too_far" });
    expect((await config()).rate).toBe("83.5000");
    for (const bad of [0, 0.5, 1001, Number.NaN])
      expect((await dbRefusal(endpointRate(bad))).hint, String(bad)).toBe("invalid_rate");
  });
});
