/**
 * The one way the server reaches the database. Every operation is a SQL function in
 * supabase/migrations, so the three transports share one implementation of every rule.
 */
export interface Database {
  /** Calls public.<fn>(name => value, ...) and returns its jsonb result. */
  rpc<T = unknown>(fn: string, args?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
  /**
   * Calls `onMessage` with each payload sent by `pg_notify(channel, payload)`; resolves to an
   * unsubscribe function. `onLost` is called if the connection behind it drops. Null on transports
   * that cannot listen (supabase-js `.rpc()`).
   */
  listen:
    | ((channel: string, onMessage: (payload: string) => void, onLost?: () => void) => Promise<() => Promise<void>>)
    | null;
  readonly transport: "pglite" | "postgres" | "supabase";
}

/** A failure reported by the database, with its SQLSTATE (PostgREST passes that through as `code`). */
export class DbError extends Error {
  name = "DbError";
  constructor(
    message: string,
    readonly code: string,
    readonly details?: string | null,
    readonly hint?: string | null,
  ) {
    super(message);
  }
}

/** SQLSTATE of `raise exception` without an explicit code: a rule of ours was broken. */
export const RULE_VIOLATION = "P0001";

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export function assertIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a SQL identifier: ${name}`);
  return name;
}

/** `select public.fn(a => $1, b => $2) as result` with the values in order. */
export function buildRpcCall(fn: string, args: Record<string, unknown> = {}) {
  const names = Object.keys(args).map(assertIdentifier);
  const list = names.map((name, index) => `${name} => $${index + 1}`).join(", ");
  const values = names.map((name) => {
    const value = args[name];
    return value !== null && typeof value === "object" ? JSON.stringify(value) : value;
  });
  return { sql: `select public.${assertIdentifier(fn)}(${list}) as result`, values };
}

/** Turns a driver error (pg, PGlite) into a DbError; anything else is rethrown as it is. */
export function toDbError(error: unknown): unknown {
  if (error && typeof error === "object" && "code" in error && typeof error.code === "string") {
    const e = error as { message?: string; code: string; detail?: string; hint?: string };
    return new DbError(e.message ?? "Database error", e.code, e.detail ?? null, e.hint ?? null);
  }
  return error;
}

/** The text of a rule our SQL functions enforce (SQLSTATE P0001, spec wording), or null for any other failure. */
export function ruleViolationMessage(error: unknown): string | null {
  return error instanceof DbError && error.code === RULE_VIOLATION ? error.message : null;
}
