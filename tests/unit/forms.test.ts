import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it, vi } from "vitest";
import { literal, object, string } from "zod/mini";
import { checkinDayStates, checkinStreakLine, timeUntilNextCheckin } from "~/domain/checkin";
import { formErrors } from "~/lib/form-replies";
import { DbError } from "~/server/db/core.server";
import { replyWithDbError } from "~/server/http/forms.server";

const schema = object({ intent: literal("withdraw"), amount: string() });

function submission(fields: Record<string, string> = { intent: "withdraw", amount: "3" }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return parseWithZod(form, { schema });
}

const refusal = (hint: string, details: string | null = null) =>
  new DbError("SQL text nobody reads", "P0001", details, hint);

describe("replyWithDbError: a database refusal as a form reply", () => {
  it("puts a broken rule's message on the field named for it, in the spec's words and with its detail", () => {
    const reply = replyWithDbError(submission(), refusal("below_minimum", "5.00"), {
      fields: { below_minimum: "amount" },
      fallback: "Please try again later",
      context: "test",
    });
    expect(reply.init?.status).toBe(400);
    expect(reply.data.error).toEqual({ amount: ["Minimum withdrawal amount is $5.00"] });
  });

  it("puts a rule without a field on the form's banner", () => {
    const reply = replyWithDbError(submission(), refusal("already_checked_in"), { fallback: "x", context: "test" });
    expect(reply.init?.status).toBe(400);
    expect(reply.data.error).toEqual({ "": ["Already checked in today!"] });
  });

  it("shows the fallback (500, logged) for anything that is not a rule, including a hint it does not know", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const error of [new Error("boom"), refusal("no_such_rule"), new DbError("dup", "23505")]) {
        const reply = replyWithDbError(submission(), error, { fallback: "Please try again later", context: "test" });
        expect(reply.init?.status).toBe(500);
        expect(reply.data.error).toEqual({ "": ["Please try again later"] });
      }
      expect(log).toHaveBeenCalledTimes(3);
    } finally {
      log.mockRestore();
    }
  });

  it("lets a 503 (database or Firebase unreachable) through as the page's answer", () => {
    const unavailable = new Response(null, { status: 503 });
    expect(() => replyWithDbError(submission(), unavailable, { fallback: "x", context: "test" })).toThrow(unavailable);
  });

  it("formErrors reads only the reply to the form whose button sent that intent", () => {
    const reply = submission().reply({ formErrors: ["No"] });
    expect(formErrors(reply, "withdraw")).toEqual(["No"]);
    expect(formErrors(reply, "checkin")).toBeUndefined();
    expect(formErrors(reply)).toEqual(["No"]);
    expect(formErrors(undefined, "withdraw")).toBeUndefined();
  });
});

describe("the check-in day", () => {
  it("opens at the next UTC midnight, shown in hours, or minutes in the last hour", () => {
    expect(timeUntilNextCheckin(new Date("2026-11-22T19:00:00Z"))).toBe("5 h");
    expect(timeUntilNextCheckin(new Date("2026-11-22T19:30:00Z"))).toBe("4 h");
    expect(timeUntilNextCheckin(new Date("2026-11-22T23:35:10Z"))).toBe("25 min");
    expect(timeUntilNextCheckin(new Date("2026-11-22T23:59:59Z"))).toBe("1 min");
    expect(timeUntilNextCheckin(new Date("2026-11-23T00:00:00Z"))).toBe("24 h");
  });
});

describe("the check-in streak (docs/decisions/072)", () => {
  const dollars = (coins: number) => `$${(coins / 100).toFixed(2)}`;
  const streak = (streakDay: number, checkedInToday: boolean, bonusPaidToday = 0, bonusCoins = 50) => ({
    streakDay,
    checkedInToday,
    bonusCoins,
    bonusPaidToday,
  });

  it("marks the days before today done, today as today until checked in, and the rest ahead", () => {
    expect(checkinDayStates(streak(3, false))).toEqual(["done", "done", "today", "ahead", "ahead", "ahead", "ahead"]);
    expect(checkinDayStates(streak(3, true))).toEqual(["done", "done", "done", "ahead", "ahead", "ahead", "ahead"]);
    expect(checkinDayStates(streak(1, false))).toEqual(["today", ...Array<string>(6).fill("ahead")]);
    expect(checkinDayStates(streak(7, true))).toEqual(Array<string>(7).fill("done"));
  });

  it("says the day of 7 and how many more days in a row pay the bonus, in coins and dollars", () => {
    expect(checkinStreakLine(streak(3, true), dollars)).toBe(
      "Day 3 of 7 · check in 4 more days in a row for a 50-coin bonus ($0.50).",
    );
    expect(checkinStreakLine(streak(6, true), dollars)).toBe(
      "Day 6 of 7 · check in 1 more day in a row for a 50-coin bonus ($0.50).",
    );
    expect(checkinStreakLine(streak(1, false), dollars)).toBe(
      "Day 1 of 7 · check in today and 6 more days in a row for a 50-coin bonus ($0.50).",
    );
    expect(checkinStreakLine(streak(7, false), dollars)).toBe(
      "Day 7 of 7 · check in today for a 50-coin bonus ($0.50).",
    );
  });

  it("says on day 7 that the bonus was paid, and never promises a bonus of 0 coins", () => {
    expect(checkinStreakLine(streak(7, true, 50), dollars)).toBe(
      "Day 7 of 7 · your 50-coin bonus ($0.50) was paid today. Tomorrow starts a new week at Day 1.",
    );
    expect(checkinStreakLine(streak(4, false, 0, 0), dollars)).toBe("Day 4 of 7 of your check-in streak.");
  });
});
