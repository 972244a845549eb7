import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * Every pattern a stranger's text can meet must answer in linear time. These helpers find the
 * patterns in the sources (regular-expression literals and `new RegExp(...)` in app/, regular
 * expressions, SIMILAR TO and LIKE in supabase/schema/) and ask recheck, a ReDoS analyser, for
 * each one's worst case. The analysis is bounded by work, not by a clock: the automaton check is
 * pure structure, and the fuzzing check counts the steps of its own matching machine. So a
 * busy machine cannot fail it, and it finds what timing missed (`/%.*$/` on a run of "%" before a
 * line break is quadratic; no 64 KB input tried by the old timed test had that line break).
 */
import { checkSync, type Diagnostics } from "recheck";

/**
 * recheck's settings: every time limit off (a check ends on its step limits alone, the same on any
 * machine), the recall check skipped (it would run the attack in the real engine, timed), a fixed
 * seed for the fuzzing check.
 */
const ANALYSIS = {
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  recallTimeout: -1,
  randomSeed: 0,
} as const;

/** recheck's verdict on a JavaScript pattern: "safe" (linear or constant) or why not. */
export function worstCase(source: string, flags: string): { status: Diagnostics["status"]; explained: string } {
  const result = checkSync(source, flags.replace(/[gy]/g, ""), ANALYSIS);
  if (result.status === "safe") return { status: "safe", explained: result.complexity.summary };
  if (result.status === "vulnerable") {
    return {
      status: "vulnerable",
      explained: `${result.complexity.summary} (${result.checker}), e.g. ${result.attack.pattern}`,
    };
  }
  return { status: "unknown", explained: String(result.error?.kind ?? result.error) };
}

function filesUnder(dir: string, extensions: string[]): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return filesUnder(file, extensions);
    return extensions.some((extension) => name.endsWith(extension)) ? [file] : [];
  });
}

export interface SourcePattern {
  /** Where it is written, `file:line`. */
  where: string;
  source: string;
  flags: string;
}

/** A `new RegExp(...)` whose pattern is computed: the file, and the expression as written. */
export interface ComputedPattern {
  file: string;
  expression: string;
}

/** The regular-expression literals and `new RegExp("...")` patterns of every .ts/.tsx file under `dir`. */
export function appPatterns(dir: string): { patterns: SourcePattern[]; computed: ComputedPattern[] } {
  const patterns: SourcePattern[] = [];
  const computed: ComputedPattern[] = [];
  for (const file of filesUnder(dir, [".ts", ".tsx"])) {
    const text = readFileSync(file, "utf8");
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node) =>
      `${path.relative(process.cwd(), file)}:${sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node) => {
      if (ts.isRegularExpressionLiteral(node)) {
        const end = node.text.lastIndexOf("/");
        patterns.push({ where: where(node), source: node.text.slice(1, end), flags: node.text.slice(end + 1) });
      } else if (
        (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === "RegExp"
      ) {
        const [first, second] = node.arguments ?? [];
        if (first && ts.isStringLiteralLike(first) && (!second || ts.isStringLiteralLike(second))) {
          patterns.push({ where: where(node), source: first.text, flags: second?.text ?? "" });
        } else {
          computed.push({ file: path.relative(process.cwd(), file), expression: node.getText() });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return { patterns, computed };
}

export interface SqlPattern {
  where: string;
  /** The operator as SQL writes it: `~`, `~*`, `similar to`, `like`, ... (`!~` is tested as `~`). */
  operator: "~" | "~*" | "similar to" | "like" | "ilike";
  pattern: string;
}

const SQL_STRING = String.raw`'((?:[^']|'')*)'`;
const SQL_PATTERN_USES = new RegExp(
  String.raw`(!?~\*?|\bnot\s+similar\s+to\b|\bsimilar\s+to\b|\bnot\s+i?like\b|\bi?like\b)\s*${SQL_STRING}` +
    String.raw`|\bregexp_\w+\s*\([^,()]+,\s*${SQL_STRING}`,
  "gi",
);

