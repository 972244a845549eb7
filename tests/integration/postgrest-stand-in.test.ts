import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPostgres, type TestDatabase } from "../support/db";
import { signJwt, startPostgrestStandIn, statusOf, type PostgrestStandIn } from "../support/postgrest";

// The PostgREST stand-in (tests/support/postgrest.ts) held to PostgREST's documented behaviour
// (docs.postgrest.org: references/api/functions, references/errors), so that the supabase-js
// transport's tests through it say something about a real Supabase project. Functions of its own,
// on a migrated scratch database (the migrations make the anon, authenticated and service_role roles).

const FIXTURES = `
  create function public.sia_add_them(a integer, b integer) returns integer language sql as $$ select a + b $$;
  create function public.sia_greet(name text, greeting text default 'Hello') returns text
    language sql as $$ select greeting || ', ' || name $$;
  create function public.sia_nothing() returns integer language sql as $$ select null::integer $$;
  create function public.sia_echo(payload jsonb) returns jsonb language sql as $$ select payload $$;
  create function public.sia_rows(n integer) returns table (id integer, label text)
    language sql as $$ select i, 'row ' || i from generate_series(1, n) i $$;
  create function public.sia_numbers(n integer) returns setof integer
    language sql as $$ select generate_series(1, n) $$;
  create table public.sia_calls (id serial primary key, note text unique);
  create function public.sia_one_call(note text) returns public.sia_calls
    language sql as $$ insert into public.sia_calls (note) values (note) returning * $$;
  create function public.sia_void(note text) returns void
    language sql as $$ insert into public.sia_calls (note) values (note) $$;
  create function public.sia_refuse() returns void language plpgsql as $$
    begin raise exception 'Not today' using detail = 'the detail', hint = 'the_rule'; end $$;
  create function public.sia_write_then_fail(note text) returns void language plpgsql as $$
    begin insert into public.sia_calls (note) values (note); perform 1 / 0; end $$;
  create function public.sia_who() returns jsonb language sql as $$
    select jsonb_build_object('user', current_user, 'claims', current_setting('request.jwt.claims', true)::jsonb) $$;
  create function public.sia_overloaded(x integer) returns text language sql as $$ select 'integer' $$;
  create function public.sia_overloaded(x text) returns text language sql as $$ select 'text' $$;
  create function public.sia_named(x integer) returns text language sql as $$ select 'x' $$;
  create function public.sia_named(y text, z integer default 0) returns text language sql as $$ select 'y' $$;
  create function public.sia_private() returns integer language sql as $$ select 1 $$;
  revoke execute on all functions in schema public from public;
  grant execute on function public.sia_add_them, public.sia_greet, public.sia_nothing, public.sia_echo,
    public.sia_rows, public.sia_numbers, public.sia_one_call, public.sia_void, public.sia_refuse,
    public.sia_write_then_fail, public.sia_who, public.sia_overloaded(integer), public.sia_overloaded(text),
    public.sia_named(integer), public.sia_named(text, integer) to service_role, authenticated;
  grant execute on function public.sia_who to anon;
  grant all on public.sia_calls to service_role, authenticated;
  grant usage on sequence public.sia_calls_id_seq to service_role, authenticated;
`;

