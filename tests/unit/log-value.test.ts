import { describe, expect, it } from "vitest";
import { logValue } from "~/server/runtime/log.server";

describe("logValue: request values written to logs", () => {
  it("escapes newlines so a value cannot start a forged log line", () => {
    const logged = logValue("tx1\npostback from acme accepted");
    expect(logged).not.toContain("\n");
    expect(logged).toBe('"tx1\\npostback from acme accepted"');
  });

  it("escapes carriage returns, terminal escapes, C1 controls and Unicode line separators", () => {
    const logged = logValue("a\r\u001b[31mb\u0085c\u2028d");
    expect(logged).toBe('"a\\r\\u001b[31mb\\u0085c\\u2028d"');
  });

  it("cuts a long value short and says how long it was", () => {
    const logged = logValue("x".repeat(1000), 10);
    expect(logged).toBe('"xxxxxxxxxx"…(1000 chars)');
  });

  it("does not split a surrogate pair when cutting", () => {
    expect(logValue("abc😀def", 4)).toBe('"abc"…(8 chars)');
  });

  it("shows a missing value as a dash", () => {
    expect(logValue(undefined)).toBe("-");
    expect(logValue(null)).toBe("-");
  });
});
