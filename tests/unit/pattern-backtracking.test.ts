import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { escapeHiddenCharacters, hasHiddenCharacters } from "~/domain/hidden-characters";
import { isReferralCode } from "~/domain/referral-code";
import {
  ADVERSARIAL_LENGTH,
  SLOW_MS,
  adversarialInputs,
  appPatterns,
  describeInput,
  slowestInput,
} from "../support/patterns";

// A pattern that backtracks turns one request into seconds of a busy event loop (the feedback
// form's email check took 2.3 s on "a@" + "." × 65,000 + "@"). Every pattern written in app/ is fed
// 64 KB adversarial strings and must answer each within SLOW_MS (1 s) (backtracking takes seconds; see SLOW_MS).
const { patterns, computed } = appPatterns("app");

// Patterns computed at run time, each checked through the function that uses it.
const COMPUTED: { file: string; expression: string; check: (input: string) => unknown; source: string }[] = [
  {
    file: "app/domain/hidden-characters.ts",
    expression: 'new RegExp(HIDDEN_CHARACTER_CLASS, "u")',
    check: hasHiddenCharacters,
    source: "\u0000\u001f\u007f\u009f\u00ad\u200b\u202e\u2066\ufeff",
  },
  {
    file: "app/domain/hidden-characters.ts",
    expression: 'new RegExp(HIDDEN_CHARACTER_CLASS, "gu")',
    check: escapeHiddenCharacters,
    source: "\u0000\u001b\u007f\u009f\u00ad\u200b\u202e\u2066\ufeff",
  },
  {
    file: "app/domain/referral-code.ts",
    expression: "new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`)",
    check: isReferralCode,
    source: "ABCDEFGHJKLMNPQRSTUVWXYZ23456789",
  },
];

describe("every pattern in app/ answers 64 KB adversarial input in linear time", () => {
  it("finds the patterns (regular-expression literals and new RegExp) in app/", () => {
    expect(patterns.length).toBeGreaterThan(20);
    expect(patterns.some((pattern) => pattern.where.startsWith("app/domain/email.ts"))).toBe(true);
  });

  it("knows every computed RegExp in app/ (a new one must be listed here to be tested)", () => {
    expect(computed.map(({ file, expression }) => `${file}: ${expression}`)).toEqual(
      COMPUTED.map(({ file, expression }) => `${file}: ${expression}`),
    );
  });

  it("uses no zod string format whose pattern is hidden in zod (email, emoji, ...): the app's own rules are written out", () => {
    const hidden = /\b(?:email|emoji|cuid2?|ulid|nanoid|guid|e164|jwt|hostname|base64url|base64|ipv4|ipv6)\(/;
    const zodUsers = appPatterns("app")
      .patterns.map(({ where }) => where.split(":")[0]!)
      .filter((file, index, all) => all.indexOf(file) === index);
    for (const file of zodUsers) {
      const text = readFileSync(file, "utf8");
      if (text.includes('from "zod')) expect(text, file).not.toMatch(hidden);
    }
  });

  it.each(patterns.map((pattern) => [`/${pattern.source}/${pattern.flags} at ${pattern.where}`, pattern] as const))(
    "%s",
    async (_, pattern) => {
      const regex = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ""));
      const slowest = await slowestInput(adversarialInputs(pattern.source), (input) => regex.test(input));
      expect(slowest.ms, `slowest: ${describeInput(slowest.input)}`).toBeLessThan(SLOW_MS);
    },
  );

  it.each(COMPUTED.map((pattern) => [`${pattern.expression} in ${pattern.file}`, pattern] as const))(
    "the computed pattern %s",
    async (_, { check, source }) => {
      const slowest = await slowestInput(adversarialInputs(source), check);
      expect(slowest.ms, `slowest: ${describeInput(slowest.input)}`).toBeLessThan(SLOW_MS);
    },
  );

  it("the inputs include the one that made the old feedback email check backtrack for seconds", () => {
    const inputs = adversarialInputs(String.raw`^[^@\s]+@[^@\s]+\.[^@\s]+$`);
    expect(inputs).toContain("a@" + ".".repeat(ADVERSARIAL_LENGTH) + "@");
  });
});
