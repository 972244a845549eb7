import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPglite, type TestDatabase } from "../support/db";
import { probeInputs, sqlPatternAsRegExp, sqlPatterns, worstCase } from "../support/patterns";

// The database's own checks (withdrawal recipients, push tokens, display names, ...) see what a
// stranger typed, so each pattern the database compares text with must read it in linear time: the
// patterns of supabase/schema/, the functions, constraints and tables as the migrations leave them
// (a pattern in a function a later migration redefined no longer runs, and a migration's one-off
// statements ran when it was applied).
// Each is analysed as the JavaScript pattern that matches the same text (recheck, bounded by
// steps, not a clock: tests/support/patterns.ts); that the translation matches what the database
// matches is checked here on every probe text. Postgres's engine is a DFA/NFA hybrid that
// backtracks only for back-references, which no migration uses, so a pattern linear for a
// backtracking engine is linear there too. (PGlite is Postgres's own engine, compiled.)
const found = sqlPatterns("supabase/schema");
const distinct = [...new Map(found.map((use) => [`${use.operator} ${use.pattern}`, use])).values()];
const named = (use: (typeof distinct)[number]) => [`${use.operator} '${use.pattern}' (${use.where})`, use] as const;

describe("every pattern in supabase/schema/ reads a stranger's text in linear time", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPglite();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("finds the patterns of the schema (regular expressions, SIMILAR TO, LIKE), none with a back-reference", () => {
    expect(distinct.length).toBeGreaterThan(5);
    expect(found.some((use) => use.pattern.includes("[:space:]") && use.operator === "~")).toBe(true);
    expect(found.some((use) => use.where.startsWith("supabase/schema/tables/"))).toBe(true);
    expect(distinct.filter((use) => /\\[1-9]/.test(use.pattern)).map((use) => use.where)).toEqual([]);
  });

  it.each(distinct.map(named))("%s is linear, as the JavaScript pattern that matches the same text", (_, use) => {
    const regex = sqlPatternAsRegExp(use);
    const verdict = worstCase(regex.source, regex.flags);
    expect(verdict.status, `${regex}: ${verdict.explained}`).toBe("safe");
  });

  it.each(distinct.map(named))("%s matches in the database what its JavaScript translation matches", async (_, use) => {
    const regex = sqlPatternAsRegExp(use);
    const inputs = probeInputs(use.pattern);
    const rows = await t.sql<{ matched: boolean }>(
      `select input ${use.operator} $2::text as matched from unnest($1::text[]) with ordinality as probe(input, n) order by n`,
      [inputs, use.pattern],
    );
    const differing = inputs.filter((input, index) => rows[index]!.matched !== regex.test(input));
    expect(differing.map((input) => JSON.stringify(input))).toEqual([]);
  });
});
