import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * Every pattern a stranger's text can meet must answer in linear time. These helpers find the
 * patterns in the sources (regular-expression literals and `new RegExp(...)` in app/, regular
 * expressions, SIMILAR TO and LIKE in supabase/migrations/) and make the inputs that make a
 * backtracking pattern slow: 64 KB of one character or of a pair, with a prefix a pattern may
 * want first ("a@") and an ending it refuses.
 */
export const ADVERSARIAL_LENGTH = 64 * 1024;
/**
 * The longest one check may take. A backtracking pattern does quadratic work on 64 KB: billions of
 * steps, seconds (`/\/+$/` took 2.9 s here, the old money grouping 3.2 s). A linear check takes a
 * few milliseconds, or tens when it builds its output (escaping 64 KB of hidden characters); on a
 * machine running two suites at once that escaping took 253 ms, best of three. 1,000 ms still tells
 * the two apart (backtracking is seconds) without failing a run that shares its cores.
 */
export const SLOW_MS = 1000;

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

// Characters that a pattern's classes and escapes commonly accept, plus some it likely refuses.
const BASE_CHARACTERS = ["a", "A", "0", ".", "@", "/", "-", "_", " ", "\t", "=", "%", ":", "é", "\u202e"];
const PREFIXES = ["", "a@", "a", "/"];
// (Postgres text cannot hold NUL, so U+0001 stands for a control character.)
const ENDINGS = ["!", "@", "\u0001", ""];

function fill(unit: string): string {
  return unit.repeat(Math.ceil(ADVERSARIAL_LENGTH / unit.length)).slice(0, ADVERSARIAL_LENGTH);
}

/**
 * Inputs of about 64 KB for a pattern written as `source`: runs of each character it names (and
 * of the common ones), runs of pairs, each behind a prefix and before an ending that breaks a match.
 */
export function adversarialInputs(source: string): string[] {
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
      if (first !== second) for (const ending of ["!", "@"]) inputs.add(fill(first + second) + ending);
    }
  }
  return [...inputs];
}

/** The slowest run of `check` over `inputs`, each timed at most three times (the fastest counts), stopping at the first slow one. */
export async function slowestInput(
  inputs: string[],
  check: (input: string) => unknown,
): Promise<{ ms: number; input: string }> {
  let slowest = { ms: 0, input: "" };
  for (const input of inputs) {
    let best = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 3 && best > SLOW_MS; attempt++) {
      const start = performance.now();
      await check(input);
      best = Math.min(best, performance.now() - start);
    }
    if (best > slowest.ms) slowest = { ms: best, input };
    if (best > SLOW_MS) break;
  }
  return slowest;
}

/** An input shown in a failure: its start, its length and its end. */
export function describeInput(input: string): string {
  return `${JSON.stringify(input.slice(0, 12))}… (${input.length} characters) …${JSON.stringify(input.slice(-4))}`;
}
