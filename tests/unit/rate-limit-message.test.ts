import { describe, expect, it } from "vitest";
import { RATE_LIMITS, rateLimitKey, tooManyAttemptsMessage } from "~/server/http/rate-limit.server";

describe("tooManyAttemptsMessage", () => {
  it.each([
    [0, "Too many attempts. Please try again in 1 minute."],
    [1, "Too many attempts. Please try again in 1 minute."],
    [60, "Too many attempts. Please try again in 1 minute."],
    [61, "Too many attempts. Please try again in 2 minutes."],
    [3600, "Too many attempts. Please try again in 60 minutes."],
    [Number.NaN, "Too many attempts. Please try again in 1 minute."],
  ])("says %s seconds as whole minutes rounded up, at least 1: %s", (seconds, message) => {
    expect(tooManyAttemptsMessage(seconds)).toBe(message);
  });
});

describe("tooManyAttemptsMessage for a slowed-down sign-in", () => {
  it.each([
    [0, "Too many attempts. Please try again in 1 second."],
    [1, "Too many attempts. Please try again in 1 second."],
    [9.2, "Too many attempts. Please try again in 10 seconds."],
    [60, "Too many attempts. Please try again in 60 seconds."],
  ])("says %s seconds as whole seconds rounded up, at least 1: %s", (seconds, message) => {
    expect(tooManyAttemptsMessage(seconds, "seconds")).toBe(message);
  });
});

describe("rate limit keys and rules", () => {
  it("stores `${rule.name}:${key}`, hashing keys that would pass the database's 200 characters", () => {
    expect(rateLimitKey(RATE_LIMITS.feedback, "user-1")).toBe("feedback:user-1");
    const long = rateLimitKey(RATE_LIMITS.signIn, `${"a".repeat(240)}@example.com`);
    expect(long).toMatch(/^sign-in:sha256:[0-9a-f]{64}$/);
    expect(rateLimitKey(RATE_LIMITS.signIn, `${"b".repeat(240)}@example.com`)).not.toBe(long);
  });

  it("names every rule uniquely with a positive limit and window", () => {
    const rules = Object.values(RATE_LIMITS);
    expect(new Set(rules.map((rule) => rule.name)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(rule.limit).toBeGreaterThan(0);
      expect(rule.windowSeconds).toBeGreaterThan(0);
      expect(`${rule.name}:x`.length).toBeLessThan(200);
    }
  });
});
