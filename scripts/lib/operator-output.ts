// What the operator commands (scripts/payouts.ts, scripts/walls.ts) share: their output, and how a
// failure ends them: one line on stderr and a non-zero exit, never a stack trace.
//
// Everything goes out line by line through say/complain, which write every hidden character
// (controls, bidi overrides, zero-width characters) as an escape (`\u001b`, `\n`, `\u202e`):
// recipients are typed by users, and one with ESC[2K or ESC[8m in it erased or hid the lines
// around it, the abuse warnings among them. Rows stored before SQL refused them may hold such
// characters still; postbacks' reasons quote what a sender sent.
import { escapeHiddenCharacters } from "~/domain/hidden-characters";
import { DbError, MigrationsPendingError, ruleViolation } from "~/server/db/core.server";

/** Lines on stdout; a line break inside one is shown as `\n`, never obeyed. */
export function say(...lines: string[]) {
  console.log(lines.map(escapeHiddenCharacters).join("\n"));
}

/** One line on stderr, escaped as say does. */
export function complain(line: string) {
  console.error(escapeHiddenCharacters(line));
}

/** JSON, indented; JSON.stringify already escapes C0 controls, say the rest (as \uXXXX, still JSON). */
export function sayJson(value: unknown) {
  say(...JSON.stringify(value, null, 2).split("\n"));
}

/** "2026-11-23 10:04 UTC" from a timestamp; "2026-11-23 10:04:31 UTC" to the second. */
export function when(timestamp: string | null, precision: "minute" | "second" = "minute"): string {
  if (!timestamp) return "";
  return (
    new Date(timestamp)
      .toISOString()
      .slice(0, precision === "second" ? 19 : 16)
      .replace("T", " ") + " UTC"
  );
}

/** Aligned columns; cells are escaped first, so the widths are those that will show. */
export function table(header: string[], rows: string[][]): string[] {
  const shown = rows.map((row) => row.map(escapeHiddenCharacters));
  const widths = header.map((title, column) => Math.max(title.length, ...shown.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd();
  return [line(header), ...shown.map(line)];
}

/** An operator's mistake in the command line itself: usage follows the message. */
export class UsageError extends Error {}

/** One line for the operator: what went wrong, in words they can act on. */
function describeError(error: unknown): string {
  const violation = ruleViolation(error);
  if (violation) return violation.message;
  if (error instanceof MigrationsPendingError) return error.message;
  if (error instanceof DbError) {
    return error.unavailable ? `cannot reach the database (${error.message})` : `database: ${error.message}`;
  }
  // A Response is what the server's modules throw for an unreachable service.
  if (error instanceof Response) return `service unavailable (${error.status})`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs a command and sets the process's exit code: what `main` returns, else 1 with `error: …` on
 * stderr (2 and a pointer to --help for a UsageError).
 */
export async function runOperatorCommand(npmScript: string, main: () => Promise<number>) {
  try {
    process.exitCode = await main();
  } catch (error) {
    complain(`error: ${describeError(error)}`);
    if (error instanceof UsageError) complain(`Run \`npm run ${npmScript} -- --help\` for the commands.`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  }
}
