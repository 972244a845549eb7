/**
 * Reading the test Postgres server's log for what one client sent (scripts/lib/services.mjs starts it
 * with log_line_prefix `%m:%u@%d:`; a test turns log_statement on for one role in one database), and
 * finding in it what belongs to a session and so breaks or leaks through a transaction-mode pooler.
 */

/** A logged statement: `statement: <sql>` (simple protocol) or `execute <name>: <sql>` (extended). */
export interface LoggedStatement {
  /** `<unnamed>` for the extended protocol's unnamed statement, null for the simple protocol. */
  prepared: string | null;
  sql: string;
}

// "2026-11-27 07:10:00.123 UTC:role@database:LOG:  statement: select 1"
const ENTRY = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+:([^@\s:]*)@([^:\s]*):(\w+):\s+(.*)$/;

/** The statements `role` sent in `database`, with their continuation lines (a multi-line statement). */
export function statementsOf(log: string, role: string, database: string): LoggedStatement[] {
  const statements: LoggedStatement[] = [];
  let current: LoggedStatement | null = null;
  for (const line of log.split("\n")) {
    const entry = ENTRY.exec(line);
    if (!entry) {
      // A line without the prefix continues the entry before it.
      if (current) current.sql += "\n" + line;
      continue;
    }
    current = null;
    const [, user, db, level, message] = entry;
    if (user !== role || db !== database || level !== "LOG") continue;
    const statement = /^statement: ([\s\S]*)$/.exec(message!);
    const execute = /^execute ([^:]+): ([\s\S]*)$/.exec(message!);
    if (statement) current = { prepared: null, sql: statement[1]! };
    else if (execute) current = { prepared: execute[1]!, sql: execute[2]! };
    if (current) statements.push(current);
  }
  return statements;
}

export type SessionFeature =
  | "SET"
  | "a session advisory lock"
  | "a prepared statement by name"
  | "a temporary table"
  | "a cursor WITH HOLD"
  | "LISTEN";

const BY_TEXT: [SessionFeature, RegExp][] = [
  // SET LOCAL lasts one transaction and is fine; a plain SET or RESET stays with the connection.
  ["SET", /^\s*(set|reset)\s+(?!local\b)(?!transaction\b)/i],
  ["SET", /set_config\s*\([^)]*,\s*false\s*\)/i],
  ["a session advisory lock", /pg_(try_)?advisory_lock(_shared)?\s*\(/i],
  ["a prepared statement by name", /^\s*prepare\s/i],
  ["a temporary table", /\bcreate\s+(?:global\s+|local\s+)?(temp|temporary)\s/i],
  ["a cursor WITH HOLD", /\bdeclare\b[\s\S]*\bwith\s+hold\b/i],
  ["LISTEN", /^\s*listen\s/i],
];

/** Each statement that uses something belonging to a session, and which. */
export function sessionFeatures(statements: readonly LoggedStatement[]) {
  const found: { feature: SessionFeature; sql: string }[] = [];
  for (const statement of statements) {
    if (statement.prepared !== null && statement.prepared !== "<unnamed>") {
      found.push({ feature: "a prepared statement by name", sql: statement.sql });
    }
    for (const [feature, pattern] of BY_TEXT) {
      if (pattern.test(statement.sql)) found.push({ feature, sql: statement.sql });
    }
  }
  return found;
}
