import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DbError, toDbError, type Database } from "~/server/db/core.server";
import { openPgliteDatabase } from "~/server/db/pglite.server";
import { openPgliteThread, type PgliteThread } from "~/server/db/pglite-thread.server";

// The embedded database on a thread of its own (docs/decisions/102).
describe("PGlite on its own thread", () => {
  let thread: PgliteThread;
  beforeAll(async () => {
    thread = await openPgliteThread("memory://");
  }, 60_000);
  afterAll(() => thread.close());

  it("leaves the main thread free while a statement runs: the event loop turns many times before it answers", async () => {
    // A statement that keeps the engine busy for a while, whatever the machine's speed. On the main
    // thread the engine runs it to its end in one go, and the loop below would not turn until then.
    const answer = thread.query("select count(*)::int as n from generate_series(1, 2000000) as g where g % 7 = 0");
    let settled = false;
    void answer.finally(() => (settled = true));
    let turns = 0;
    while (!settled) {
      await new Promise((resolve) => setImmediate(resolve));
      turns += 1;
    }
    expect((await answer).rows).toEqual([{ n: 285714 }]);
    expect(turns).toBeGreaterThan(100);
  });

  it("gives a refusal's SQLSTATE, detail and hint, as the rules need them", async () => {
    const failure = await thread
      .query("do $$ begin raise exception 'refused' using errcode = 'P0001', detail = '5', hint = 'some_rule'; end $$")
      .catch(toDbError);
    expect(failure).toBeInstanceOf(DbError);
    expect(failure).toMatchObject({ message: "refused", code: "P0001", details: "5", hint: "some_rule" });
    // The connection goes on after a failure.
    expect((await thread.query("select $1::int + 1 as n", [41])).rows).toEqual([{ n: 42 }]);
  });

  it("passes each notification of a channel it listens to, and none after unlistening", async () => {
    const heard: string[] = [];
    const unlisten = await thread.listen("thread_test", (payload) => heard.push(payload));
    await thread.query("select pg_notify('thread_test', 'first')");
    await thread.query("select pg_notify('other_channel', 'not this one')");
    await unlisten();
    await thread.query("select pg_notify('thread_test', 'after')");
    // One more round trip: anything sent before it has arrived.
    await thread.query("select 1");
    expect(heard).toEqual(["first"]);
  });
});

describe("the embedded database opened on its thread", () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), "pglite-thread-"));
  const migrations = path.join(directory, "migrations");
  const dataDir = path.join(directory, "data");
  const broken = path.join(migrations, "20990101000001_broken.sql");
  beforeAll(() => {
    mkdirSync(migrations);
    writeFileSync(
      path.join(migrations, "20990101000000_first.sql"),
      "create table public.kept_if_whole (id int); create function public.answer() returns jsonb language sql as 'select to_jsonb(42)';",
    );
    writeFileSync(broken, "select * from a_table_that_is_not_there;");
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("applies a failing set of migrations not at all: the one before the failure is rolled back with it", async () => {
    const refusal = await openPgliteDatabase(dataDir, migrations).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DbError);
    expect((refusal as DbError).code).toBe("42P01");

    const thread = await openPgliteThread(dataDir);
    try {
      const tables = await thread.query("select to_regclass('public.kept_if_whole') is null as absent");
      expect(tables.rows).toEqual([{ absent: true }]);
    } finally {
      await thread.close();
    }
  }, 60_000);

  it("migrates through the thread, answers calls, and answers as unavailable once closed", async () => {
    rmSync(broken);
    const db = await openPgliteDatabase(dataDir, migrations);
    expect(await db.rpc("answer")).toBe(42);
    await db.close();
    const after = await db.rpc("answer").catch((error: unknown) => error);
    expect(after).toBeInstanceOf(DbError);
    expect((after as DbError).unavailable).toBe(true);
  }, 60_000);
});

// A thread that ends by itself (docs/decisions/106). Its heap is made small, and a call whose
// rows do not fit in it end the thread (ERR_WORKER_OUT_OF_MEMORY), as a runaway result would.
describe("the embedded database after its thread ends by itself", () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), "pglite-lost-"));
  const migrations = path.join(directory, "migrations");
  const threadHeapMb = 40;
  beforeAll(() => {
    mkdirSync(migrations);
    writeFileSync(
      path.join(migrations, "20990101000000_first.sql"),
      `create table public.kept (note text);
       create function public.keep(note text) returns jsonb language sql as 'insert into public.kept values (note) returning to_jsonb(note)';
       create function public.notes() returns jsonb language sql as 'select coalesce(jsonb_agg(note order by note), ''[]'') from public.kept';
       create function public.announce(note text) returns jsonb language sql as 'select to_jsonb(pg_notify(''lost_test'', note)::text)';
       -- 400,000 rows of 100 characters: far more than the thread's heap once they are objects.
       create function public.too_large() returns setof jsonb language sql as 'select to_jsonb(repeat(''x'', 100)) from generate_series(1, 400000)';`,
    );
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** The call's failure, which must be there. */
  async function failureOf(work: Promise<unknown>): Promise<DbError> {
    const outcome = await work.then(
      () => null,
      (error: unknown) => toDbError(error),
    );
    if (!(outcome instanceof DbError)) throw new Error("the call was expected to fail");
    return outcome;
  }

  /** Asks until the database answers again: each try fails at once while the thread reopens. */
  async function whenAnswering(db: Database): Promise<unknown> {
    for (let tries = 0; tries < 600; tries += 1) {
      const answer = await db.rpc("notes").catch(() => undefined);
      if (answer !== undefined) return answer;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("the database never answered again");
  }

  it("answers as unavailable meanwhile, tells its listeners, then reopens on its directory with what was committed", async () => {
    const db = await openPgliteDatabase(path.join(directory, "data"), migrations, true, { threadHeapMb });
    try {
      const heard: string[] = [];
      let listenersLost = 0;
      await db.listen!(
        "lost_test",
        (payload) => heard.push(payload),
        () => (listenersLost += 1),
      );
      await db.rpc("keep", { note: "committed before" });

      const lost = await failureOf(db.rpc("too_large"));
      expect(lost.unavailable).toBe(true);
      expect(listenersLost).toBe(1);

      expect(await whenAnswering(db)).toEqual(["committed before"]);
      await db.rpc("keep", { note: "written after" });
      expect(await db.rpc("notes")).toEqual(["committed before", "written after"]);
      // A listener told of the loss listens again, on the reopened thread.
      await db.listen!("lost_test", (payload) => heard.push(payload));
      await db.rpc("announce", { note: "after reopening" });
      await db.rpc("notes");
      expect(heard).toEqual(["after reopening"]);
    } finally {
      await db.close();
    }
  }, 120_000);

  it("stays unavailable when it was in memory: reopening would hand out an empty database", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const db = await openPgliteDatabase("memory://", migrations, true, { threadHeapMb });
    try {
      await db.rpc("keep", { note: "only in memory" });
      expect((await failureOf(db.rpc("too_large"))).unavailable).toBe(true);
      expect((await failureOf(db.rpc("notes"))).unavailable).toBe(true);
      const messages = logged.mock.calls.map((call) => String(call[0]));
      expect(messages).toContain("the in-memory database ended with its thread: restart the server");
      expect(messages.filter((message) => message.startsWith("database thread lost"))).toEqual([]);
    } finally {
      logged.mockRestore();
      await db.close();
    }
  }, 120_000);
});
