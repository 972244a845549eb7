import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cardAmounts, defaultCountry, formatCardValue } from "~/domain/giftcards";
import { referenceLine, rupeesLine, withdrawalRequestState, withdrawalStepMeaning } from "~/domain/withdrawals";
import { withdrawalActions } from "~/domain/operator-withdrawals";
import {
  cardFromProduct,
  orderFromAnswer,
  orderRequestBody,
  tremendousSignatureValid,
} from "~/server/withdrawals/payouts/tremendous.server";

// The Tremendous protocol's pure parts (docs/rails/tremendous.md) and the gift card's words: the
// order body, an order's state in the app's words, a product as the catalogue keeps it, the
// webhook signature over the body's exact bytes, and what the person and the operator read.
describe("Tremendous", () => {
  it("builds a withdrawal's order: its id as external_id, one product, the fixed value in the card's money, email delivery from the balance", () => {
    expect(
      orderRequestBody({
        id: "w-1",
        name: "Gita",
        email: "g@example.com",
        product_id: "AMZN",
        currency: "INR",
        value: "400.00",
      }),
    ).toEqual({
      external_id: "w-1",
      payment: { funding_source_id: "balance" },
      reward: {
        products: ["AMZN"],
        value: { denomination: 400, currency_code: "INR" },
        recipient: { name: "Gita", email: "g@example.com" },
        delivery: { method: "EMAIL" },
      },
    });
    for (const [currency, value] of [
      ["EUR", "5"],
      ["USD", "0"],
      ["USD", "x"],
    ])
      expect(() =>
        orderRequestBody({ id: "w", name: "n", email: "e@x.y", product_id: "p", currency: currency!, value: value! }),
      ).toThrow();
  });

  it("reads an order's state in the app's words: delivery decides once executed; unknown states are not guessed", () => {
    const order = (status: string, delivery?: string) => ({
      order: {
        id: "O1",
        external_id: "w-1",
        status,
        rewards: delivery ? [{ id: "R1", delivery: { method: "EMAIL", status: delivery } }] : [],
      },
    });
    expect(orderFromAnswer(order("EXECUTED", "SUCCEEDED"))).toEqual({
      orderId: "O1",
      rewardId: "R1",
      externalId: "w-1",
      status: "delivered",
      reason: null,
    });
    expect(orderFromAnswer(order("EXECUTED", "FAILED"))?.status).toBe("delivery_failed");
    expect(orderFromAnswer(order("EXECUTED", "SCHEDULED"))?.status).toBe("scheduled");
    expect(orderFromAnswer(order("EXECUTED"))?.status).toBe("scheduled");
    expect(orderFromAnswer(order("PENDING APPROVAL"))?.status).toBe("pending_approval");
    expect(orderFromAnswer(order("PENDING INTERNAL PAYMENT APPROVAL"))?.status).toBe("pending_approval");
    expect(orderFromAnswer(order("CART"))?.status).toBe("pending_approval");
    expect(orderFromAnswer(order("FAILED"))?.status).toBe("failed");
    expect(orderFromAnswer(order("CANCELED"))?.status).toBe("canceled");
    for (const unknown of [order("EXPLODED"), { order: { status: "EXECUTED" } }, null, [], "order", { order: null }])
      expect(orderFromAnswer(unknown)).toBeNull();
  });

  it("keeps a product in dollars or rupees with its amounts and countries, and leaves out other money, no amounts and odd images", () => {
    const product = {
      id: "P1",
      name: " Amazon.in ",
      currency_codes: ["INR"],
      skus: [
        { min: 100, max: 10000, currency_code: "INR" },
        { min: 0, max: 5, currency_code: "INR" },
      ],
      countries: [{ abbr: "IN" }, { abbr: "in" }],
      images: [
        { src: "https://img.example.com/logo.png", type: "logo" },
        { src: "https://img.example.com/card.png", type: "card" },
      ],
    };
    expect(cardFromProduct(product)).toEqual({
      id: "P1",
      name: "Amazon.in",
      currency: "INR",
      countries: ["IN"],
      skus: [{ min: 100, max: 10000 }],
      image_url: "https://img.example.com/card.png",
    });
    expect(
      cardFromProduct({ ...product, images: [{ src: "javascript:alert(1)", type: "card" }] })?.image_url,
    ).toBeNull();
    expect(
      cardFromProduct({ ...product, currency_codes: ["EUR"], skus: [{ min: 5, max: 50, currency_code: "EUR" }] }),
    ).toBeNull();
    expect(cardFromProduct({ ...product, skus: [] })).toBeNull();
    expect(cardFromProduct({ ...product, countries: [] })).toBeNull();
    expect(cardFromProduct({ ...product, name: "" })).toBeNull();
    expect(cardFromProduct("P1")).toBeNull();
  });

  it("believes a webhook only with sha256= and the hex HMAC-SHA256 of its exact bytes under the private key", () => {
    const key = "private-key";
    const body = new TextEncoder().encode('{"event":"REWARDS.DELIVERY.SUCCEEDED"}');
    const hex = createHmac("sha256", key).update(body).digest("hex");
    expect(tremendousSignatureValid(body, `sha256=${hex}`, key)).toBe(true);
    expect(tremendousSignatureValid(body, `SHA256=${hex.toUpperCase()}`, key)).toBe(true);
    for (const header of [null, "", hex, `sha1=${hex}`, `sha256=${hex.slice(1)}`, `sha256=${"0".repeat(64)}`])
      expect(tremendousSignatureValid(body, header, key), String(header)).toBe(false);
    expect(tremendousSignatureValid(body, `sha256=${hex}`, "another-key")).toBe(false);
    expect(tremendousSignatureValid(new TextEncoder().encode('{"event":"X"}'), `sha256=${hex}`, key)).toBe(false);
  });
});

