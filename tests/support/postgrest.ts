import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { listenOnLoopback } from "./stand-in";

/**
 * A local server that speaks PostgREST's RPC protocol (behind Supabase's API gateway) over a real
 * Postgres, for the supabase-js transport's tests: no PostgREST binary can be installed here, so
 * this is the nearest honest thing, and tests/integration/postgrest-stand-in.test.ts holds it to
 * PostgREST's documented behaviour (docs.postgrest.org, references/api/functions and errors):
 *
 * - `POST /rest/v1/rpc/<function>` with a JSON object of named arguments (or `GET` with them in the
 *   query) runs `select <function>(name := value, …)` as PostgREST does: the overload is the one
 *   whose argument names cover the keys with every argument without a default given, each value
 *   converted to its parameter's type by `json_to_record`, in one transaction;
 * - the gateway wants an `apikey`; PostgREST verifies the bearer JWT (HS256 with the project's JWT
 *   secret) and runs the call as its `role` claim (`set local role`), the claims in
 *   `request.jwt.claims`; no bearer token is the anonymous role;
 * - results: a scalar function answers its value as JSON, a set-returning one an array, a composite
 *   one an object, a `void` one 204 with no body;
 * - errors in PostgREST's shape (`code`, `message`, `details`, `hint`) with its HTTP status for each
 *   SQLSTATE, and its own PGRST codes for what it refuses before the database.
 */
export async function startPostgrestStandIn({ databaseUrl, jwtSecret = DEFAULT_JWT_SECRET }: StandInOptions) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on("error", () => {});
  let calls = 0;
  /** The newest requests (at most 200): what the transport sent, for tests that check its form. */
  const requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string; status: number }[] =
    [];
  const listener = await listenOnLoopback(
    () =>
      http.createServer((incoming, response) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("end", () => {
          calls += 1;
          const text = Buffer.concat(chunks).toString("utf8");
          const path = new URL(incoming.url ?? "/", "http://stand-in.local").pathname;
          const record = { method: incoming.method ?? "", path, headers: incoming.headers, body: text, status: 0 };
          requests.push(record);
          if (requests.length > 200) requests.shift();
          answer(pool, jwtSecret, incoming, text)
            .catch((error: unknown) => reply(500, postgrestError("PGRST000", String(error))))
            .then(({ status, body }) => {
              record.status = status;
              response.writeHead(status, body === null ? {} : { "content-type": "application/json; charset=utf-8" });
              response.end(body ?? "");
            });
        });
      }),
    { address: (server) => server.address() as AddressInfo, beforeClose: (server) => server.closeAllConnections() },
  );
  return {
    url: `http://127.0.0.1:${listener.port}`,
    /** The key a Supabase project gives its server: a JWT whose role is `service_role`. */
    serviceRoleKey: signJwt({ role: "service_role", iss: "supabase" }, jwtSecret),
    /** The public key: a JWT whose role is `anon`. */
    anonKey: signJwt({ role: "anon", iss: "supabase" }, jwtSecret),
    /** How many requests it has answered. */
    calls: () => calls,
    requests,
    /** Refuses connections until `start()` (Supabase unreachable). */
    stop: listener.stop,
    start: listener.start,
    async close() {
      await listener.stop();
      await pool.end();
    },
  };
}

export type PostgrestStandIn = Awaited<ReturnType<typeof startPostgrestStandIn>>;

interface StandInOptions {
  /** The database PostgREST connects to (as its authenticator role; here the test server's superuser). */
  databaseUrl: string;
  /** The project's JWT secret, which signs its API keys. */
  jwtSecret?: string;
}

const DEFAULT_JWT_SECRET = "super-secret-jwt-token-with-at-least-32-characters-long";
/** The one schema the stand-in exposes, as a Supabase project exposes `public`. */
const SCHEMA = "public";
/** The anonymous role: a request without a bearer token runs as it. */
const ANON_ROLE = "anon";

interface Reply {
  status: number;
  /** The JSON text of the body, or null for no body (and no content type). */
  body: string | null;
}

function reply(status: number, body: unknown): Reply {
  return { status, body: JSON.stringify(body) };
}

function postgrestError(code: string, message: string, details: string | null = null, hint: string | null = null) {
  return { code, details, hint, message };
}

