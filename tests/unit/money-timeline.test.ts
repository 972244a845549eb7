import { describe, expect, it } from "vitest";
import { activityItem, type ActivityRow } from "~/domain/activity";
import { checkinWords } from "~/domain/checkin";
import { partsThatAddUp, type MoneyParts } from "~/domain/money";
import { stateBadge, statePhrase, withState, type MoneyState } from "~/domain/money-timeline";
import { withdrawalRequestState } from "~/domain/withdrawals";

// Issue 36: every amount is in one of seven states, named the same way everywhere (docs/decisions/080).
const SEVEN: [MoneyState, string, string][] = [
  [{ kind: "pending", clearsAt: "2026-12-05T10:00:00Z" }, "Pending · clears Dec 5", "pending, clears Dec 5"],
  [{ kind: "locked" }, "Locked bonus", "locked until your offer earnings clear"],
  [{ kind: "available" }, "Available", "available to withdraw"],
  [{ kind: "in_review" }, "In review", "in review"],
  [{ kind: "sending" }, "Sending", "sending"],
  [{ kind: "paid", paidAt: "2026-12-03T09:00:00Z" }, "Paid Dec 3", "paid Dec 3"],
  [{ kind: "refused", refunded: 2, cause: "review" }, "Refused — $2.00 refunded", "refused — $2.00 refunded"],
];

describe("the money timeline's words", () => {
  it.each(SEVEN)("names %j as a badge and as a phrase", (state, badge, phrase) => {
    expect(stateBadge(state)).toBe(badge);
    expect(statePhrase(state)).toBe(phrase);
  });

  it("calls a payment the service did not make 'Not paid', not 'Refused', and names its refund", () => {
    expect(stateBadge({ kind: "refused", refunded: 7.5, cause: "payment" })).toBe("Not paid — $7.50 refunded");
  });

  it("puts the state after the amount, and names none when it is unknown", () => {
    expect(withState("350 coins ($3.50)", SEVEN[0]![0])).toBe("350 coins ($3.50) — pending, clears Dec 5.");
    expect(withState("350 coins ($3.50)", null)).toBe("350 coins ($3.50).");
  });
});

describe("Recent Activity: one state a row", () => {
  const now = new Date("2026-11-29T12:00:00Z");
  const row = (fields: Partial<ActivityRow>): ActivityRow => ({
    id: 1,
    created_at: "2026-11-28T10:00:00Z",
    description: "x",
    transaction_type: "postback",
    amount: 3.5,
    status: "completed",
    coins: 350,
    kind: "earned",
    available_at: "2026-12-05T10:00:00Z",
    locked: false,
    ...fields,
  });
  const badge = (fields: Partial<ActivityRow>) => {
    const state = activityItem(row(fields), now).state;
    return state ? stateBadge(state) : null;
  };

  it("shows an offer credit pending until it clears, then available", () => {
    expect(badge({})).toBe("Pending · clears Dec 5");
    expect(badge({ available_at: "2026-11-28T10:00:00Z" })).toBe("Available");
    // Postgres writes timestamps its own way inside json.
    expect(badge({ available_at: "2026-12-05 10:00:00.123+00" })).toBe("Pending · clears Dec 5");
  });

  it("shows a bonus credit locked or available, as the database says", () => {
    expect(badge({ transaction_type: "checkin", kind: "bonus", locked: true })).toBe("Locked bonus");
    expect(badge({ transaction_type: "referral", kind: "bonus", locked: false })).toBe("Available");
  });

  it("shows a refused withdrawal as refused with its refund, and a reversal with no state", () => {
    const withdrawal = { transaction_type: "withdrawal", kind: null, amount: -2, coins: null };
    expect(badge({ ...withdrawal, status: "failed", review_state: "rejected" })).toBe("Refused — $2.00 refunded");
    expect(badge({ ...withdrawal, status: "pending", review_state: "review" })).toBe("In review");
    expect(badge({ ...withdrawal, status: "pending", review_state: "approved" })).toBe("Sending");
    expect(badge({ ...withdrawal, status: "completed", settled_at: "2026-11-29T08:00:00Z" })).toBe("Paid Nov 29");
    expect(badge({ transaction_type: "postback_reversal", amount: -3.5, coins: -350 })).toBeNull();
  });
});

describe("the balance card's parts", () => {
  const money = (fields: Partial<MoneyParts>): MoneyParts => ({
    balance: 0,
    available: 0,
    pending: 0,
    nextClearAt: null,
    bonusLocked: 0,
    earnedToUnlock: null,
    carriedDebt: 0,
    ...fields,
  });
  const sum = (parts: MoneyParts) =>
    Math.round((parts.available + parts.pending + parts.bonusLocked + parts.carriedDebt) * 100) / 100;

  it("never show more locked bonus than the balance holds (bonus withdrawn under demo settings)", () => {
    const parts = partsThatAddUp(money({ balance: 5, bonusLocked: 11.55, earnedToUnlock: 11.55 }));
    expect(parts.bonusLocked).toBe(5);
    expect(sum(parts)).toBe(5);
  });

  it("keep parts that already add up as they are, pending first", () => {
    const whole = money({ balance: 10, available: 2, pending: 3.5, bonusLocked: 4.5 });
    expect(partsThatAddUp(whole)).toEqual(whole);
    const over = partsThatAddUp(money({ balance: 4, available: 1, pending: 2, bonusLocked: 5, carriedDebt: 1 }));
    expect([over.pending, over.bonusLocked, over.carriedDebt]).toEqual([2, 1, 0]);
    expect(sum(over)).toBe(4);
  });
});

describe("the toasts of a check-in and a withdrawal request", () => {
  it("say the coins, their dollars and where they are", () => {
    expect(checkinWords({ coins: 10, bonus_coins: 0 }, 100, { kind: "locked" })).toBe(
      "You earned 10 coins ($0.10) — locked until your offer earnings clear.",
    );
    expect(checkinWords({ coins: 10, bonus_coins: 50 }, 100, { kind: "available" })).toBe(
      "You earned 10 coins and your 50-coin day 7 bonus ($0.60) — available to withdraw.",
    );
    expect(checkinWords({ coins: 10, bonus_coins: 0 }, 100, null)).toBe("You earned 10 coins ($0.10).");
  });

  it("say the level's check-in extra with the level that pays it, before the day 7 bonus", () => {
    expect(checkinWords({ coins: 10, bonus_coins: 0, perk_coins: 1, level_name: "Silver" }, 100, null)).toBe(
      "You earned 10 coins and 1 more for your Silver level ($0.11).",
    );
    expect(
      checkinWords({ coins: 10, bonus_coins: 50, perk_coins: 5, level_name: "Platinum" }, 100, { kind: "locked" }),
    ).toBe(
      "You earned 10 coins, 5 more for your Platinum level and your 50-coin day 7 bonus ($0.65) — locked until your offer earnings clear.",
    );
  });

  it("say whether the request is in review or sending", () => {
    expect(withdrawalRequestState({ review_state: "review", payment_method: "upi" })).toBe(
      "It is in review: we check first cash-outs and unusual ones by hand before anything is sent.",
    );
    expect(withdrawalRequestState({ review_state: "approved", payment_method: "paypal" })).toBe(
      "It is sending: on its way to your PayPal account.",
    );
  });
});
