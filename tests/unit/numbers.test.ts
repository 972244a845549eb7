import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { formatNumber, groupDigits, onFirstUse } from "~/domain/numbers";
import { monthName } from "~/domain/prizes";

describe("formatNumber", () => {
  it("writes numbers exactly as Intl's plain en-US format does, whole or not", () => {
    const intl = new Intl.NumberFormat("en-US");
    const values = [0, 1, -1, 7, 999, 1000, -1000, 12_345, 999_999, 1_000_000, -1_234_567, 2 ** 53 - 1, 2 ** 60];
    for (const value of [...values, 0.5, 1234.5678, -0.0004, 1e21, Number.NaN, Infinity]) {
      expect(formatNumber(value), String(value)).toBe(intl.format(value));
    }
  });
});

describe("groupDigits", () => {
  it("groups from the right in threes or, for rupees' lakhs and crores, in pairs", () => {
    expect(["1", "12", "123", "1234", "1234567"].map((digits) => groupDigits(digits, 3))).toEqual([
      "1",
      "12",
      "123",
      "1,234",
      "1,234,567",
    ]);
    expect(["1", "12", "123", "1234", "12345"].map((digits) => groupDigits(digits, 2))).toEqual([
      "1",
      "12",
      "1,23",
      "12,34",
      "1,23,45",
    ]);
  });
});

describe("monthName", () => {
  it("writes a month's name and year exactly as Intl's en-US long month in UTC does, without Intl", () => {
    const intl = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
    for (let month = 0; month < 24; month++) {
      const first = new Date(Date.UTC(2026, month, 1));
      expect(monthName(first.toISOString().slice(0, 10))).toBe(intl.format(first));
    }
    expect(monthName("2021-04-01T00:00:00+00:00")).toBe("April 2021");
  });
});

describe("onFirstUse", () => {
  it("makes its value on the first call, not before, and only once", () => {
    const make = vi.fn(() => ({}));
    const value = onFirstUse(make);
    expect(make).not.toHaveBeenCalled();
    const first = value();
    expect(value()).toBe(first);
    expect(make).toHaveBeenCalledTimes(1);
  });
});

// The first Intl object a page makes loads the locale data (docs/decisions/103): no module the
// browser runs may make one while it is evaluated, or the page's module evaluation waits for it.
describe("the browser's modules make no Intl object while they are evaluated", () => {
  const files = (directory: string, pattern: RegExp): string[] =>
    readdirSync(directory, { recursive: true, encoding: "utf8" })
      .filter((name) => pattern.test(name) && !/\.server\.tsx?$|\.client\.tsx?$/.test(name))
      .map((name) => path.join(directory, name));

  it("app/domain, app/components and the routes' screens import without constructing an Intl formatter", async () => {
    const modules = [
      ...files("app/domain", /\.ts$/),
      ...files("app/components", /\.tsx?$/),
      ...files("app/routes", /(Screen|Page)\.tsx$/),
    ];
    expect(modules.length).toBeGreaterThan(60);
    const made: string[] = [];
    const kinds = [
      "NumberFormat",
      "DateTimeFormat",
      "PluralRules",
      "RelativeTimeFormat",
      "Collator",
      "ListFormat",
    ] as const;
    const originals = kinds.map((kind) => [kind, Intl[kind]] as const);
    for (const [kind, original] of originals) {
      vi.spyOn(Intl, kind).mockImplementation(((...args: never[]) => {
        made.push(kind);
        return new (original as unknown as new (...rest: never[]) => object)(...args);
      }) as never);
    }
    try {
      vi.resetModules();
      for (const module of modules) {
        await import(/* @vite-ignore */ path.resolve(module));
        expect(made, module).toEqual([]);
      }
    } finally {
      vi.restoreAllMocks();
    }
  });
});
