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
const { clearTaskCache, listTasks } = await import("~/server/offers.server");
const { findTask } = await import("~/server/tasks.server");

describe("offers from a provider", () => {
  beforeAll(() => clearTaskCache());
  beforeEach(() => {
    clearTaskCache();
    provider.state.failing = false;
    provider.state.requests = 0;
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => provider.close());

  it("maps the provider's offers as spec §3 says and sends the API key", async () => {
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

  it("keeps the fallback list only 30 seconds while the provider fails, then tries the provider again", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T10:00:00Z") });
    provider.state.failing = true;
    expect((await listTasks()).source).toBe("fallback");
    expect(provider.state.requests).toBe(2); // one retry
    provider.state.failing = false;
    vi.setSystemTime(new Date("2026-11-22T10:00:29Z"));
    expect((await listTasks()).source).toBe("fallback");
    expect(provider.state.requests).toBe(2);
    vi.setSystemTime(new Date("2026-11-22T10:00:31Z"));
    expect((await listTasks()).source).toBe("provider");
    expect(provider.state.requests).toBe(3);
  });

  it("retries once, then falls back to the 11 tasks of spec §9", async () => {
    provider.state.failing = true;
    const list = await listTasks();
    expect(provider.state.requests).toBe(2);
    expect(list.source).toBe("fallback");
    expect(list.tasks.map((task) => task.id)).toEqual(FALLBACK_TASKS.map((task) => task.id));
    expect(list.tasks.map((task) => task.reward)).toEqual([100, 75, 200, 150, 120, 80, 180, 250, 160, 170, 130]);
  });

  it("finds only tasks it lists", async () => {
    expect(await findTask("acme-2")).toMatchObject({ reward: 300 });
    expect(await findTask("task-001")).toBeNull();
    expect(await findTask("../../etc")).toBeNull();
  });
});
