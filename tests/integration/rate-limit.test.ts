import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDatabase } from "~/server/db/database.server";
import { hitRateLimit, leasedRateLimit, RATE_LIMITS } from "~/server/http/rate-limit.server";
import { dbRefusal, openTestPglite, openTestPostgres, type TestDatabase } from "../support/db";

// hitRateLimit reaches the app's database through getDatabase(); here that is the test database.
vi.mock("~/server/db/database.server", () => ({ getDatabase: vi.fn() }));

type Hit = { allowed: boolean; remaining: number; retry_after_seconds: number };

let counter = 0;
const newKey = (label: string) => `test:${label}:${Date.now().toString(36)}-${++counter}`;

// 2030-01-01T00:00:00Z is a whole number of minutes and hours since the epoch, so windows of 60 s
// and 3600 s start exactly there. Each test places its hits with p_now relative to it.
const BASE = Date.parse("2030-01-01T00:00:00Z");
const at = (seconds: number) => new Date(BASE + seconds * 1000).toISOString();

function hit(t: TestDatabase, key: string, limit: number, windowSeconds: number, sliding: boolean, seconds: number) {
  return t.db.rpc<Hit>("hit_rate_limit", {
    p_key: key,
    p_limit: limit,
    p_window_seconds: windowSeconds,
    p_sliding: sliding,
    p_now: at(seconds),
  });
}

async function storedWindows(t: TestDatabase, key: string) {
  const rows = await t.sql<{ window_start: Date; hits: number }>(
    "select window_start, hits from rate_limit_windows where key = $1 order by window_start",
    [key],
  );
  return rows.map((row) => [new Date(row.window_start).toISOString(), row.hits]);
}