/** One request: the gateway's key check, PostgREST's JWT check, then the call. */
async function answer(pool: pg.Pool, secret: string, incoming: http.IncomingMessage, text: string): Promise<Reply> {
  const url = new URL(incoming.url ?? "/", "http://stand-in.local");
  const match = /^\/rest\/v1\/rpc\/([^/]+)$/.exec(url.pathname);
  // The gateway (Kong) answers before PostgREST: no key, or one the project did not sign.
  const apikey = header(incoming, "apikey");
  if (!apikey) return reply(401, { message: "No API key found in request" });
  if (!verifyJwt(apikey, secret).ok) return reply(401, { message: "Invalid API key" });
  if (!match) return reply(404, postgrestError("PGRST125", `Invalid path specified in request URL`));
  const fn = decodeURIComponent(match[1]!);

  const claims = claimsOf(header(incoming, "authorization"), secret);
  if ("error" in claims) return reply(401, claims.error);
  const profile = header(incoming, "content-profile") ?? header(incoming, "accept-profile");
  if (profile && profile !== SCHEMA)
    return reply(
      406,
      postgrestError(
        "PGRST106",
        "Invalid schema: " + profile,
        null,
        `Only the following schemas are exposed: ${SCHEMA}`,
      ),
    );

  let args: Record<string, unknown>;
  if (incoming.method === "POST") {
    const parsed = parseJsonObject(text);
    if (!parsed) return reply(400, postgrestError("PGRST102", "Empty or invalid json"));
    args = parsed;
  } else if (incoming.method === "GET" || incoming.method === "HEAD") {
    args = Object.fromEntries(url.searchParams);
  } else {
    return reply(405, postgrestError("PGRST101", `Cannot use the ${incoming.method} method on RPC`));
  }
  return call(pool, fn, args, claims);
}

function header(incoming: http.IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

type Claims = { role: string; claims: Record<string, unknown> } | { error: ReturnType<typeof postgrestError> };

/** The role and claims of the bearer token, or PostgREST's refusal; no token is the anonymous role. */
function claimsOf(authorization: string | undefined, secret: string): Claims {
  if (!authorization) return { role: ANON_ROLE, claims: { role: ANON_ROLE } };
  const token = /^bearer\s+(.+)$/i.exec(authorization)?.[1];
  if (!token) return { error: postgrestError("PGRST301", "Expected 3 parts in JWT; got 1") };
  const verified = verifyJwt(token, secret);
  if (!verified.ok) return { error: postgrestError(verified.code, verified.message) };
  const role = typeof verified.claims.role === "string" ? verified.claims.role : ANON_ROLE;
  return { role, claims: verified.claims };
}

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString("base64url");
}

