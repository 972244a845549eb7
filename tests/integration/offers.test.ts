import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { FALLBACK_TASKS } from "~/domain/tasks";
import { startOfferProvider } from "../support/offer-provider";

// The offer cache reads its configuration from the environment once, like the server does.
const provider = await startOfferProvider();
Object.assign(process.env, {
  OFFER_PROVIDER: "acme",
  OFFER_PROVIDER_API_URL: provider.url,
  OFFER_PROVIDER_API_KEY: "provider-key",
  FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? "127.0.0.1:9099",
});
const { clearTaskCache, listTasks } = await import("~/server/earning/provider-offers.server");
const { findTask } = await import("~/server/earning/tasks.server");

describe("offers from a provider", () => {
  beforeAll(() => clearTaskCache());
  beforeEach(() => {
    clearTaskCache();
    provider.state.failing = false;
    provider.state.requests = 0;
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => provider.close());

  it(`maps the provider's offers as docs/product.md, "Earn: the tasks" says and sends the API key`, async () => {
    const list = await listTasks();
    expect(list.source).toBe("provider");
    expect(list.tasks.map((task) => [task.id, task.type, task.reward, task.timeToComplete])).toEqual([
      ["acme-1", "survey", 40, "3 min"],
      ["acme-2", "video", 300, "10 min"],
      ["3", "game", 125, "20 min"],
      ["acme-4", "app", 50, "0 min"],
    ]);
    expect(provider.state.authorization.at(-1)).toBe("Bearer provider-key");
  });

  it("keeps the offers for five minutes: one request for many readers", async () => {
    await Promise.all([listTasks(), listTasks(), listTasks()]);
    await listTasks();
    expect(provider.state.requests).toBe(1);
  });

  it("asks the provider again only after five minutes (a controllable clock)", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T10:00:00Z") });
    await listTasks();
    expect(provider.state.requests).toBe(1);
    vi.setSystemTime(new Date("2026-11-22T10:04:59Z"));
    await listTasks();
    expect(provider.state.requests).toBe(1);
    vi.setSystemTime(new Date("2026-11-22T10:05:01Z"));
    expect((await listTasks()).source).toBe("provider");
    expect(provider.state.requests).toBe(2);
  });

  it("while the provider fails, keeps serving its last good list for 30 seconds at a time, then tries the provider again", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T10:00:00Z") });
    const good = await listTasks();
    expect(good.source).toBe("provider");
    provider.state.failing = true;
    vi.setSystemTime(new Date("2026-11-22T10:05:01Z"));
    const kept = await listTasks();
    expect(provider.state.requests).toBe(3); // the refresh and its one retry
    expect(kept.source).toBe("provider");
    expect(kept.tasks.map((task) => task.id)).toEqual(good.tasks.map((task) => task.id));
    provider.state.failing = false;
    vi.setSystemTime(new Date("2026-11-22T10:05:30Z"));
    expect((await listTasks()).tasks.map((task) => task.id)).toEqual(good.tasks.map((task) => task.id));
    expect(provider.state.requests).toBe(3);
    vi.setSystemTime(new Date("2026-11-22T10:05:32Z"));
    expect((await listTasks()).source).toBe("provider");
    expect(provider.state.requests).toBe(4);
  });

  it("with no good list yet, a failing provider leaves no tasks at all: never the fallback tasks, which pay without a postback", async () => {
    provider.state.failing = true;
    const list = await listTasks();
    expect(provider.state.requests).toBe(2);
    expect(list.source).toBe("unavailable");
    expect(list.tasks).toEqual([]);
    for (const task of FALLBACK_TASKS) expect(await findTask(task.id)).toBeNull();
  });

  // No timer: a refresh without its deadline would never end (the test's own limit fails it).
  it("a refresh that stalls (the provider accepts and never answers) is given up at its deadline and serves the last good list", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T10:00:00Z") });
    const good = await listTasks();
    provider.state.stalling = true;
    try {
      vi.setSystemTime(new Date("2026-11-22T10:05:01Z"));
      const kept = await listTasks();
      expect(kept.source).toBe("provider");
      expect(kept.tasks.map((task) => task.id)).toEqual(good.tasks.map((task) => task.id));
      for (const task of FALLBACK_TASKS) expect(await findTask(task.id)).toBeNull();
    } finally {
      provider.state.stalling = false;
    }
  });

  it("finds only tasks it lists", async () => {
    expect(await findTask("acme-2")).toMatchObject({ reward: 300 });
    expect(await findTask("task-001")).toBeNull();
    expect(await findTask("../../etc")).toBeNull();
  });
});
