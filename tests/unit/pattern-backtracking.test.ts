import { EMAIL_CODE_PATTERN } from "~/domain/email-codes";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HIDDEN_CHARACTER_CLASS } from "~/domain/hidden-characters";
import { REFERRAL_CODE_PATTERN } from "~/domain/referral-code";
import { appPatterns, worstCase } from "../support/patterns";

// A pattern that backtracks turns one request into seconds of a busy event loop (the feedback
// form's email check took 2.3 s on "a@" + "." × 65,000 + "@"). Every pattern written in app/ is
// analysed by recheck (tests/support/patterns.ts), by its steps rather than by a clock, and must
// be linear or constant in the length of what it reads.
const { patterns, computed } = appPatterns("app");

// Patterns computed at run time, each analysed as the module builds it.
const COMPUTED: { file: string; expression: string; source: string; flags: string }[] = [
  {
    file: "app/domain/email-codes.ts",
    expression: "new RegExp(`^[0-9]{${EMAIL_CODE_LENGTH}}$`)",
    source: EMAIL_CODE_PATTERN.source,
    flags: "",
  },
  {
    file: "app/domain/hidden-characters.ts",
    expression: 'new RegExp(HIDDEN_CHARACTER_CLASS, "u")',
    source: HIDDEN_CHARACTER_CLASS,
    flags: "u",
  },
  {
    file: "app/domain/hidden-characters.ts",
    expression: 'new RegExp(HIDDEN_CHARACTER_CLASS, "gu")',
    source: HIDDEN_CHARACTER_CLASS,
    flags: "gu",
  },
  {
    file: "app/domain/referral-code.ts",
    expression: "new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`)",
    source: REFERRAL_CODE_PATTERN.source,
    flags: REFERRAL_CODE_PATTERN.flags,
  },
];

describe("every pattern in app/ reads a stranger's text in linear time", () => {
  it("finds the patterns (regular-expression literals and new RegExp) in app/", () => {
    expect(patterns.length).toBeGreaterThan(20);
    expect(patterns.some((pattern) => pattern.where.startsWith("app/domain/email.ts"))).toBe(true);
  });

  it("knows every computed RegExp in app/ (a new one must be listed here to be analysed)", () => {
    expect(computed.map(({ file, expression }) => `${file}: ${expression}`)).toEqual(
      COMPUTED.map(({ file, expression }) => `${file}: ${expression}`),
    );
  });

  it("uses no zod string format whose pattern is hidden in zod (email, emoji, ...): the app's own rules are written out", () => {
    const hidden = /\b(?:email|emoji|cuid2?|ulid|nanoid|guid|e164|jwt|hostname|base64url|base64|ipv4|ipv6)\(/;
    const zodUsers = patterns
      .map(({ where }) => where.split(":")[0]!)
      .filter((file, index, all) => all.indexOf(file) === index);
    for (const file of zodUsers) {
      const text = readFileSync(file, "utf8");
      if (text.includes('from "zod')) expect(text, file).not.toMatch(hidden);
    }
  });

  it.each([
    // The feedback form's old email check: 2.3 s on "a@" + "." × 65,000 + "@".
    String.raw`^[^@\s]+@[^@\s]+\.[^@\s]+$`,
    // An old trailing-slash trim: 2.9 s on 64 KB of "/" and a letter.
    String.raw`\/+$`,
    // The old zone-index cut of addressKey: quadratic on "%" × n before a line break.
    String.raw`%.*$`,
    // Nested repetition: exponential.
    String.raw`^(a+)+$`,
  ])("finds the backtracking in /%s/, a pattern of the kind that once slowed this app", (source) => {
    expect(worstCase(source, "").status).toBe("vulnerable");
  });

  it.each(patterns.map((pattern) => [`/${pattern.source}/${pattern.flags} at ${pattern.where}`, pattern] as const))(
    "%s",
    (_, pattern) => {
      const verdict = worstCase(pattern.source, pattern.flags);
      expect(verdict.status, verdict.explained).toBe("safe");
    },
  );

  it.each(COMPUTED.map((pattern) => [`${pattern.expression} in ${pattern.file}`, pattern] as const))(
    "the computed pattern %s",
    (_, { source, flags }) => {
      const verdict = worstCase(source, flags);
      expect(verdict.status, verdict.explained).toBe("safe");
    },
  );
});
