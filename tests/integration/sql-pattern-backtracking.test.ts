import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPglite, openTestPostgres, type TestDatabase } from "../support/db";
import { SLOW_MS, adversarialInputs, describeInput, slowestInput, sqlPatterns } from "../support/patterns";

// The database's own checks (withdrawal recipients, push tokens, display names, ...) see what a
// stranger typed, so each pattern the migrations compare text with is fed 64 KB adversarial strings
// and must answer each within 250 ms (SLOW_MS; the round trip included: under a millisecond on this machine).
const found = sqlPatterns("supabase/migrations");
const distinct = [...new Map(found.map((use) => [`${use.operator} ${use.pattern}`, use])).values()];

describe.each([
  ["PGlite", openTestPglite],
  ["Postgres", () => openTestPostgres(1)],
])("every pattern in supabase/migrations/ answers 64 KB adversarial input in linear time (%s)", (_, open) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("finds the patterns of the migrations (regular expressions, SIMILAR TO, LIKE)", () => {
    expect(distinct.length).toBeGreaterThan(5);
    expect(found.some((use) => use.pattern.includes("[:space:]") && use.operator === "~")).toBe(true);
  });

  it.each(distinct.map((use) => [`${use.operator} '${use.pattern}' (${use.where})`, use] as const))(
    "%s",
    async (_, use) => {
      const slowest = await slowestInput(adversarialInputs(use.pattern), (input) =>
        t.sql(`select $1::text ${use.operator} $2::text as matched`, [input, use.pattern]),
      );
      expect(slowest.ms, `slowest: ${describeInput(slowest.input)}`).toBeLessThan(SLOW_MS);
    },
    120_000,
  );
});
