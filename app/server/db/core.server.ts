import { isRuleKey, ruleMessage, type RuleKey } from "~/domain/rules";
import { migrateDatabase, missingMigrations, type MigratableDatabase, type Migration } from "./migrations.server";

/**
 * The one way the server reaches the database. Every operation is a SQL function in
 * supabase/migrations, so the three transports share one implementation of every rule.
 */
export interface Database {
  /** Calls public.<fn>(name => value, ...) and returns its jsonb result. */
  rpc<T = unknown>(fn: string, args?: Record<string, unknown>): Promise<T>;
  /**
   * Several calls in one statement (one round trip), their results in order. It succeeds or
   * fails as a whole; `readTogether` (database.server.ts) is the way to use it.
   */
  rpcBatch(calls: readonly DbCall<unknown>[]): Promise<unknown[]>;
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

  /** The database could not be reached (down, restarting, out of connections), as opposed to refusing. */
  get unavailable(): boolean {
    return UNAVAILABLE_CODE.test(this.code) || UNAVAILABLE_MESSAGE.test(this.message);
  }
}

/**
 * With MIGRATE_ON_START=false, a database that lacks some of this version's migrations. It counts
 * as unavailable: pages answer 503, /healthz says "migrations pending", and each request checks
 * again, so the app recovers by itself once `npm run migrate` has applied them.
 */
export class MigrationsPendingError extends DbError {
  name = "MigrationsPendingError";
  constructor(readonly pending: readonly Migration[]) {
    super(
      `the database lacks ${pending.length} migration(s) of this version ` +
        `(${pending.map((migration) => `${migration.version}_${migration.name}`).join(", ")}) ` +
        "and MIGRATE_ON_START is false: apply them with `npm run migrate`",
      "UNAVAILABLE",
    );
  }
}

// SQLSTATE class 08 (connection), 57P01-03 (shutting down, cannot connect now), 53300 (too many
// connections), PostgREST's PGRST000-003 (cannot reach its database), and Node's socket errors.
const UNAVAILABLE_CODE =
  /^(08|57P0[1-3]|53300|PGRST00[0-3]|ECONN|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH|EAI_AGAIN|UNAVAILABLE)/;
// Failures that drivers report without a code.
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|fetch failed|PGlite is closed|connection error/i;

/** SQLSTATE of `raise exception`: a rule of ours was broken; its HINT names the rule. */
const RULE_VIOLATION = "P0001";

/** The broken rule behind a refusal (see app/domain/rules.ts), or null for any other failure. */
export function ruleViolation(error: unknown): { rule: RuleKey; message: string } | null {
  if (!(error instanceof DbError) || error.code !== RULE_VIOLATION || !isRuleKey(error.hint)) return null;
  return { rule: error.hint, message: ruleMessage(error.hint, error.details) };
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export function assertIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a SQL identifier: ${name}`);
  return name;
}

/** A call of public.<fn>(name => value, ...): made by a domain module, run alone or in a batch. */
export interface DbCall<T> {
  readonly fn: string;
  readonly args: Record<string, unknown>;
  /** Never set: carries the result's type to `readTogether`. */
  readonly result?: T;
}

export function dbCall<T>(fn: string, args: Record<string, unknown> = {}): DbCall<T> {
  return { fn, args };
}

/** `public.fn(a => $n, ...)`, its values appended to `values` (objects as JSON). */
function callExpression({ fn, args }: DbCall<unknown>, values: unknown[]): string {
  const list = Object.keys(args).map((name) => {
    const value = args[name];
    values.push(value !== null && typeof value === "object" ? JSON.stringify(value) : value);
    return `${assertIdentifier(name)} => $${values.length}`;
  });
  return `public.${assertIdentifier(fn)}(${list.join(", ")})`;
}

/** `select public.fn(a => $1, b => $2) as result` with the values in order. */
export function buildRpcCall(fn: string, args: Record<string, unknown> = {}) {
  const values: unknown[] = [];
  return { sql: `select ${callExpression({ fn, args }, values)} as result`, values };
}

/** One statement for several calls: `select public.f(...) as r0, public.g(...) as r1, ...`. */
function buildRpcBatch(calls: readonly DbCall<unknown>[]) {
  const values: unknown[] = [];
  const columns = calls.map((call, index) => `${callExpression(call, values)} as r${index}`);
  return { sql: `select ${columns.join(", ")}`, values, columns: calls.map((_, index) => `r${index}`) };
}

/** Turns a driver error (pg, PGlite) into a DbError; anything else is rethrown as it is. */
export function toDbError(error: unknown): unknown {
  if (error instanceof DbError || typeof error !== "object" || error === null) return error;
  const e = error as { message?: unknown; code?: unknown; detail?: string; hint?: string };
  const message = typeof e.message === "string" ? e.message : "Database error";
  if (typeof e.code === "string") return new DbError(message, e.code, e.detail ?? null, e.hint ?? null);
  if (UNAVAILABLE_MESSAGE.test(message)) return new DbError(message, "UNAVAILABLE");
  return error;
}

/** A driver that runs one parameterised statement and gives its rows (pg's pool, PGlite). */
type RunQuery = (sql: string, values: unknown[]) => Promise<{ rows: unknown[] }>;

/** `rpc` and `rpcBatch` of the SQL transports (PGlite, Postgres): one statement each, errors as DbError. */
export function sqlRpc(query: RunQuery): Pick<Database, "rpc" | "rpcBatch"> {
  return {
    async rpc<T>(fn: string, args?: Record<string, unknown>) {
      const { sql, values } = buildRpcCall(fn, args);
      try {
        const { rows } = await query(sql, values);
        return (rows[0] as { result: T }).result;
      } catch (error) {
        throw toDbError(error);
      }
    },
    async rpcBatch(calls) {
      const { sql, values, columns } = buildRpcBatch(calls);
      try {
        const { rows } = await query(sql, values);
        const row = rows[0] as Record<string, unknown>;
        return columns.map((column) => row[column]);
      } catch (error) {
        throw toDbError(error);
      }
    },
  };
}

/**
 * Makes a newly opened PGlite or Postgres database ready: applies the migrations it lacks, or with
 * `migrate` false (MIGRATE_ON_START=false) only checks that it lacks none. On failure `close` runs
 * and the error is thrown as a DbError (MigrationsPendingError when migrations are missing).
 */
export async function prepareMigrated(
  db: MigratableDatabase,
  migrationsDir: string,
  migrate: boolean,
  close: () => Promise<void>,
): Promise<void> {
  try {
    if (migrate) {
      await migrateDatabase(db, migrationsDir);
    } else {
      const pending = await missingMigrations(db, migrationsDir);
      if (pending.length > 0) throw new MigrationsPendingError(pending);
    }
  } catch (error) {
    await close();
    throw toDbError(error);
  }
}