describe("gift cards in the person's words", () => {
  const card = {
    id: "C",
    name: "Flipkart",
    currency: "INR" as const,
    skus: [
      { min: 1000, max: 1000 },
      { min: 250, max: 500 },
    ],
    min_value: 250,
    image_url: null,
  };

  it("says a card's amounts in its money, smallest first, one value alone", () => {
    expect(cardAmounts(card)).toBe("₹250.00 to ₹500.00 or ₹1,000.00");
    expect(cardAmounts({ currency: "USD", skus: [{ min: "25", max: "25" }] })).toBe("$25.00");
    expect(formatCardValue("USD", 1234.5)).toBe("$1,234.50");
  });

  it("shows India's cards first in the Indian time zone, else the first country offered", () => {
    expect(defaultCountry("Asia/Kolkata", ["US", "IN"])).toBe("IN");
    expect(defaultCountry("Asia/Calcutta", ["US", "IN"])).toBe("IN");
    expect(defaultCountry("Asia/Kolkata", ["US"])).toBe("US");
    expect(defaultCountry("Europe/Paris", ["GB", "US"])).toBe("GB");
    expect(defaultCountry(null, [])).toBe("US");
  });

  it("says where a gift card is: ordered, emailed, or why it came back; its reference is the Tremendous order", () => {
    const base = { id: "w", created_at: "2026-11-30T00:00:00Z", amount: 5, payment_method: "giftcard" as const };
    const named = { ...base, giftcard_name: "Amazon.in" };
    expect(withdrawalStepMeaning({ ...named, status: "pending", review_state: "approved", sent_at: null })).toBe(
      "We are ordering your Amazon.in gift card.",
    );
    expect(withdrawalStepMeaning({ ...named, status: "pending", review_state: "approved", sent_at: "x" })).toBe(
      "We ordered your Amazon.in gift card; it is on its way to your email.",
    );
    expect(withdrawalStepMeaning({ ...named, status: "completed", review_state: "approved" })).toBe(
      "Your Amazon.in gift card was emailed to your verified address.",
    );
    expect(
      withdrawalStepMeaning({
        ...named,
        status: "failed",
        review_state: "approved",
        failure_reason: "The gift card could not be delivered to your email (invalid email)",
      }),
    ).toBe(
      "It could not be delivered: The gift card could not be delivered to your email (invalid email). The money is back in your balance.",
    );
    expect(withdrawalRequestState({ review_state: "approved", payment_method: "giftcard" })).toBe(
      "It is being ordered: the card is emailed to your verified address.",
    );
    expect(referenceLine({ ...base, status: "completed", reference: "ORDER1" })).toBe("Tremendous order ORDER1");
    expect(rupeesLine({ ...base, status: "pending", payout_currency: "INR", payout_amount: "400.00" })).toBe(
      "A ₹400.00 card",
    );
  });

  it("gives the operator no Mark paid for a gift card, and no hand settlement once Tremendous has it", () => {
    const giftCard = {
      status: "pending" as const,
      review_state: "approved" as const,
      sent_at: null,
      payment_method: "giftcard" as const,
    };
    expect(withdrawalActions({ ...giftCard, payout_rail: null }, true)).toMatchObject({
      markPaid: false,
      markFailed: true,
      reject: true,
    });
    expect(withdrawalActions({ ...giftCard, payout_rail: "tremendous" }, true)).toMatchObject({
      markPaid: false,
      markFailed: false,
      reject: false,
      pay: false,
    });
  });
});