describe("the PostgREST stand-in answers as PostgREST does", () => {
  let database: TestDatabase;
  let postgrest: PostgrestStandIn;

  /** A request as supabase-js sends it: the key in `apikey` and as the bearer token. */
  function rpc(
    fn: string,
    body?: unknown,
    init: { method?: string; key?: string | null; bearer?: string | null } = {},
  ) {
    const key = init.key === undefined ? postgrest.serviceRoleKey : init.key;
    const bearer = init.bearer === undefined ? key : init.bearer;
    return fetch(`${postgrest.url}/rest/v1/rpc/${fn}`, {
      method: init.method ?? "POST",
      headers: {
        ...(key !== null && { apikey: key }),
        ...(bearer !== null && { authorization: `Bearer ${bearer}` }),
        "content-type": "application/json",
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    database = await openTestPostgres(2);
    await database.sql(FIXTURES);
    postgrest = await startPostgrestStandIn({ databaseUrl: database.url! });
  });
  afterAll(async () => {
    await postgrest?.close();
    await database?.close();
  });

  it("calls a function with the body's keys as named arguments and answers a scalar as its JSON value", async () => {
    const response = await rpc("sia_add_them", { a: 1, b: 2 });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.text()).toBe("3");
    expect(await (await rpc("sia_greet", { name: "Ana" })).json()).toBe("Hello, Ana");
    expect(await (await rpc("sia_nothing", {})).text()).toBe("null");
  });

  it("takes the arguments from the query string on GET, converted to the parameters' types", async () => {
    const response = await fetch(`${postgrest.url}/rest/v1/rpc/sia_add_them?a=40&b=2`, {
      headers: { apikey: postgrest.serviceRoleKey, authorization: `Bearer ${postgrest.serviceRoleKey}` },
    });
    expect(await response.json()).toBe(42);
  });

  it("passes a JSON object to a jsonb parameter as it is", async () => {
    const payload = { nested: { list: [1, "two", null] }, flag: true };
    expect(await (await rpc("sia_echo", { payload })).json()).toEqual(payload);
  });

  it("answers a set-returning function as an array (of rows, or of values), empty as []", async () => {
    expect(await (await rpc("sia_rows", { n: 2 })).json()).toEqual([
      { id: 1, label: "row 1" },
      { id: 2, label: "row 2" },
    ]);
    expect(await (await rpc("sia_rows", { n: 0 })).json()).toEqual([]);
    expect(await (await rpc("sia_numbers", { n: 3 })).json()).toEqual([1, 2, 3]);
  });

  it("answers a function returning one composite row as an object, and runs it once", async () => {
    const note = `once-${Date.now()}`;
    const row = (await (await rpc("sia_one_call", { note })).json()) as { id: number; note: string };
    expect(row).toEqual({ id: expect.any(Number), note });
    expect(await database.sql("select note from sia_calls where note = $1", [note])).toHaveLength(1);
  });

  it("answers a void function 204 with no body and no content type", async () => {
    const response = await rpc("sia_void", { note: `void-${Date.now()}` });
    expect(response.status).toBe(204);
    expect(response.headers.get("content-type")).toBeNull();
    expect(await response.text()).toBe("");
  });

  it("forwards a raised exception with its SQLSTATE, message, detail and hint: P0001 is 400", async () => {
    const response = await rpc("sia_refuse", {});
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: "P0001",
      message: "Not today",
      details: "the detail",
      hint: "the_rule",
    });
  });

  it("maps SQLSTATEs to PostgREST's statuses: a unique violation is 409, a division by zero 400", async () => {
    const note = `dup-${Date.now()}`;
    expect((await rpc("sia_void", { note })).status).toBe(204);
    const duplicate = await rpc("sia_void", { note });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toMatchObject({ code: "23505" });
    const failed = await rpc("sia_write_then_fail", { note: `${note}-b` });
    expect(failed.status).toBe(400);
    expect(await failed.json()).toMatchObject({ code: "22012", message: "division by zero" });
    expect(statusOf("08006", "service_role")).toBe(503);
    expect(statusOf("53300", "service_role")).toBe(503);
    expect(statusOf("40001", "service_role")).toBe(500);
    expect(statusOf("P0002", "service_role")).toBe(500);
    expect(statusOf("42883", "service_role")).toBe(404);
  });

  it("runs each call in one transaction: what a failing call wrote is gone", async () => {
    const note = `rolled-back-${Date.now()}`;
    expect((await rpc("sia_write_then_fail", { note })).status).toBe(400);
    expect(await database.sql("select 1 from sia_calls where note = $1", [note])).toEqual([]);
  });

  it("runs the call as the bearer token's role with its claims in request.jwt.claims; no token is anon", async () => {
    expect(await (await rpc("sia_who", {})).json()).toMatchObject({
      user: "service_role",
      claims: { role: "service_role", iss: "supabase" },
    });
    expect(await (await rpc("sia_who", {}, { bearer: null })).json()).toMatchObject({ user: "anon" });
  });

  it("refuses a function the role may not execute: 401 for anon, 403 for a signed-in role", async () => {
    const anonymous = await rpc("sia_add_them", { a: 1, b: 1 }, { key: postgrest.anonKey });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: "42501" });
    const authenticated = signJwt({ role: "authenticated", sub: "someone" });
    const signedIn = await rpc("sia_private", {}, { bearer: authenticated });
    expect(signedIn.status).toBe(403);
    expect(await signedIn.json()).toMatchObject({ code: "42501" });
  });

  it("chooses the overload by argument names, and answers 300 PGRST203 when names cannot tell", async () => {
    expect(await (await rpc("sia_named", { y: "1" })).json()).toBe("y");
    expect(await (await rpc("sia_named", { x: 1 })).json()).toBe("x");
    const ambiguous = await rpc("sia_overloaded", { x: 1 });
    expect(ambiguous.status).toBe(300);
    expect(await ambiguous.json()).toMatchObject({ code: "PGRST203" });
  });

  it("answers 404 PGRST202 for an unknown function, an unknown argument or a missing one without a default", async () => {
    for (const [fn, body] of [
      ["sia_no_such_function", {}],
      ["sia_add_them", { a: 1, b: 2, c: 3 }],
      ["sia_add_them", { a: 1 }],
    ] as const) {
      const response = await rpc(fn, body);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: "PGRST202", message: expect.stringContaining(fn) });
    }
  });

  it("refuses a body that is not a JSON object (400 PGRST102) and a method other than GET or POST (405 PGRST101)", async () => {
    for (const body of ["{not json", "[1, 2]", '"text"']) {
      const response = await rpc("sia_add_them", body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: "PGRST102" });
    }
    const put = await rpc("sia_add_them", { a: 1, b: 2 }, { method: "PUT" });
    expect(put.status).toBe(405);
    expect(await put.json()).toMatchObject({ code: "PGRST101" });
  });

  it("refuses as the gateway a request without a key or with a key the project did not sign, and as PostgREST a bad or expired token", async () => {
    const noKey = await rpc("sia_add_them", { a: 1, b: 2 }, { key: null, bearer: null });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({ message: "No API key found in request" });
    const foreign = signJwt({ role: "service_role" }, "another-projects-secret-of-32-characters!");
    const foreignKey = await rpc("sia_add_them", { a: 1, b: 2 }, { key: foreign });
    expect(foreignKey.status).toBe(401);
    expect(await foreignKey.json()).toEqual({ message: "Invalid API key" });
    const badToken = await rpc("sia_add_them", { a: 1, b: 2 }, { bearer: foreign });
    expect(badToken.status).toBe(401);
    expect(await badToken.json()).toMatchObject({ code: "PGRST301" });
    const expired = await rpc("sia_add_them", { a: 1, b: 2 }, { bearer: signJwt({ role: "service_role", exp: 1 }) });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ code: "PGRST303", message: "JWT expired" });
  });

  it("refuses a schema other than public in Content-Profile (406 PGRST106)", async () => {
    const response = await fetch(`${postgrest.url}/rest/v1/rpc/sia_add_them`, {
      method: "POST",
      headers: {
        apikey: postgrest.serviceRoleKey,
        authorization: `Bearer ${postgrest.serviceRoleKey}`,
        "content-type": "application/json",
        "content-profile": "private",
      },
      body: JSON.stringify({ a: 1, b: 2 }),
    });
    expect(response.status).toBe(406);
    expect(await response.json()).toMatchObject({ code: "PGRST106" });
  });
});
