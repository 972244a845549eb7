import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbCall, DbError, ruleViolation } from "~/server/db/core.server";
import { openSupabaseDatabase } from "~/server/db/supabase.server";
import { openTestPostgres, type TestDatabase } from "../support/db";
import { startPostgrestStandIn, type PostgrestStandIn } from "../support/postgrest";

// The supabase-js transport (app/server/db/supabase.server.ts) against the PostgREST stand-in over a
// migrated Postgres database: the real functions, as the service role. The app on this transport
// over HTTP: tests/http/supabase-deployment.test.ts, and each money flow in
// tests/http/supabase-money-flows.test.ts.

describe("the supabase-js transport", () => {
  let database: TestDatabase;
  let postgrest: PostgrestStandIn;
  const userId = `supabase-${Date.now().toString(36)}`;

  beforeAll(async () => {
    database = await openTestPostgres(2);
    postgrest = await startPostgrestStandIn({ databaseUrl: database.url! });
  });
  afterAll(async () => {
    await postgrest?.close();
    await database?.close();
  });

  it("posts each call to /rest/v1/rpc/<function> with the service-role key and a JSON body of named arguments", async () => {
    const db = await openSupabaseDatabase(postgrest.url, postgrest.serviceRoleKey);
    await db.rpc("provision_user", {
      p_user_id: userId,
      p_email: `${userId}@example.com`,
      p_display_name: "Supa",
      p_email_verified: true,
    });
    const request = postgrest.requests.at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/rest/v1/rpc/provision_user");
    expect(request.headers.apikey).toBe(postgrest.serviceRoleKey);
    expect(request.headers.authorization).toBe(`Bearer ${postgrest.serviceRoleKey}`);
    expect(request.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(request.body)).toEqual({
      p_user_id: userId,
      p_email: `${userId}@example.com`,
      p_display_name: "Supa",
      p_email_verified: true,
    });
    const [profile] = await database.sql("select email, email_verified from user_profiles where id = $1", [userId]);
    expect(profile).toEqual({ email: `${userId}@example.com`, email_verified: true });
  });

  it("returns what the function returns: a jsonb object, an array, null", async () => {
    const db = await openSupabaseDatabase(postgrest.url, postgrest.serviceRoleKey);
    await db.rpc("add_user_coins", { user_id_param: userId, amount_param: 250 });
    expect(await db.rpc("get_user_summary", { p_user_id: userId })).toMatchObject({ balance: 2.5 });
    expect(await db.rpc("get_user_withdrawals", { p_user_id: userId })).toEqual([]);
    expect(await db.rpc("get_user_summary", { p_user_id: "nobody-at-all" })).toBeNull();
  });

  it("turns a refusal into a DbError with the SQLSTATE and the rule in its hint, as on the other transports", async () => {
    const db = await openSupabaseDatabase(postgrest.url, postgrest.serviceRoleKey);
    const error = await db
      .rpc("create_withdrawal", {
        p_user_id: userId,
        amount_param: 1000,
        payment_method_param: "paypal",
        recipient_email_param: "supa@example.com",
        recipient_upi_param: null,
        recipient_bank_details_param: null,
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DbError);
    expect(error).toMatchObject({ code: "P0001" });
    expect(ruleViolation(error)?.rule).toBe("amount_exceeds_balance");
    expect(await database.sql("select 1 from withdrawals where user_id = $1", [userId])).toEqual([]);
    const missing = await db.rpc("no_such_function").catch((caught: unknown) => caught);
    expect(missing).toMatchObject({ code: "PGRST202" });
  });

  it("answers a batch with one PostgREST call per function, in order (PostgREST runs one function per request)", async () => {
    const db = await openSupabaseDatabase(postgrest.url, postgrest.serviceRoleKey);
    const before = postgrest.calls();
    const results = await db.rpcBatch([
      dbCall("get_user_withdrawals", { p_user_id: userId }),
      dbCall("get_user_summary", { p_user_id: userId }),
    ]);
    expect(results).toEqual([[], expect.objectContaining({ balance: 2.5 })]);
    expect(postgrest.calls() - before).toBe(2);
    const refused = await db
      .rpcBatch([dbCall("get_user_summary", { p_user_id: userId }), dbCall("no_such_function")])
      .catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ code: "PGRST202" });
  });

  it("refuses names that are not identifiers before anything is sent", async () => {
    const db = await openSupabaseDatabase(postgrest.url, postgrest.serviceRoleKey);
    const before = postgrest.calls();
    await expect(db.rpc("x/../../admin")).rejects.toThrow(/identifier/);
    await expect(db.rpc("get_user_summary", { "p_user_id) or (true": 1 })).rejects.toThrow(/identifier/);
    expect(postgrest.calls()).toBe(before);
  });

  it("reports an unreachable project as unavailable (the pages' 503), and works again once it is back", async () => {
    const db = await openSupabaseDatabase(postgrest.url, postgrest.serviceRoleKey);
    await postgrest.stop();
    try {
      const error = await db.rpc("get_user_summary", { p_user_id: userId }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DbError);
      expect((error as DbError).unavailable).toBe(true);
    } finally {
      await postgrest.start();
    }
    expect(await db.rpc("get_user_summary", { p_user_id: userId })).toMatchObject({ balance: 2.5 });
  });

  it("cannot listen: live events are null on this transport (delivery and caches fall back to their intervals)", async () => {
    expect((await openSupabaseDatabase(postgrest.url, postgrest.serviceRoleKey)).listen).toBeNull();
  });
});