/** Every pattern the migrations under `dir` compare text with (each file, each use). */
export function sqlPatterns(dir: string): SqlPattern[] {
  const found: SqlPattern[] = [];
  for (const file of filesUnder(dir, [".sql"])) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(SQL_PATTERN_USES)) {
      const line = text.slice(0, match.index).split("\n").length;
      if (text.slice(text.lastIndexOf("\n", match.index) + 1, match.index).includes("--")) continue; // a comment
      const where = `${path.relative(process.cwd(), file)}:${line}`;
      const raw = (match[2] ?? match[3])!.replaceAll("''", "'");
      const written = (match[1] ?? "~").toLowerCase().replace(/\s+/g, " ");
      const operator = written.startsWith("regexp")
        ? "~"
        : written.includes("similar")
          ? "similar to"
          : written.includes("ilike")
            ? "ilike"
            : written.includes("like")
              ? "like"
              : written.includes("*")
                ? "~*"
                : "~";
      found.push({ where, operator, pattern: raw });
    }
  }
  return found;
}

/**
 * A migration's pattern as the JavaScript pattern that matches the same text, so one analysis
 * covers both: POSIX classes as the characters they stand for, `\U0001bca0` as `\u{1bca0}`, LIKE's `%` and `_` as `.*`
 * and `.`. Postgres's regular expressions are ARE: `.` matches a line break and `$` is only the
 * end (the `s` flag, no `m`). The equivalence is checked against the database itself
 * (tests/integration/sql-pattern-backtracking.test.ts).
 */
export function sqlPatternAsRegExp({ operator, pattern }: SqlPattern): RegExp {
  if (operator === "like" || operator === "ilike") {
    const body = [...pattern]
      .map((character) =>
        character === "%" ? ".*" : character === "_" ? "." : character.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("");
    return new RegExp(`^${body}$`, operator === "ilike" ? "isu" : "su");
  }
  if (operator === "similar to") throw new Error(`SIMILAR TO is not translated yet: ${pattern}`);
  const source = pattern
    // The database's classes as PGlite reads them (the C locale: ASCII's spaces and controls).
    .replaceAll("[:space:]", String.raw` \t\n\v\f\r`)
    .replaceAll("[:cntrl:]", String.raw`\x00-\x1f\x7f`)
    .replace(/\\U0*([0-9a-fA-F]{1,6})/g, (_, hex: string) => `\\u{${hex}}`);
  return new RegExp(source, operator === "~*" ? "isu" : "su");
}

// Characters that a pattern's classes and escapes commonly accept, plus some it likely refuses.
const BASE_CHARACTERS = [
  "a",
  "A",
  "0",
  ".",
  "@",
  "/",
  "-",
  "_",
  " ",
  "\t",
  "\n",
  "=",
  "%",
  ":",
  "é",
  "\u00a0",
  "\u202e",
];
const PREFIXES = ["", "a@", "a", "/", "task:", "sim-", "v1."];
// (Postgres text cannot hold NUL, so U+0001 stands for a control character.)
const ENDINGS = ["!", "@", "\u0001", "\n", ""];

/**
 * Short texts that reach every part of a pattern written as `source`: runs of each character it
 * names (and of the common ones), runs of pairs, each behind a prefix and before an ending.
 */
export function probeInputs(source: string, length = 12): string[] {
  const fill = (unit: string) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  const named = new Set<string>();
  for (const character of source) {
    const code = character.codePointAt(0)!;
    if (code >= 0x20 && code !== 0x7f && !"\\^$()[]{}|?*+".includes(character)) named.add(character);
  }
  const characters = [...new Set([...BASE_CHARACTERS, ...named])];
  const inputs = new Set<string>();
  for (const character of characters) {
    for (const prefix of PREFIXES) for (const ending of ENDINGS) inputs.add(prefix + fill(character) + ending);
  }
  const paired = [...named].slice(0, 12);
  for (const first of [...paired, "a", "."]) {
    for (const second of [...paired, "a", ".", "@", "-"]) {
      if (first !== second) for (const ending of ["!", "@", ""]) inputs.add(fill(first + second) + ending);
    }
  }
  return [...inputs];
}