// The rules are SQL, run here on PGlite (Postgres's own engine, compiled); the HTTP suite runs them
// again through the app on the Postgres server, and races are proven on the server
// (tests/integration/concurrency.test.ts, tests/http/pooler.test.ts).
describe.each([["PGlite", openTestPglite]])("hit_rate_limit on %s", (_name, open) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("fixed window: allows `limit` hits, then refuses with retry_after = the seconds left in the window", async () => {
    const key = newKey("fixed");
    expect(await hit(t, key, 3, 60, false, 10)).toEqual({ allowed: true, remaining: 2, retry_after_seconds: 0 });
    expect(await hit(t, key, 3, 60, false, 20)).toEqual({ allowed: true, remaining: 1, retry_after_seconds: 0 });
    expect(await hit(t, key, 3, 60, false, 30)).toEqual({ allowed: true, remaining: 0, retry_after_seconds: 0 });
    expect(await hit(t, key, 3, 60, false, 45)).toEqual({ allowed: false, remaining: 0, retry_after_seconds: 15 });
    // A fraction of a second left is still a second to wait.
    expect(await hit(t, key, 3, 60, false, 59.5)).toEqual({ allowed: false, remaining: 0, retry_after_seconds: 1 });
  });

  it("fixed window: one window later the key is allowed again with a full allowance", async () => {
    const key = newKey("rollover");
    await hit(t, key, 2, 60, false, 0);
    await hit(t, key, 2, 60, false, 1);
    expect((await hit(t, key, 2, 60, false, 59.999)).allowed).toBe(false);
    expect(await hit(t, key, 2, 60, false, 60)).toEqual({ allowed: true, remaining: 1, retry_after_seconds: 0 });
  });

  it("sliding window: the previous window's hits, weighted by their remaining overlap, refuse what a fixed window allows", async () => {
    const sliding = newKey("sliding");
    const fixed = newKey("sliding-vs-fixed");
    for (const key of [sliding, fixed]) {
      for (let i = 0; i < 4; i++) expect((await hit(t, key, 4, 60, key === sliding, 50)).allowed).toBe(true);
    }
    // 15 s into the next window, 45/60 of the previous window still counts: 4 * 0.75 = 3, so one hit fits.
    expect(await hit(t, sliding, 4, 60, true, 75)).toEqual({ allowed: true, remaining: 0, retry_after_seconds: 0 });
    // A second one would make 3 + 2 = 5 > 4. It fits once the weight is 2/4, 30 s into the window.
    expect(await hit(t, sliding, 4, 60, true, 75)).toEqual({ allowed: false, remaining: 0, retry_after_seconds: 15 });
    expect((await hit(t, sliding, 4, 60, true, 89.999)).allowed).toBe(false);
    expect(await hit(t, sliding, 4, 60, true, 90)).toEqual({ allowed: true, remaining: 0, retry_after_seconds: 0 });
    // The same hits under a fixed window: the new window starts empty.
    expect(await hit(t, fixed, 4, 60, false, 75)).toEqual({ allowed: true, remaining: 3, retry_after_seconds: 0 });
    expect(await hit(t, fixed, 4, 60, false, 75)).toEqual({ allowed: true, remaining: 2, retry_after_seconds: 0 });
  });

  it("sliding window: a full window's retry_after reaches into the next window until its weight has fallen enough", async () => {
    const key = newKey("sliding-full");
    await hit(t, key, 2, 60, true, 0);
    await hit(t, key, 2, 60, true, 0);
    // 60 s to the next window, then 30 s until 2 * 30/60 = 1 previous hit leaves room for one.
    expect(await hit(t, key, 2, 60, true, 0)).toEqual({ allowed: false, remaining: 0, retry_after_seconds: 90 });
    expect((await hit(t, key, 2, 60, true, 89.999)).allowed).toBe(false);
    expect(await hit(t, key, 2, 60, true, 90)).toEqual({ allowed: true, remaining: 0, retry_after_seconds: 0 });
  });

  it("counts each key on its own", async () => {
    const first = newKey("a");
    const second = newKey("b");
    expect((await hit(t, first, 1, 60, false, 0)).allowed).toBe(true);
    expect((await hit(t, first, 1, 60, false, 1)).allowed).toBe(false);
    expect(await hit(t, second, 1, 60, false, 2)).toEqual({ allowed: true, remaining: 0, retry_after_seconds: 0 });
    expect((await hit(t, first, 1, 60, false, 3)).allowed).toBe(false);
  });

  it("does not count refused hits, so hammering a sliding limit does not extend the wait", async () => {
    const key = newKey("hammer");
    await hit(t, key, 2, 60, true, 0);
    await hit(t, key, 2, 60, true, 1);
    for (let second = 2; second < 60; second += 2) expect((await hit(t, key, 2, 60, true, second)).allowed).toBe(false);
    expect(await storedWindows(t, key)).toEqual([[at(0), 2]]);
    // Had the refusals counted, the previous window would hold 31 hits and refuse all of the next.
    expect((await hit(t, key, 2, 60, true, 90)).allowed).toBe(true);
  });

  it("hitRateLimit stores `${rule.name}:${key}`, passes the rule's limit and window, and answers in camelCase", async () => {
    vi.mocked(getDatabase).mockResolvedValue(t.db);
    const user = newKey("user");
    const rule = RATE_LIMITS.feedback;
    for (let i = rule.limit - 1; i >= 0; i--) {
      expect(await hitRateLimit(rule, user)).toEqual({ allowed: true, remaining: i, retryAfterSeconds: 0 });
    }
    const refused = await hitRateLimit(rule, user);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(rule.windowSeconds * 2);
    const [row] = await t.sql<{ hits: number; window_seconds: number }>(
      // Summed: on the real clock the hits may straddle a window boundary.
      "select sum(hits)::int as hits, max(window_seconds) as window_seconds from rate_limit_windows where key = $1",
      [`feedback:${user}`],
    );
    expect(row).toEqual({ hits: rule.limit, window_seconds: rule.windowSeconds });
  });

  it("leasedRateLimit takes a hundredth of the limit at a time (take_rate_limit_hits) and lets exactly `limit` through", async () => {
    let calls = 0;
    vi.mocked(getDatabase).mockResolvedValue({
      ...t.db,
      rpc: (name: string, args?: Record<string, unknown>) => (calls++, t.db.rpc(name, args)),
    } as typeof t.db);
    // An hour's window: the run does not straddle one (a straddle would let a second window's through).
    const rule = { name: newKey("leased"), limit: 250, windowSeconds: 3600 };
    const results = [];
    for (let i = 0; i < rule.limit + 1; i++) results.push(await leasedRateLimit(rule, "network"));
    expect(results.filter((result) => result.allowed)).toHaveLength(rule.limit);
    const refused = results.at(-1)!;
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(rule.windowSeconds);
    // Leases of 2 (250 / 100): 125 calls, and one more that found the window full.
    expect(calls).toBe(126);
    const [row] = await t.sql<{ hits: number }>(
      "select sum(hits)::int as hits from rate_limit_windows where key = $1",
      [`${rule.name}:network`],
    );
    expect(row).toEqual({ hits: rule.limit });
  });

  it("take_rate_limit_hits grants what is left of the window when fewer than asked, then nothing", async () => {
    const key = newKey("hits");
    const take = (hits: number) =>
      t.db.rpc<{ granted: number; retry_after_seconds: number }>("take_rate_limit_hits", {
        p_key: key,
        p_limit: 5,
        p_window_seconds: 3600,
        p_hits: hits,
      });
    expect(await take(3)).toMatchObject({ granted: 3, retry_after_seconds: 0 });
    expect(await take(3)).toMatchObject({ granted: 2, retry_after_seconds: 0 });
    const none = await take(1);
    expect(none.granted).toBe(0);
    expect(none.retry_after_seconds).toBeGreaterThanOrEqual(1);
  });

  it.each([
    ["a missing key", { p_key: null }],
    ["a blank key", { p_key: "   " }],
    ["a key longer than 200 characters", { p_key: "k".repeat(201) }],
    ["a limit below 1", { p_limit: 0 }],
    ["a missing limit", { p_limit: null }],
    ["a window shorter than one second", { p_window_seconds: 0 }],
  ])("refuses %s with SQLSTATE P0001 and hint invalid_rate_limit", async (_label, override) => {
    const error = await dbRefusal(
      t.db.rpc("hit_rate_limit", { p_key: newKey("invalid"), p_limit: 5, p_window_seconds: 60, ...override }),
    );
    expect(error.code).toBe("P0001");
    expect(error.hint).toBe("invalid_rate_limit");
    expect(error.message).toMatch(/^Rate limit /);
  });

  it("take_rate_limit answers as hit_rate_limit plus the window it counted in, and refund_rate_limit gives that hit back", async () => {
    const key = newKey("take");
    const take = (seconds: number) =>
      t.db.rpc<Hit & { window_start?: string }>("take_rate_limit", {
        p_key: key,
        p_limit: 2,
        p_window_seconds: 60,
        p_sliding: false,
        p_now: at(seconds),
      });
    const first = await take(10);
    expect(first).toMatchObject({ allowed: true, remaining: 1, retry_after_seconds: 0 });
    expect(new Date(first.window_start!).toISOString()).toBe(at(0));
    await take(20);
    const refused = await take(30);
    expect(refused).toEqual({ allowed: false, remaining: 0, retry_after_seconds: 30 });
    // Two given back: the window's row goes, and the limit's full allowance is there again.
    expect(await t.db.rpc("refund_rate_limit", { p_key: key, p_window_start: first.window_start })).toEqual({
      refunded: true,
    });
    expect(await storedWindows(t, key)).toEqual([[at(0), 1]]);
    await t.db.rpc("refund_rate_limit", { p_key: key, p_window_start: first.window_start });
    expect(await storedWindows(t, key)).toEqual([]);
    expect(await t.db.rpc("refund_rate_limit", { p_key: key, p_window_start: first.window_start })).toEqual({
      refunded: false,
    });
    expect(await take(40)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it("pace_attempt lets one attempt per spacing through, and a refused one does not push the next back", async () => {
    const key = newKey("pace");
    const pace = (seconds: number) =>
      t.db.rpc<{ allowed: boolean; retry_after_seconds: number }>("pace_attempt", {
        p_key: key,
        p_spacing_seconds: 10,
        p_now: at(seconds),
      });
    expect(await pace(0)).toEqual({ allowed: true, retry_after_seconds: 0 });
    expect(await pace(0.5)).toEqual({ allowed: false, retry_after_seconds: 10 });
    expect(await pace(9.2)).toEqual({ allowed: false, retry_after_seconds: 1 });
    expect(await pace(10)).toEqual({ allowed: true, retry_after_seconds: 0 });
    expect(await pace(19.999)).toMatchObject({ allowed: false });
    expect(await pace(25)).toEqual({ allowed: true, retry_after_seconds: 0 });
    const error = await dbRefusal(t.db.rpc("pace_attempt", { p_key: key, p_spacing_seconds: 0 }));
    expect(error.hint).toBe("invalid_rate_limit");
  });

  it("keeps only the current and previous windows of a key once it is hit again", async () => {
    const key = newKey("prune");
    await hit(t, key, 5, 60, true, 0);
    await hit(t, key, 5, 60, true, 60);
    expect(await storedWindows(t, key)).toEqual([
      [at(0), 1],
      [at(60), 1],
    ]);
    await hit(t, key, 5, 60, true, 120);
    expect(await storedWindows(t, key)).toEqual([
      [at(60), 1],
      [at(120), 1],
    ]);
  });

  it("deletes other keys' expired windows while hitting, and prune_rate_limits deletes all expired windows", async () => {
    // Long before every other test's windows, so these are the only ones expired at these times.
    const early = (seconds: number) => seconds - 20 * 365 * 86_400;
    const idle = [newKey("idle"), newKey("idle"), newKey("idle")];
    for (const key of idle) await hit(t, key, 5, 60, false, early(0));
    await hit(t, newKey("sweeper"), 5, 60, false, early(120));
    for (const key of idle) expect(await storedWindows(t, key)).toEqual([]);

    const stale = newKey("stale");
    const live = newKey("live");
    // stale's window [960, 1020) expires at 1080; live's [1020, 1080) is still the previous window at 1100.
    await hit(t, stale, 5, 60, false, early(1000));
    await hit(t, live, 5, 60, false, early(1070));
    expect(await t.db.rpc("prune_rate_limits", { p_now: at(early(1100)) })).toEqual({ deleted: 1 });
    expect(await storedWindows(t, stale)).toEqual([]);
    expect(await storedWindows(t, live)).toEqual([[at(early(1020)), 1]]);
  });
});

// PGlite has one connection, so races can only be shown on a real Postgres server.
describe("hit_rate_limit under concurrency on a Postgres server", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPostgres(20);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("allows exactly 10 of 100 concurrent hits on one key with limit 10 (fixed window)", async () => {
    const key = newKey("race-fixed");
    const results = await Promise.all(Array.from({ length: 100 }, () => hit(t, key, 10, 3600, false, 30)));
    expect(results.filter((result) => result.allowed)).toHaveLength(10);
    expect(await storedWindows(t, key)).toEqual([[at(0), 10]]);
  });

  it("grants exactly 10 hits in all to 100 concurrent take_rate_limit_hits of 3 on one key with limit 10", async () => {
    const key = newKey("race-leases");
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.db.rpc<{ granted: number }>("take_rate_limit_hits", {
          p_key: key,
          p_limit: 10,
          p_window_seconds: 3600,
          p_hits: 3,
        }),
      ),
    );
    expect(results.reduce((sum, result) => sum + result.granted, 0)).toBe(10);
  });

  it("allows exactly 5 of 100 concurrent hits when half of a previous window of 10 still counts (sliding window)", async () => {
    const key = newKey("race-sliding");
    for (let i = 0; i < 10; i++) await hit(t, key, 10, 3600, true, 0);
    const results = await Promise.all(Array.from({ length: 100 }, () => hit(t, key, 10, 3600, true, 5400)));
    expect(results.filter((result) => result.allowed)).toHaveLength(5);
    expect(await storedWindows(t, key)).toEqual([
      [at(0), 10],
      [at(3600), 5],
    ]);
  });

  it("lets exactly 1 of 50 concurrent paced attempts of one key through", async () => {
    const key = newKey("race-pace");
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.db.rpc<{ allowed: boolean }>("pace_attempt", { p_key: key, p_spacing_seconds: 60, p_now: at(30) }),
      ),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(1);
  });

  it("races hits on 10 keys while their old windows and 50 expired ones are deleted, without deadlock, 3 allowed per key", async () => {
    const keys = Array.from({ length: 10 }, (_, i) => newKey(`race-keys-${i}`));
    // Each key has a window too old to keep; 50 other keys have only expired windows.
    for (const key of keys) await hit(t, key, 3, 60, true, 100_000);
    for (let i = 0; i < 50; i++) await hit(t, newKey("race-expired"), 3, 60, true, 100_000);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        hit(t, keys[i % 10]!, 3, 60, true, 100_500).then((r) => [i % 10, r] as const),
      ),
    );
    for (let k = 0; k < 10; k++) {
      expect(results.filter(([key, result]) => key === k && result.allowed)).toHaveLength(3);
      expect(await storedWindows(t, keys[k]!)).toEqual([[at(100_500 - (100_500 % 60)), 3]]);
    }
  });
});
