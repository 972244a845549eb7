import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshGiftCardCatalogue } from "~/server/withdrawals/payouts/tremendous-rail.server";
import { cardFromProduct, createTremendousClient } from "~/server/withdrawals/payouts/tremendous.server";
import { dbRefusal, openTestPglite, type TestDatabase } from "../support/db";
import { provisionMember, provisionOperator } from "../support/arrange";
import { STAND_IN_PRODUCTS, startTremendousStandIn } from "../support/tremendous";

// Gift cards through Tremendous in SQL (issue 37, point 2; docs/decisions/089): the catalogue kept
// with its last good list, a card's value fixed and checked when it is asked for (never the
// browser's word), the order claimed with exactly this withdrawal's request, what Tremendous
// reports applied once and never backwards, and no hand settlement of a card.

interface Withdrawal {
  id: string;
  payment_method: string;
  payout_currency: string | null;
  payout_amount: number | null;
  giftcard_name: string | null;
}

const CARDS = STAND_IN_PRODUCTS.map(cardFromProduct).filter((card) => card !== null);

describe("gift cards in the database", () => {
  let t: TestDatabase;
  let finance: string;

  beforeAll(async () => {
    t = await openTestPglite();
    finance = await provisionOperator(t, "finance", "giftcards");
    await t.db.rpc("record_giftcard_catalogue", { p_products: CARDS });
    await t.sql("update app_config set usd_inr_rate = 80, usd_inr_rate_anchor = 80");
  });
  afterAll(async () => {
    await t?.close();
  });

  const member = (coins = 5000) => provisionMember(t, { prefix: "gift", name: "Gita Gift", coins });
  const ask = (userId: string, amount: number, productId: string | null) =>
    t.db.rpc<Withdrawal>("create_withdrawal", {
      p_user_id: userId,
      amount_param: amount,
      payment_method_param: "giftcard",
      p_giftcard_product_id: productId,
    });
  const row = async (id: string) =>
    (
      await t.sql<{
        status: string;
        payout_status: string | null;
        payout_batch_id: string | null;
        payout_item_id: string | null;
        reference: string | null;
        failure_reason: string | null;
        recipient_email: string | null;
      }>(
        `select status, payout_status, payout_batch_id, payout_item_id, reference, failure_reason, recipient_email
           from withdrawals where id = $1`,
        [id],
      )
    )[0]!;
  const balance = async (userId: string) =>
    Number(
      (await t.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [userId]))[0]!.balance,
    );
  const request = (id: string, overrides: Record<string, unknown> = {}) => ({
    external_id: id,
    payment: { funding_source_id: "balance" },
    reward: {
      products: ["AMZNUS000001"],
      value: { denomination: 10, currency_code: "USD" },
      recipient: { name: "Gita Gift", email: "x@example.com" },
      delivery: { method: "EMAIL" },
      ...overrides,
    },
  });
  const apply = (id: string, orderId: string, rewardId: string | null, status: string, reason: string | null = null) =>
    t.db.rpc<{ status: string; changed: boolean }>("apply_tremendous_order", {
      p_withdrawal_id: id,
      p_order_id: orderId,
      p_reward_id: rewardId,
      p_status: status,
      p_reason: reason,
      p_source: "webhook",
    });

  it("the catalogue keeps the cards in dollars and rupees, leaves out what it cannot price, and unlists what a later list drops", async () => {
    const listed = await t.db.rpc<{ id: string; currency: string }[]>("giftcard_catalogue", { p_country: "US" });
    expect(listed.map((card) => card.id)).toEqual(["AMZNUS000001", "TARGET000001", "VISA25000001"]);
    expect(
      (await t.db.rpc<{ id: string }[]>("giftcard_catalogue", { p_country: "in" })).map((card) => card.id),
    ).toEqual(["AMZNIN000001", "FLIPKART0001"]);
    // Euros and a card with no amounts never reach the catalogue.
    expect(await t.db.rpc("giftcard_catalogue", { p_country: "DE" })).toEqual([]);
    // An empty list, or one with nothing usable, keeps the last good one.
    expect((await dbRefusal(t.db.rpc("record_giftcard_catalogue", { p_products: [] }))).hint).toBe(
      "invalid_giftcard_catalogue",
    );
    expect(
      (
        await dbRefusal(
          t.db.rpc("record_giftcard_catalogue", { p_products: [{ id: "X", skus: [{ min: 0, max: 1 }] }] }),
        )
      ).hint,
    ).toBe("invalid_giftcard_catalogue");
    expect(await t.db.rpc<unknown[]>("giftcard_catalogue", { p_country: "US" })).toHaveLength(3);
    // A later good list without Target unlists it; the one after, with it again, lists it again.
    await t.db.rpc("record_giftcard_catalogue", { p_products: CARDS.filter((card) => card.id !== "TARGET000001") });
    expect(
      (await t.db.rpc<{ id: string }[]>("giftcard_catalogue", { p_country: "US" })).map((card) => card.id),
    ).not.toContain("TARGET000001");
    await t.db.rpc("record_giftcard_catalogue", { p_products: CARDS });
    expect(await t.db.rpc<unknown[]>("giftcard_catalogue", { p_country: "US" })).toHaveLength(3);
  });

  it("a catalogue read that fails (a 5xx, a dropped answer, no products, nothing the app can price) keeps the last good list", async () => {
    const tremendous = await startTremendousStandIn();
    try {
      const client = createTremendousClient(
        {
          apiKey: tremendous.env.TREMENDOUS_API_KEY,
          apiUrl: tremendous.url,
          live: false,
          webhookPrivateKey: null,
          countries: ["US", "IN"],
          intervalMs: 1000,
          settleAfterSeconds: 0,
          catalogueMs: 1000,
        },
        { attempts: 1 },
      );
      const listed = () => t.db.rpc<{ id: string }[]>("giftcard_catalogue", { p_country: "US" });
      const before = await listed();
      expect(await refreshGiftCardCatalogue(t.db, client, ["US", "IN"])).toBe(5);
      tremendous.failNext(1, "http500");
      await expect(refreshGiftCardCatalogue(t.db, client, ["US"])).rejects.toThrow(/Tremendous 500/);
      tremendous.failNext(1, "drop");
      await expect(refreshGiftCardCatalogue(t.db, client, ["US"])).rejects.toThrow(/could not be reached/);
      tremendous.setProducts([]);
      await expect(refreshGiftCardCatalogue(t.db, client, ["US"])).rejects.toThrow();
      tremendous.setProducts([STAND_IN_PRODUCTS.find((product) => product.id === "ZALANDO00001")]);
      await expect(refreshGiftCardCatalogue(t.db, client, ["US", "DE"])).rejects.toThrow();
      expect(await listed()).toEqual(before);
    } finally {
      await tremendous.close();
    }
  });

  it("a gift card cash-out fixes the card's value in its money and sends it to the account's own verified address", async () => {
    const userId = await member();
    const dollars = await ask(userId, 10, "AMZNUS000001");
    expect(dollars).toMatchObject({
      payment_method: "giftcard",
      payout_currency: "USD",
      payout_amount: 10,
      giftcard_name: "Amazon.com",
    });
    expect((await row(dollars.id)).recipient_email).toBe(`${userId}@example.com`);
    const rupees = await ask(userId, 5, "AMZNIN000001");
    expect(rupees).toMatchObject({ payout_currency: "INR", payout_amount: 400, giftcard_name: "Amazon.in" });
    const [ledger] = await t.sql<{ description: string }>(
      "select description from transaction_history where withdrawal_id = $1",
      [rupees.id],
    );
    expect(ledger!.description).toBe("Withdrawal via Amazon.in gift card");
  });

  it("a card not listed, an amount the card does not take, a rupee card without a rate and one under the minimum are refused and change nothing", async () => {
    const userId = await member(5000);
    const refusal = async (amount: number, product: string | null) =>
      (await dbRefusal(ask(userId, amount, product))).hint;
    expect(await refusal(10, null)).toBe("giftcard_not_offered");
    expect(await refusal(10, "ZALANDO00001")).toBe("giftcard_not_offered");
    expect(await refusal(10, "NO-SUCH-CARD")).toBe("giftcard_not_offered");
    // Visa $25 takes $25 only; Target $5 to $500; Flipkart ₹250 or more (at 80, $3.13 and up).
    expect(await refusal(20, "VISA25000001")).toBe("giftcard_amount_not_offered");
    const amountError = await dbRefusal(ask(userId, 3, "FLIPKART0001"));
    expect(amountError).toMatchObject({ hint: "giftcard_amount_not_offered", details: "₹250.00 to ₹10,000.00" });
    await t.sql("update app_config set min_withdrawal_giftcard = 2");
    expect(await refusal(1.5, "AMZNUS000001")).toBe("below_minimum");
    await t.sql("update app_config set min_withdrawal_giftcard = 1");
    await t.sql("update app_config set usd_inr_rate = null");
    expect(await refusal(5, "AMZNIN000001")).toBe("giftcard_rate_unavailable");
    await t.sql("update app_config set usd_inr_rate = 80, usd_inr_rate_anchor = 80");
    expect(await balance(userId)).toBe(50);
    expect(await t.sql("select 1 from withdrawals where user_id = $1", [userId])).toEqual([]);
  });

  it("the claim stores only this withdrawal's order (its id, card, value and address), then gives back the stored one whatever is asked", async () => {
    const userId = await member();
    const { id } = await ask(userId, 10, "AMZNUS000001");
    const email = `${userId}@example.com`;
    const mine = request(id, { recipient: { name: "Gita Gift", email } });
    for (const wrong of [
      request("00000000-0000-0000-0000-000000000000", { recipient: { name: "Gita Gift", email } }),
      request(id, { recipient: { name: "Gita Gift", email: "thief@example.com" } }),
      request(id, { recipient: { name: "Gita Gift", email }, value: { denomination: 100, currency_code: "USD" } }),
      request(id, { recipient: { name: "Gita Gift", email }, products: ["TARGET000001"] }),
      request(id, { recipient: { name: "Gita Gift", email }, products: ["AMZNUS000001", "TARGET000001"] }),
    ])
      expect(
        (await dbRefusal(t.db.rpc("claim_tremendous_order", { p_withdrawal_id: id, p_request: wrong }))).hint,
      ).toBe("invalid_payout_request");
    const first = await t.db.rpc<{ request: unknown }>("claim_tremendous_order", {
      p_withdrawal_id: id,
      p_request: mine,
    });
    expect(first.request).toEqual(mine);
    const again = await t.db.rpc<{ request: unknown }>("claim_tremendous_order", {
      p_withdrawal_id: id,
      p_request: request(id, { recipient: { name: "Someone Else", email } }),
    });
    expect(again.request).toEqual(mine);
    // Claimed: no one settles it by hand, not even as failed.
    for (const status of ["completed", "failed"])
      expect(
        (
          await dbRefusal(
            t.db.rpc("settle_withdrawal", {
              p_withdrawal_id: id,
              p_status: status,
              p_reference: "by hand",
              p_actor: "Fay Finance",
              p_actor_user_id: finance,
            }),
          )
        ).hint,
      ).toBe("withdrawal_paid_by_tremendous");
  });

  it("before it is claimed a gift card can be failed by hand (money back), never marked paid", async () => {
    const userId = await member(1000);
    const { id } = await ask(userId, 10, "AMZNUS000001");
    const byHand = (status: string) =>
      t.db.rpc("settle_withdrawal", {
        p_withdrawal_id: id,
        p_status: status,
        p_reference: "card bought elsewhere",
        p_reason: "Tremendous is switched off",
        p_actor: "Fay Finance",
        p_actor_user_id: finance,
      });
    expect((await dbRefusal(byHand("completed"))).hint).toBe("withdrawal_paid_by_tremendous");
    await byHand("failed");
    expect(await row(id)).toMatchObject({ status: "failed" });
    expect(await balance(userId)).toBe(10);
  });

  it("statuses apply once and never backwards: delivered pays with the order as reference; a late scheduled changes nothing", async () => {
    const userId = await member();
    const { id } = await ask(userId, 10, "AMZNUS000001");
    await t.db.rpc("claim_tremendous_order", {
      p_withdrawal_id: id,
      p_request: request(id, { recipient: { name: "Gita Gift", email: `${userId}@example.com` } }),
    });
    // The create answer named no reward; a later answer that does records it, though nothing moves.
    expect(await apply(id, "ORDER1", null, "scheduled")).toEqual({ status: "pending", changed: true });
    expect((await row(id)).payout_item_id).toBeNull();
    expect(await apply(id, "ORDER1", "REWARD1", "scheduled")).toEqual({ status: "pending", changed: false });
    // Another order, or another reward, is not this withdrawal's.
    expect(await apply(id, "ORDER2", "REWARD1", "delivered")).toEqual({ status: "not_sent", changed: false });
    expect(await apply(id, "ORDER1", "REWARD9", "delivered")).toEqual({ status: "not_sent", changed: false });
    expect(await apply(id, "ORDER1", "REWARD1", "delivered")).toEqual({ status: "completed", changed: true });
    expect(await apply(id, "ORDER1", "REWARD1", "canceled")).toEqual({ status: "completed", changed: false });
    expect(await row(id)).toMatchObject({ status: "completed", reference: "ORDER1", payout_item_id: "REWARD1" });
    expect(await balance(userId)).toBe(40);
    const notices = await t.sql<{ kind: string }>(
      "select kind from user_notices where user_id = $1 and kind like 'withdrawal_%'",
      [userId],
    );
    expect(notices).toEqual([{ kind: "withdrawal_completed" }]);
  });

  it("a bounced email is kept until the card is cancelled; then the money comes back once, with why", async () => {
    const userId = await member();
    const { id } = await ask(userId, 10, "AMZNUS000001");
    await t.db.rpc("claim_tremendous_order", {
      p_withdrawal_id: id,
      p_request: request(id, { recipient: { name: "Gita Gift", email: `${userId}@example.com` } }),
    });
    await apply(id, "ORDER3", "REWARD3", "scheduled");
    expect(await apply(id, "ORDER3", "REWARD3", "delivery_failed", "invalid_email")).toEqual({
      status: "pending",
      changed: true,
    });
    expect(await balance(userId)).toBe(40);
    const due = await t.db.rpc<{ cancel: { id: string; reward_id: string }[] }>("tremendous_due", {
      p_limit: 50,
      p_settle_after_seconds: 0,
    });
    expect(due.cancel).toContainEqual(expect.objectContaining({ id, reward_id: "REWARD3" }));
    expect(await apply(id, "ORDER3", "REWARD3", "canceled")).toEqual({ status: "failed", changed: true });
    expect(await apply(id, "ORDER3", "REWARD3", "canceled")).toEqual({ status: "failed", changed: false });
    expect(await row(id)).toMatchObject({
      status: "failed",
      failure_reason: "The gift card could not be delivered to your email (invalid email)",
    });
    expect(await balance(userId)).toBe(50);
  });
});
