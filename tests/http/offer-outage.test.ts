import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleMessage } from "~/domain/rules";
import { fallbackTasks } from "~/domain/tasks";
import { startTestApp } from "../support/app-server";
import { newMember } from "../support/console";
import { HttpClient, html, uniqueEmail } from "../support/http";
import { startOfferProvider } from "../support/offer-provider";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// A provider that stalled during the offers fetch made the server list its own fallback tasks, which
// pay after five seconds with no postback: three were completed for 630 coins that way. With a
// provider configured, its last good list is served while a refresh fails, and the fallback tasks
// are never listed, started or paid.
const TASK_GONE = ruleMessage("task_unavailable");

describe("a stalled offer provider does not switch payment rules", () => {
  let provider: Awaited<ReturnType<typeof startOfferProvider>>;
  let app: PostgresApp;

  beforeAll(async () => {
    provider = await startOfferProvider();
    app = await startPostgresApp({
      OFFER_PROVIDER: "acme",
      OFFER_PROVIDER_API_URL: provider.url,
      OFFER_POSTBACK_SECRET: "postback-secret-for-tests",
      // The list is refreshed every second here, so a test can make a refresh stall.
      OFFER_REFRESH_SECONDS: "1",
    });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await provider?.close();
  });

  async function member() {
    const { client, uid } = await newMember(app);
    return { client, id: uid };
  }

  const balance = async (id: string) =>
    (await app.sql<{ balance: string }>("select balance::text from user_balance where user_id = $1", [id]))[0]!.balance;

  // No timer in the test: a page that waited on the stalled refresh would never answer (the test's
  // own limit fails it); the log shows that the app's deadline, not an answer, ended the refresh.
  it("while a refresh stalls, Earn answers with the provider's last good offers once its deadline gives up on the refresh, and the fallback tasks cannot be started or completed", async () => {
    const { client, id } = await member();
    const before = await (await client.get("/earn")).text();
    expect(before).toContain("Daily Poll");
    provider.state.stalling = true;
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const during = await (await client.get("/earn")).text();
      expect(app.stderr()).toMatch(/offer provider acme, attempt \d: .*(abort|timeout)/i);
      expect(during).toContain("Daily Poll");
      expect(during).not.toContain("Failed to load tasks");
      for (const task of fallbackTasks()) expect(during).not.toContain(html(task.title));

      const startingBalance = await balance(id);
      for (const task of fallbackTasks().slice(0, 3)) {
        const start = await client.post(`/earn?task=${task.id}`, { intent: "start", taskId: task.id });
        expect(start.status).toBe(400);
        expect(await start.text()).toContain(html(TASK_GONE));
      }
      await new Promise((resolve) => setTimeout(resolve, 5_200));
      for (const task of fallbackTasks().slice(0, 3)) {
        const complete = await client.post(`/earn?task=${task.id}&started=1`, { intent: "complete", taskId: task.id });
        expect(complete.status).toBe(400);
        expect(await complete.text()).toContain(html(TASK_GONE));
        const api = await client.post("/api/acme/complete", { taskId: task.id });
        expect(api.status).toBe(404);
      }
      expect(await app.sql("select task_id from task_starts where user_id = $1", [id])).toEqual([]);
      expect(await app.sql("select task_id from completed_tasks where user_id = $1", [id])).toEqual([]);
      expect(await balance(id)).toBe(startingBalance);
    } finally {
      provider.state.stalling = false;
    }
  }, 30_000);

  it("a start left from the fallback list (no provider on it) is never paid, even for an id the provider lists", async () => {
    const { client, id } = await member();
    const startingBalance = await balance(id);
    await app.sql(
      `insert into task_starts (user_id, task_id, title, reward, provider, started_at)
       values ($1, 'acme-1', 'Daily Poll', 210, null, now() - interval '1 minute')`,
      [id],
    );
    const complete = await client.post("/earn?task=acme-1&started=1", { intent: "complete", taskId: "acme-1" });
    expect(complete.status).toBe(400);
    expect(await complete.text()).toContain(html(TASK_GONE));
    const api = await client.post("/api/acme/complete", { taskId: "acme-1" });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ success: false, error: TASK_GONE });
    expect(await app.sql("select task_id from completed_tasks where user_id = $1", [id])).toEqual([]);
    expect(await balance(id)).toBe(startingBalance);
  });
});

describe("a provider that has never answered", () => {
  let provider: Awaited<ReturnType<typeof startOfferProvider>>;
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    provider = await startOfferProvider();
    provider.state.stalling = true;
    app = await startTestApp({ OFFER_PROVIDER: "acme", OFFER_PROVIDER_API_URL: provider.url });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await provider?.close();
  });

  it("Earn says the tasks could not be loaded and Home's quick tasks say so too: no fallback task is shown", async () => {
    const client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    await client.post("/auth?tab=signup", { intent: "signup", email: uniqueEmail("stall"), password: "s3cret-pass" });
    const earn = await client.visit("/earn");
    expect(earn.response.status).toBe(200);
    expect(earn.html).toContain("Failed to load tasks");
    expect(earn.html).toContain(html("Couldn't load available tasks. Please try again later."));
    for (const task of fallbackTasks()) expect(earn.html).not.toContain(html(task.title));
    const home = await client.visit("/");
    expect(home.html).toContain("Error fetching tasks");
    for (const task of fallbackTasks()) expect(home.html).not.toContain(html(task.title));
    const start = await client.post("/earn", { intent: "start", taskId: fallbackTasks()[0]!.id });
    expect(start.status).toBe(400);
    expect(await start.text()).toContain(html(TASK_GONE));
  }, 30_000);
});
