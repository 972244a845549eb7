import { afterEach, describe, expect, it, vi } from "vitest";
import { memoizeByKey } from "~/server/runtime/cache.server";

describe("memoizeByKey (values kept per person)", () => {
  afterEach(() => vi.useRealTimers());

  it("loads each key once while fresh, even for requests that arrive together, and again after its time", async () => {
    vi.useFakeTimers();
    const load = vi.fn(async (key: string) => `value of ${key}`);
    const cache = memoizeByKey(60_000, load);
    expect(await Promise.all([cache.get("a"), cache.get("a"), cache.get("b")])).toEqual([
      "value of a",
      "value of a",
      "value of b",
    ]);
    expect(load).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(59_000);
    await cache.get("a");
    expect(load).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(2_000);
    await cache.get("a");
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("keeps no failure: the next read loads again", async () => {
    let calls = 0;
    const cache = memoizeByKey(60_000, async () => {
      calls += 1;
      if (calls === 1) throw new Error("Firebase unavailable");
      return "ok";
    });
    await expect(cache.get("a")).rejects.toThrow("Firebase unavailable");
    expect(await cache.get("a")).toBe("ok");
  });

  it("forgets a key on delete", async () => {
    const load = vi.fn(async () => "value");
    const cache = memoizeByKey(60_000, load);
    await cache.get("a");
    cache.delete("a");
    await cache.get("a");
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("holds at most maxEntries keys, dropping the oldest", async () => {
    const load = vi.fn(async (key: string) => key);
    const cache = memoizeByKey(60_000, load, 3);
    for (const key of ["a", "b", "c", "d"]) await cache.get(key);
    expect(load).toHaveBeenCalledTimes(4);
    await cache.get("d");
    await cache.get("b");
    expect(load).toHaveBeenCalledTimes(4);
    await cache.get("a");
    expect(load).toHaveBeenCalledTimes(5);
  });
});