/** An HS256 JWT of `claims`, as Supabase signs a project's keys. */
export function signJwt(claims: Record<string, unknown>, secret = DEFAULT_JWT_SECRET): string {
  const now = Math.floor(Date.now() / 1000);
  const head = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = base64url(JSON.stringify({ iat: now, exp: now + 10 * 365 * 24 * 3600, ...claims }));
  const signature = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${signature}`;
}

type Verified = { ok: true; claims: Record<string, unknown> } | { ok: false; code: string; message: string };

function verifyJwt(token: string, secret: string): Verified {
  const parts = token.split(".");
  if (parts.length !== 3)
    return { ok: false, code: "PGRST301", message: `Expected 3 parts in JWT; got ${parts.length}` };
  const [head, body, signature] = parts as [string, string, string];
  const expected = createHmac("sha256", secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, code: "PGRST301", message: "JWSError JWSInvalidSignature" };
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return { ok: false, code: "PGRST301", message: "JWSError (CompactDecodeError Invalid number of parts)" };
  }
  if (typeof claims.exp === "number" && claims.exp < Date.now() / 1000)
    return { ok: false, code: "PGRST303", message: "JWT expired" };
  return { ok: true, claims };
}

interface Overload {
  /** Its input arguments in order: name, type as SQL spells it, whether it has a default. */
  args: { name: string; type: string; hasDefault: boolean }[];
  returnsSet: boolean;
  /** 'void', 'scalar' (a base type, json, jsonb, a domain, an array) or 'composite'. */
  returns: "void" | "scalar" | "composite";
}

/** The function's overloads in the exposed schema, as PostgREST's schema cache has them. */
async function overloadsOf(client: pg.PoolClient, fn: string): Promise<Overload[]> {
  const { rows } = await client.query<{
    names: string[] | null;
    types: string[];
    modes: string[] | null;
    defaults: number;
    set: boolean;
    returns: string;
  }>(
    `select p.proargnames as names,
            array(select format_type(t, null) from unnest(p.proargtypes::oid[]) t) as types,
            p.proargmodes::text[] as modes,
            p.pronargdefaults as defaults,
            p.proretset as set,
            case when p.prorettype = 'void'::regtype then 'void'
                 when t.typtype = 'c' or t.typtype = 'p' and p.prorettype = 'record'::regtype then 'composite'
                 else 'scalar' end as returns
       from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       join pg_type t on t.oid = p.prorettype
      where n.nspname = $1 and p.proname = $2 and p.prokind = 'f'`,
    [SCHEMA, fn],
  );
  return rows.map((row) => {
    // proargnames lists every argument (OUT ones too); proargtypes only the inputs.
    const inputNames = (row.names ?? []).filter((_, i) => !row.modes || ["i", "b", "v"].includes(row.modes[i]!));
    return {
      args: row.types.map((type, i) => ({
        name: inputNames[i] ?? "",
        type,
        hasDefault: i >= row.types.length - row.defaults,
      })),
      returnsSet: row.set,
      returns: row.returns as Overload["returns"],
    };
  });
}

/** PostgREST's choice: every key names an argument, and every argument without a default is given. */
function pickOverload(overloads: Overload[], keys: string[]): Overload[] {
  return overloads.filter(
    (overload) =>
      keys.every((key) => overload.args.some((arg) => arg.name === key)) &&
      overload.args.every((arg) => arg.hasDefault || keys.includes(arg.name)),
  );
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Runs the call in one transaction as the token's role, and answers as PostgREST does. */
async function call(
  pool: pg.Pool,
  fn: string,
  args: Record<string, unknown>,
  claims: Extract<Claims, { role: string }>,
): Promise<Reply> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    return reply(503, postgrestError("PGRST001", `Database client error. Retrying the connection.`, String(error)));
  }
  try {
    const keys = Object.keys(args).sort();
    const candidates = pickOverload(await overloadsOf(client, fn), keys);
    if (candidates.length === 0)
      return reply(
        404,
        postgrestError(
          "PGRST202",
          `Could not find the function ${SCHEMA}.${fn}${keys.length ? `(${keys.join(", ")})` : " without parameters"} in the schema cache`,
          `Searched for the function ${SCHEMA}.${fn}${keys.length ? ` with parameters ${keys.join(", ")}` : " without parameters"} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
        ),
      );
    if (candidates.length > 1)
      return reply(
        300,
        postgrestError(
          "PGRST203",
          `Could not choose the best candidate function between: ${candidates.map((c) => `${SCHEMA}.${fn}(${c.args.map((a) => `${a.name} => ${a.type}`).join(", ")})`).join(", ")}`,
          null,
          "Try renaming the parameters or the function itself in the database so function overloading can be resolved",
        ),
      );
    const overload = candidates[0]!;
    const given = overload.args.filter((arg) => keys.includes(arg.name));
    const record = given.map((arg) => `${quoteIdent(arg.name)} ${arg.type}`).join(", ");
    const named = given.map((arg) => `${quoteIdent(arg.name)} := _.${quoteIdent(arg.name)}`).join(", ");
    // As PostgREST builds it: the function in FROM (LATERAL after json_to_record), so it runs once
    // per call whatever it returns (`(f()).*` in a select list would run it once per column).
    const invocation = `${quoteIdent(SCHEMA)}.${quoteIdent(fn)}(${named})`;
    const alias = overload.returns === "composite" ? "r" : "r(v)";
    const from =
      given.length > 0
        ? `json_to_record($1::json) as _(${record}), lateral ${invocation} as ${alias}`
        : `${invocation} as ${alias}`;
    const value = overload.returns === "composite" ? "r" : "r.v";
    const statement =
      overload.returns === "void"
        ? `select null::text as body from ${from}`
        : overload.returnsSet
          ? `select coalesce(json_agg(${value}), '[]')::text as body from ${from}`
          : `select to_json(${value})::text as body from ${from}`;

    await client.query("begin");
    try {
      await client.query(`set local role ${quoteIdent(claims.role)}`);
      await client.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims.claims)]);
      const result = await client.query<{ body: string | null }>(
        statement,
        given.length > 0 ? [JSON.stringify(args)] : [],
      );
      await client.query("commit");
      if (overload.returns === "void") return { status: 204, body: null };
      return { status: 200, body: result.rows[0]?.body ?? "null" };
    } catch (error) {
      await client.query("rollback").catch(() => {});
      return failure(error, claims.role);
    }
  } finally {
    client.release();
  }
}

/** PostgREST's answer to a database error: its fields, and the status its SQLSTATE maps to. */
function failure(error: unknown, role: string): Reply {
  const e = error as { code?: string; message?: string; detail?: string; hint?: string };
  const code = e.code ?? "XX000";
  return reply(
    statusOf(code, role),
    postgrestError(code, e.message ?? String(error), e.detail ?? null, e.hint ?? null),
  );
}

/** docs.postgrest.org, references/errors, "HTTP Status Codes". */
export function statusOf(code: string, role: string): number {
  const exact: Record<string, number> = {
    "23503": 409,
    "23505": 409,
    "25006": 405,
    "53400": 500,
    P0001: 400,
    "42883": 404,
    "42P01": 404,
    "42P17": 500,
  };
  if (exact[code]) return exact[code];
  if (code === "42501") return role === ANON_ROLE ? 401 : 403;
  const byClass: [RegExp, number][] = [
    [/^08/, 503],
    [/^09/, 500],
    [/^0L/, 403],
    [/^0P/, 403],
    [/^25/, 500],
    [/^28/, 403],
    [/^2D/, 500],
    [/^38/, 500],
    [/^39/, 500],
    [/^3B/, 500],
    [/^40/, 500],
    [/^53/, 503],
    [/^54/, 500],
    [/^55/, 500],
    [/^57/, 500],
    [/^58/, 500],
    [/^F0/, 500],
    [/^HV/, 500],
    [/^P0/, 500],
    [/^XX/, 500],
  ];
  return byClass.find(([pattern]) => pattern.test(code))?.[1] ?? 400;
}
