import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { dbCall, type Database, type DbCall } from "~/server/db/core.server";
import { getDatabase } from "~/server/db/database.server";
import { readTogether } from "~/server/db/reads.server";
import { userSummaryCall } from "~/server/account/users.server";
import { dbRefusal, openTestPglite, openTestPostgres, type TestDatabase } from "../support/db";
import { provisionMember } from "../support/arrange";

// readTogether reaches the app's database through getDatabase(); here that is the test database,
// seen through a wrapper that counts what is sent (the calls still run on the real database).
vi.mock("~/server/db/database.server", () => ({ getDatabase: vi.fn() }));

function counting(db: Database) {
  const sent = { batches: [] as string[][], alone: [] as string[] };
  const wrapped: Database = {
    ...db,
    rpc: (fn, args) => {
      sent.alone.push(fn);
      return db.rpc(fn, args);
    },
    rpcBatch: (calls) => {
      sent.batches.push(calls.map((call) => call.fn));
      return db.rpcBatch(calls);
    },
  };
  return { wrapped, sent };
}

describe.each([
  ["PGlite", openTestPglite],
  ["Postgres", () => openTestPostgres()],
])("reads in one statement on %s", (_name, open) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(async () => {
    await t?.close();
  });

  const provisioned = () => provisionMember(t, { prefix: "read-together", name: "Reader", verified: false });

  it("rpcBatch answers each call in order, as the same calls made one by one answer them", async () => {
    const id = await provisioned();
    const calls: DbCall<unknown>[] = [
      dbCall("get_user_summary", { p_user_id: id }),
      dbCall("get_recent_activity", { p_user_id: id, p_limit: 10 }),
      dbCall("get_user_summary", { p_user_id: "nobody-has-this-id" }),
      dbCall("get_notification_preferences", { p_user_id: id }),
    ];
    const together = await t.db.rpcBatch(calls);
    const alone = await Promise.all(calls.map((call) => t.db.rpc(call.fn, call.args)));
    expect(together).toEqual(alone);
    expect(together[0]).toMatchObject({ id, display_name: "Reader", balance: 0 });
    expect(together[1]).toEqual([]);
    expect(together[2]).toBeNull();
  });

  it("rpcBatch fails as a whole with the database's error when one call fails", async () => {
    const id = await provisioned();
    const refusal = await dbRefusal(
      t.db.rpcBatch([dbCall("get_user_summary", { p_user_id: id }), dbCall("no_such_function", { p_user_id: id })]),
    );
    expect(refusal.code).toBe("42883");
  });

  it("readTogether sends a page's reads as one batch, and a null section is answered null without being sent", async () => {
    const { wrapped, sent } = counting(t.db);
    vi.mocked(getDatabase).mockResolvedValue(wrapped);
    const id = await provisioned();
    const [summary, skipped, preferences] = readTogether([
      userSummaryCall(id),
      null,
      dbCall<Record<string, boolean>>("get_notification_preferences", { p_user_id: id }),
    ]);
    expect(await summary).toMatchObject({ id });
    expect(await skipped).toBeNull();
    expect(await preferences).toEqual(expect.any(Object));
    expect(sent.batches).toEqual([["get_user_summary", "get_notification_preferences"]]);
    expect(sent.alone).toEqual([]);
  });

  it("readTogether: when one read fails, the others still answer and only that one is refused, with its own error", async () => {
    const { wrapped, sent } = counting(t.db);
    vi.mocked(getDatabase).mockResolvedValue(wrapped);
    const id = await provisioned();
    const [summary, broken, activity] = readTogether([
      userSummaryCall(id),
      dbCall("no_such_function", { p_user_id: id }),
      dbCall("get_recent_activity", { p_user_id: id, p_limit: 10 }),
    ]);
    expect(await summary).toMatchObject({ id });
    expect((await dbRefusal(broken)).code).toBe("42883");
    expect(await activity).toEqual([]);
    // The batch once, then each read alone.
    expect(sent.batches).toHaveLength(1);
    expect(sent.alone.sort()).toEqual(["get_recent_activity", "get_user_summary", "no_such_function"]);
  });

  it("readTogether with a request's scope: the reads its loaders ask for in one turn go as one statement, the notice claim with them", async () => {
    const { wrapped, sent } = counting(t.db);
    vi.mocked(getDatabase).mockResolvedValue(wrapped);
    const id = await provisioned();
    const request = {};
    // The root's notices and the page's reads, asked side by side as Remix runs the two loaders.
    const [notices] = readTogether([dbCall("take_user_notices", { p_user_id: id })], request);
    const [summary, skipped, preferences] = readTogether(
      [userSummaryCall(id), null, dbCall("get_notification_preferences", { p_user_id: id })],
      request,
    );
    expect(await notices).toEqual([]);
    expect(await summary).toMatchObject({ id });
    expect(await skipped).toBeNull();
    expect(await preferences).toEqual(expect.any(Object));
    expect(sent.batches).toEqual([["take_user_notices", "get_user_summary", "get_notification_preferences"]]);
    expect(sent.alone).toEqual([]);
    // Another request's reads, and a read asked after the statement went, are statements of their own.
    const [other] = readTogether([userSummaryCall(id)], {});
    const [later] = readTogether([userSummaryCall(id)], request);
    expect(await other).toMatchObject({ id });
    expect(await later).toMatchObject({ id });
    expect(sent.batches).toHaveLength(3);
  });

  it("readTogether with a request's scope: one loader's failing read fails alone; the other loader's notices are still taken, once", async () => {
    const { wrapped, sent } = counting(t.db);
    vi.mocked(getDatabase).mockResolvedValue(wrapped);
    const id = await provisioned();
    await t.sql("insert into user_notices (user_id, kind, data) values ($1, 'referral_credited', '{}')", [id]);
    const request = {};
    const [notices] = readTogether([dbCall<{ kind: string }[]>("take_user_notices", { p_user_id: id })], request);
    const [summary, broken] = readTogether(
      [userSummaryCall(id), dbCall("no_such_function", { p_user_id: id })],
      request,
    );
    expect((await dbRefusal(broken)).code).toBe("42883");
    expect(await summary).toMatchObject({ id });
    // The failed statement took nothing; taken alone afterwards, the notice is handed out once.
    expect(await notices).toMatchObject([{ kind: "referral_credited" }]);
    expect(sent.batches).toEqual([["take_user_notices", "get_user_summary", "no_such_function"]]);
    expect(await t.db.rpc("take_user_notices", { p_user_id: id })).toEqual([]);
  });

  it("readTogether: an unreachable database (the 503 page) refuses every read as it is, none retried alone", async () => {
    const { wrapped, sent } = counting(t.db);
    const unavailable = new Response("Service unavailable", { status: 503 });
    vi.mocked(getDatabase).mockResolvedValue({ ...wrapped, rpcBatch: () => Promise.reject(unavailable) });
    const reads = readTogether([userSummaryCall("anyone"), dbCall("get_recent_activity", { p_user_id: "anyone" })]);
    for (const answer of reads) await expect(answer).rejects.toBe(unavailable);
    expect(sent.alone).toEqual([]);
  });
});
