import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A migration that replaces a function shows only its new version; the reader who wants to know what
// changed, or what runs today, needs to be told which functions it replaces and where their current
// text is (supabase/schema/, written by `npm run db:snapshot`). Read from the files: no database.
const MIGRATIONS = "supabase/migrations";
const SCHEMA_FUNCTIONS = "supabase/schema/functions";

/** The functions a migration's SQL creates, as `public.<name>` (comments are not SQL). */
function functionsCreated(sql: string): string[] {
  const code = sql.replace(/--[^\n]*/g, "");
  const names = [...code.matchAll(/\bcreate\s+(?:or\s+replace\s+)?function\s+(?:public\.)?"?(\w+)"?\s*\(/gi)].map(
    (match) => `public.${match[1]!.toLowerCase()}`,
  );
  return [...new Set(names)];
}

/** The comment lines the file starts with, up to its first line that is not a comment. */
function leadingComment(sql: string): string[] {
  const lines = sql.split("\n");
  const end = lines.findIndex((line) => !line.startsWith("--"));
  return lines.slice(0, end === -1 ? lines.length : end);
}

/** The names of every `-- Redefines: public.a, public.b` line of the leading comment, or null with none. */
function declaredRedefinitions(sql: string): string[] | null {
  const lines = leadingComment(sql).filter((line) => /^--\s*Redefines:/i.test(line));
  if (lines.length === 0) return null;
  return lines.flatMap((line) =>
    line
      .replace(/^--\s*Redefines:/i, "")
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== ""),
  );
}

/** Where the current text of a function is: supabase/schema/functions/<name>.sql (<name>.<n>.sql for overloads). */
function currentText(name: string): string {
  const bare = name.replace(/^public\./, "");
  const files = existsSync(SCHEMA_FUNCTIONS)
    ? readdirSync(SCHEMA_FUNCTIONS).filter(
        (file) => file === `${bare}.sql` || new RegExp(`^${bare}\\.\\d+\\.sql$`).test(file),
      )
    : [];
  return files.length > 0
    ? files.map((file) => path.join(SCHEMA_FUNCTIONS, file)).join(", ")
    : `${SCHEMA_FUNCTIONS}/${bare}.sql (none now: dropped later)`;
}

/** Every migration that redefines a function an earlier one defined, with the functions it redefines. */
function redefinitions(files: { file: string; sql: string }[]) {
  const defined = new Set<string>();
  return files.map(({ file, sql }) => {
    const created = functionsCreated(sql);
    const redefined = created.filter((name) => defined.has(name));
    for (const name of created) defined.add(name);
    return { file, sql, redefined };
  });
}

/** What is wrong with a migration's Redefines line, or null when it names exactly what it redefines. */
function headerProblem(file: string, sql: string, redefined: string[]): string | null {
  const declared = declaredRedefinitions(sql);
  if (redefined.length === 0) {
    return declared === null
      ? null
      : `${file} redefines no earlier function, yet says "Redefines: ${declared.join(", ")}"`;
  }
  const where = redefined.map((name) => `  ${name}: current text in ${currentText(name)}`).join("\n");
  if (declared === null) {
    return (
      `${file} redefines functions of earlier migrations; start its leading comment with a line\n` +
      `  -- Redefines: ${redefined.join(", ")}\n` +
      `(read their current text before changing them:\n${where})`
    );
  }
  const missing = redefined.filter((name) => !declared.includes(name));
  const extra = declared.filter((name) => !redefined.includes(name));
  if (missing.length === 0 && extra.length === 0 && declared.length === redefined.length) return null;
  return (
    `${file}'s "Redefines:" line must name exactly the functions it redefines: ${redefined.join(", ")}` +
    (missing.length > 0 ? `\n  missing: ${missing.join(", ")}` : "") +
    (extra.length > 0 ? `\n  not redefined here: ${extra.join(", ")}` : "") +
    (declared.length !== new Set(declared).size ? `\n  named twice: ${declared.join(", ")}` : "") +
    `\n(current text:\n${where})`
  );
}

const migrations = readdirSync(MIGRATIONS)
  .filter((file) => file.endsWith(".sql"))
  .sort()
  .map((file) => ({ file, sql: readFileSync(path.join(MIGRATIONS, file), "utf8") }));

describe("migration headers", () => {
  it("finds the migrations and the functions they define", () => {
    expect(migrations.length).toBeGreaterThan(1);
    expect(
      redefinitions(migrations).some((migration) => migration.redefined.includes("public.create_withdrawal")),
    ).toBe(true);
  });

  it("every migration that redefines an earlier migration's function names exactly those in a Redefines line", () => {
    const problems = redefinitions(migrations)
      .map(({ file, sql, redefined }) => headerProblem(file, sql, redefined))
      .filter((problem) => problem !== null);
    expect(problems, problems.join("\n\n")).toEqual([]);
  });

  it("a Redefines line that is missing, misses a name or names one more fails", () => {
    const body =
      "create or replace function public.a(x int) returns int language sql as $$ select 1 $$;\n" +
      "create function public.b() returns int language sql as $$ select 2 $$;\n";
    expect(headerProblem("m.sql", `-- Why.\n\n${body}`, ["public.a", "public.b"])).toContain(
      "-- Redefines: public.a, public.b",
    );
    expect(headerProblem("m.sql", `-- Why.\n-- Redefines: public.a\n${body}`, ["public.a", "public.b"])).toContain(
      "missing: public.b",
    );
    expect(
      headerProblem("m.sql", `-- Redefines: public.a, public.b, public.c\n${body}`, ["public.a", "public.b"]),
    ).toContain("not redefined here: public.c");
    expect(headerProblem("m.sql", `-- Redefines: public.b, public.a\n${body}`, ["public.a", "public.b"])).toBeNull();
    // Only the leading comment counts: a line further down is not what a reader sees first.
    expect(
      headerProblem("m.sql", `-- Why.\n\n-- Redefines: public.a, public.b\n${body}`, ["public.a", "public.b"]),
    ).not.toBeNull();
    expect(headerProblem("m.sql", `-- Redefines: public.a\n${body}`, [])).toContain("redefines no earlier function");
  });

  it("reads function names from create function and create or replace function, not from comments", () => {
    expect(
      functionsCreated(
        "-- create function public.old(\ncreate or replace function public.a(x int)\nCREATE FUNCTION public.B ()\ncreate function c(\n",
      ),
    ).toEqual(["public.a", "public.b", "public.c"]);
  });

  it("points at the current text in supabase/schema/functions", () => {
    const problem = headerProblem("m.sql", "-- Why.\n", ["public.create_withdrawal"]);
    expect(problem).toContain("supabase/schema/functions/create_withdrawal.sql");
  });
});
