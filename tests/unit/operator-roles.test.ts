import { describe, expect, it } from "vitest";
import { isOperatorRole, RECENT_SIGN_IN_SECONDS, roleAtLeast, signedInRecently } from "~/domain/operator-roles";

// app/domain/operator-roles.ts: the console's roles ranked as SQL ranks them, and the recent sign-in
// money actions will need (issue 20: within the last 15 minutes of the session's auth_time).

const NOW_MS = Date.UTC(2026, 11, 2, 12, 0, 0);
const secondsAgo = (seconds: number) => NOW_MS / 1000 - seconds;

describe("operator roles", () => {
  it("ranks support < finance < owner: each role may do what the ones below it may", () => {
    expect(roleAtLeast("owner", "finance")).toBe(true);
    expect(roleAtLeast("finance", "support")).toBe(true);
    expect(roleAtLeast("support", "support")).toBe(true);
    expect(roleAtLeast("support", "finance")).toBe(false);
    expect(roleAtLeast("finance", "owner")).toBe(false);
  });

  it("takes only the three role names as a claim, nothing else", () => {
    expect(["owner", "finance", "support"].every(isOperatorRole)).toBe(true);
    for (const value of ["admin", "Owner", "", null, undefined, 1, ["owner"]])
      expect(isOperatorRole(value)).toBe(false);
  });
});

describe("signedInRecently: a sign-in within the last 15 minutes", () => {
  it("is recent just after signing in and up to 15 minutes later", () => {
    expect(RECENT_SIGN_IN_SECONDS).toBe(900);
    expect(signedInRecently(secondsAgo(0), NOW_MS)).toBe(true);
    expect(signedInRecently(secondsAgo(14 * 60 + 59), NOW_MS)).toBe(true);
    expect(signedInRecently(secondsAgo(15 * 60), NOW_MS)).toBe(true);
  });

  it("is not recent a second after 15 minutes, or days later", () => {
    expect(signedInRecently(secondsAgo(15 * 60 + 1), NOW_MS)).toBe(false);
    expect(signedInRecently(secondsAgo(3 * 24 * 3600), NOW_MS)).toBe(false);
  });

  it("does not count a sign-in time more than a minute in the future, or one that is no number", () => {
    expect(signedInRecently(secondsAgo(-30), NOW_MS)).toBe(true);
    expect(signedInRecently(secondsAgo(-3600), NOW_MS)).toBe(false);
    expect(signedInRecently(Number.NaN, NOW_MS)).toBe(false);
  });
});
