import { describe, expect, it } from "vitest";
import { approximateRupees, dollarsToRupees, formatRupees, rateLine } from "~/domain/rupees";
import { rupeesLine } from "~/domain/withdrawals";
import { rateFromAnswer } from "~/server/withdrawals/inr-rate.server";

// Rupees for UPI users (docs/decisions/087): the page's rupees are the database's, to the paisa.
describe("rupees", () => {
  it.each([
    [4.9, 83.25, 407.93], // 407.925: half up, where floating point gives 407.92
    [5, 83.04, 415.2],
    [1, 83.2475, 83.25], // 83.2475 → 83.25 (half up on the third decimal)
    [0.01, 83.2449, 0.83],
    [12345.67, 999.9999, 12345668.77], // 12,345,668.765 ... half up
    [10, 1, 10],
  ])("$%d at ₹%d per dollar is ₹%d, as round(amount * rate, 2) gives it", (dollars, rate, rupees) => {
    expect(dollarsToRupees(dollars, rate)).toBe(rupees);
  });

  it("writes every amount in whole paise exactly as Intl's en-IN rupee format does, without Intl, and leaves finer amounts to Intl", () => {
    const intl = new Intl.NumberFormat("en-IN", {
      style: "currency",
      currency: "INR",
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    const amounts = [0, -0, 0.01, 0.1, 0.5, 1, 9.99, 83.25, 100, 999.99, 1000, 1234.5, 99999.99, 100000, 1234567.89];
    for (let digits = 1; digits <= 13; digits++) amounts.push(Number("9".repeat(digits)), 10 ** digits + 0.07);
    for (const amount of [...amounts, ...amounts.map((value) => -value)])
      expect(formatRupees(amount), String(amount)).toBe(intl.format(amount));
    for (const amount of [1234.567, 0.005, 12.3456]) expect(formatRupees(amount)).toBe(intl.format(amount));
  });

  it("writes rupees with the Indian grouping and two decimals, and the estimate and rate in words", () => {
    expect(formatRupees(415.2)).toBe("₹415.20");
    expect(formatRupees(100000)).toBe("₹1,00,000.00");
    expect(approximateRupees(5, 83.04)).toBe("≈ ₹415.20");
    expect(rateLine(83.25)).toBe("$1\u00a0=\u00a0₹83.25");
    expect(rateLine(83)).toBe("$1\u00a0=\u00a0₹83");
  });

  it("the history says the rupees sent once paid, to be sent while on its way, and nothing for a refusal or a dollar payout", () => {
    const row = { id: "w", created_at: "2026-11-30T00:00:00Z", amount: 5, payment_method: "upi" as const };
    expect(rupeesLine({ ...row, status: "completed", payout_currency: "INR", payout_amount: "415.20" })).toBe(
      "₹415.20 sent",
    );
    expect(rupeesLine({ ...row, status: "pending", payout_currency: "INR", payout_amount: 415.2 })).toBe(
      "₹415.20 to be sent",
    );
    expect(rupeesLine({ ...row, status: "failed", payout_currency: "INR", payout_amount: 415.2 })).toBeNull();
    expect(rupeesLine({ ...row, status: "completed", payout_currency: null, payout_amount: null })).toBeNull();
  });

  it("reads the rate from a rates endpoint's answer only when it names US dollars as its base and the rate is within bounds", () => {
    expect(rateFromAnswer({ amount: 1, base: "USD", date: "2026-11-27", rates: { INR: 84.12 } })).toBe(84.12);
    expect(rateFromAnswer({ rates: { INR: 84.12 } })).toBeNull();
    expect(rateFromAnswer({ base: "EUR", rates: { INR: 90.1 } })).toBeNull();
    expect(rateFromAnswer({ base: "USD", rates: { INR: "84.12" } })).toBeNull();
    expect(rateFromAnswer({ base: "USD", rates: { INR: 0 } })).toBeNull();
    expect(rateFromAnswer({ base: "USD", rates: { INR: 5000 } })).toBeNull();
    expect(rateFromAnswer({ base: "USD", rates: {} })).toBeNull();
    expect(rateFromAnswer(null)).toBeNull();
    expect(rateFromAnswer([84])).toBeNull();
  });
});
