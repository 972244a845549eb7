import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbCall, DbError } from "~/server/db/core.server";
import { openSupabaseDatabase } from "~/server/db/supabase.server";
import { startHttpStandIn } from "../support/stand-in";

const SERVICE_ROLE_KEY = "service-role-key-for-tests";

/** Answers like PostgREST does for `POST /rest/v1/rpc/<function>`; its `requests` are what it got. */
function startFakePostgrest() {
  return startHttpStandIn(({ request, json }) => {
    const send = (status: number, payload: unknown) =>
      json(status, payload, { "content-type": "application/json; charset=utf-8" });
    const fn = request.path.replace(/^\/rest\/v1\/rpc\//, "");
    if (request.headers.apikey !== SERVICE_ROLE_KEY)
      return send(401, { code: "PGRST301", details: null, hint: null, message: "JWT invalid" });
    switch (fn) {
      case "app_health":
        return send(200, { ok: true, time: "2026-11-22T00:00:00Z" });
      case "get_user_withdrawals":
        return send(200, [
          { id: "w1", amount: 5, payment_method: "paypal", status: "pending", created_at: "2026-11-22T00:00:00Z" },
        ]);
      case "create_withdrawal":
        return send(400, {
          code: "P0001",
          details: null,
          hint: null,
          message: "Amount exceeds your available balance",
        });
      case "get_user_summary":
        return send(200, null);
      default:
        return send(404, {
          code: "PGRST202",
          details: `Searched for the function public.${fn} with parameters ... in the schema cache`,
          hint: null,
          message: `Could not find the function public.${fn} in the schema cache`,
        });
    }
  });
}

describe("the supabase-js transport", () => {
  let postgrest: Awaited<ReturnType<typeof startFakePostgrest>>;
  let url: string;
  /** The requests PostgREST got, with their JSON bodies parsed. */
  const seen = () =>
    postgrest.requests.map((request) => ({ ...request, body: request.body ? JSON.parse(request.body) : null }));
  beforeAll(async () => {
    postgrest = await startFakePostgrest();
    url = postgrest.url;
  });
  afterAll(() => postgrest.close());

  it("posts each call to /rest/v1/rpc/<function> with the service-role key and a JSON body of named arguments", async () => {
    const db = openSupabaseDatabase(url, SERVICE_ROLE_KEY);
    const list = await db.rpc("get_user_withdrawals", { p_user_id: "user-1" });
    expect(list).toEqual([expect.objectContaining({ id: "w1", amount: 5 })]);
    const request = seen().at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/rest/v1/rpc/get_user_withdrawals");
    expect(request.headers.apikey).toBe(SERVICE_ROLE_KEY);
    expect(request.headers.authorization).toBe(`Bearer ${SERVICE_ROLE_KEY}`);
    expect(request.headers["content-type"]).toMatch(/^application\/json/);
    expect(request.body).toEqual({ p_user_id: "user-1" });
  });

  it("passes objects through as JSON and returns a null result as null", async () => {
    const db = openSupabaseDatabase(url, SERVICE_ROLE_KEY);
    expect(await db.rpc("get_user_summary", { p_user_id: "nobody" })).toBeNull();
    await db
      .rpc("create_withdrawal", { p_user_id: "u", amount_param: 5, recipient_bank_details_param: { details: "IBAN" } })
      .catch(() => {});
    expect(seen().at(-1)!.body).toEqual({
      p_user_id: "u",
      amount_param: 5,
      recipient_bank_details_param: { details: "IBAN" },
    });
  });

  it("turns PostgREST's error shape into a DbError with the SQLSTATE", async () => {
    const db = openSupabaseDatabase(url, SERVICE_ROLE_KEY);
    const error = await db.rpc("create_withdrawal", { p_user_id: "u" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DbError);
    expect(error).toMatchObject({ code: "P0001", message: "Amount exceeds your available balance" });
    const missing = await db.rpc("no_such_function").catch((caught: unknown) => caught);
    expect(missing).toMatchObject({ code: "PGRST202" });
  });

  it("answers a batch with one PostgREST call per function, in order (PostgREST runs one function per request)", async () => {
    const db = openSupabaseDatabase(url, SERVICE_ROLE_KEY);
    const before = seen().length;
    const results = await db.rpcBatch([
      dbCall("get_user_withdrawals", { p_user_id: "user-1" }),
      dbCall("get_user_summary", { p_user_id: "nobody" }),
    ]);
    expect(results).toEqual([[expect.objectContaining({ id: "w1" })], null]);
    expect(
      seen()
        .slice(before)
        .map((request) => request.path)
        .sort(),
    ).toEqual(["/rest/v1/rpc/get_user_summary", "/rest/v1/rpc/get_user_withdrawals"]);
    const refused = await db
      .rpcBatch([dbCall("get_user_summary", { p_user_id: "nobody" }), dbCall("no_such_function")])
      .catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ code: "PGRST202" });
  });

  it("refuses names that are not identifiers before anything is sent", async () => {
    const db = openSupabaseDatabase(url, SERVICE_ROLE_KEY);
    const before = seen().length;
    await expect(db.rpc("x/../../admin")).rejects.toThrow(/identifier/);
    expect(seen().length).toBe(before);
  });
});
