import { describe, expect, it } from "vitest";
import { feedWhen } from "~/domain/cashout-feed";
import { feedAction } from "~/domain/cashout-feed-words";

// How an item of the feed of recent cash-outs reads (docs/decisions/098).
describe("the feed's words", () => {
  const item = { id: "w1", name: "Userab**", at: "2026-11-30T12:00:00Z" };

  it("says what was paid and how: by method, as a gift card, or from an offer", () => {
    expect(feedAction({ ...item, kind: "cashout", method: "paypal", amount: 10 })).toBe("cashed out $10.00 by PayPal");
    expect(feedAction({ ...item, kind: "cashout", method: "upi", amount: 5.5 })).toBe("cashed out $5.50 by UPI");
    expect(feedAction({ ...item, kind: "cashout", method: "giftcard", amount: 25 })).toBe(
      "cashed out $25.00 as a gift card",
    );
    expect(feedAction({ ...item, kind: "cashout", method: "pigeon", amount: 1 })).toBe(
      "cashed out $1.00 by a transfer",
    );
    expect(feedAction({ ...item, kind: "earned", method: null, amount: 7.5 })).toBe("earned $7.50 from an offer");
  });

  it("says how long ago in minutes, then hours, and never a time in the future", () => {
    const at = Date.parse(item.at);
    expect(feedWhen(item.at, at + 59_000)).toBe("just now");
    expect(feedWhen(item.at, at - 5_000)).toBe("just now");
    expect(feedWhen(item.at, at + 5 * 60_000)).toBe("5 min ago");
    expect(feedWhen(item.at, at + 59 * 60_000)).toBe("59 min ago");
    expect(feedWhen(item.at, at + 3 * 3_600_000 + 59 * 60_000)).toBe("3 h ago");
  });
});
