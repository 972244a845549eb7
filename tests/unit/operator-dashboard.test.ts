import { describe, expect, it } from "vitest";
import { axisValues, columnTotals, niceCeiling, sharePercent, stackedColumns } from "~/domain/chart-geometry";
import {
  dailyValues,
  formatShare,
  reversalShare,
  retentionShare,
  seriesSummary,
  windowSums,
  type DashboardData,
} from "~/domain/operator-dashboard";

// The dashboard's arithmetic (docs/operator-console.md, "Dashboard"): the charts' geometry, drawn by
// the server as SVG, and what the page computes from operator_dashboard's sums.

describe("chart geometry", () => {
  it("tops the axis with the smallest 1, 2, 2.5 or 5 times a power of ten at least the largest value", () => {
    expect([1, 2, 3, 7, 10, 11, 21, 26, 99, 101, 2_400, 12_345].map(niceCeiling)).toEqual([
      1, 2, 5, 10, 10, 20, 25, 50, 100, 200, 2_500, 20_000,
    ]);
    // Floating point does not push an exact step to the next one (0.3 / 0.1 is 2.9999999999999996).
    expect(niceCeiling(0.3)).toBe(0.5);
    expect(niceCeiling(0.25)).toBeCloseTo(0.25, 12);
  });

  it("gives an axis of 1 when there is nothing to show, whatever the input", () => {
    for (const value of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) expect(niceCeiling(value)).toBe(1);
  });

  it("labels the axis with its top, its half when whole, and 0", () => {
    expect(axisValues(10)).toEqual([10, 5, 0]);
    expect(axisValues(5)).toEqual([5, 0]);
    expect(axisValues(5, { fractional: true })).toEqual([5, 2.5, 0]);
  });

  it("adds each day's series up, counting below-zero values as zero", () => {
    expect(
      columnTotals([
        [1, 2, 3],
        [4, -1],
        [0, 0, 5],
      ]),
    ).toEqual([5, 2, 8]);
    expect(columnTotals([])).toEqual([]);
  });

  it("stacks each day's series bottom-up in a slot of width / days, leaving the gap half on each side", () => {
    const [first, second] = stackedColumns(
      [
        [10, 0, 50],
        [30, 20, 80],
      ],
      { width: 30, height: 100, max: 100, gap: 0.2 },
    );
    expect(first).toEqual([
      { x: 1, y: 90, width: 8, height: 10 },
      { x: 11, y: 100, width: 8, height: 0 },
      { x: 21, y: 50, width: 8, height: 50 },
    ]);
    // The third day's 50 + 80 passes the top (100): its second part is cut there.
    expect(second).toEqual([
      { x: 1, y: 60, width: 8, height: 30 },
      { x: 11, y: 80, width: 8, height: 20 },
      { x: 21, y: 0, width: 8, height: 50 },
    ]);
  });

  it("draws a below-zero value as nothing", () => {
    const [only] = stackedColumns([[-5, 5]], { width: 20, height: 100, max: 10, gap: 0 });
    expect(only).toEqual([
      { x: 0, y: 100, width: 10, height: 0 },
      { x: 10, y: 50, width: 10, height: 50 },
    ]);
  });

  it("gives a share bar's length in percent of the longest, within 0 and 100", () => {
    expect(sharePercent(25, 100)).toBe(25);
    expect(sharePercent(150, 100)).toBe(100);
    expect(sharePercent(-3, 100)).toBe(0);
    expect(sharePercent(3, 0)).toBe(0);
  });
});

const DATA: DashboardData = {
  as_of: "2026-11-27T10:00:00Z",
  today: "2026-11-27",
  accounts: 3,
  windows: {
    "ledger:postback": {
      day: { n: 2, coins: 500, amount: 5 },
      week: { n: 3, coins: 800, amount: 8 },
      month: { n: 4, coins: 1000, amount: 10 },
    },
  },
  days: [
    { day: "2026-11-25", counts: { signups: { n: 2, coins: 0, amount: 0 } } },
    { day: "2026-11-26", counts: {} },
    { day: "2026-11-27", counts: { signups: { n: 5, coins: 0, amount: 0 } } },
  ],
  liabilities: { balances: 0, pending: 0, available: 0, negative: { n: 0, amount: 0 } },
  withdrawals: {
    review: { n: 0, amount: 0, oldest_at: null },
    unpaid: { n: 0, amount: 0, oldest_at: null },
    sent: { n: 0, amount: 0 },
  },
  loops: {
    levels: { on: true, cap: 500, paid: 12.5, stopped: false },
    goals: { on: true, cap: 1000, paid: 0, stopped: false },
    codes: { on: false, cap: 500, paid: 0, stopped: false },
    prizes: { on: true, cap: 100, paid: 0, stopped: false },
  },
  retention: [{ week: "2026-11-23", signups: 8, d1: 3, d7: null, d30: null }],
  bonus: { total: 10, unlocked: 2.5 },
};

describe("the dashboard's figures", () => {
  it("reads a counter's window, and zero for a counter that counted nothing", () => {
    expect(windowSums(DATA, "ledger:postback", "week")).toEqual({ n: 3, coins: 800, amount: 8 });
    expect(windowSums(DATA, "ledger:task", "month")).toEqual({ n: 0, coins: 0, amount: 0 });
  });

  it("lists a counter day by day, oldest first, with zero for a day without it", () => {
    expect(dailyValues(DATA, "signups", "n")).toEqual([2, 0, 5]);
  });

  it("gives the reversed share of offer money in percent to one decimal, and none when nothing was credited", () => {
    expect(reversalShare(-2, 5)).toBe(40);
    expect(reversalShare(-1, 3)).toBe(33.3);
    expect(reversalShare(0, 8)).toBe(0);
    expect(reversalShare(-2, 0)).toBeNull();
    expect(formatShare(33.3)).toBe("33.3 %");
    expect(formatShare(null)).toBe("—");
  });

  it("gives retention as a share of the week's sign-ups, and none before the week is old enough or without sign-ups", () => {
    expect(retentionShare(3, 8)).toBe(37.5);
    expect(retentionShare(1, 3)).toBe(33.3);
    expect(retentionShare(null, 8)).toBeNull();
    expect(retentionShare(0, 0)).toBeNull();
  });

  it("describes a chart in words: the total, the days, and the first day with the most", () => {
    const days = DATA.days.map((day) => day.day);
    expect(seriesSummary(days, [2, 0, 5], String)).toBe("7 in all from Nov 25 to Nov 27; the most, 5, on Nov 27");
    expect(seriesSummary(days, [3, 3, 0], String)).toBe("6 in all from Nov 25 to Nov 27; the most, 3, on Nov 25");
    expect(seriesSummary(days, [0, 0, 0], String)).toBe("none from Nov 25 to Nov 27");
  });
});
