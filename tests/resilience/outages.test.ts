import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fallbackTasks } from "~/domain/tasks";
import { SERVICE_UNAVAILABLE_MESSAGE } from "~/server/runtime/unavailable.server";
import { startPostgres } from "../../scripts/lib/services.mjs";
import { startTestApp } from "../support/app-server";
import { html, type HttpClient } from "../support/http";
import { openEvents } from "../support/live-events";
import { signUpUsers } from "../support/load";
import { eventually } from "../support/wait";

// The database server itself stops and starts again (same port, same data) while the app serves:
// a real restart, with Postgres ending every connection, not a relay that is cut.
describe("the Postgres server restarts while the app serves", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let sql: pg.Pool;

  beforeAll(async () => {
    postgres = await startPostgres();
    app = await startTestApp({ DATABASE_URL: postgres.url });
    sql = new pg.Pool({ connectionString: postgres.url, max: 2 });
    sql.on("error", () => {});
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await sql?.end();
    await postgres?.stop();
  });

  async function signUp() {
    const [{ client, email }] = (await signUpUsers(app.url, 1, "restart")) as [{ client: HttpClient; email: string }];
    const { rows } = await sql.query<{ id: string }>("select id from user_profiles where email = $1", [email]);
    return { client, id: rows[0]!.id };
  }

  it("while it is down pages and posts answer the app's 503 page and change nothing; once it is back the app recovers by itself, live refresh included", async () => {
    const { client, id } = await signUp();
    expect((await client.visit("/")).response.status).toBe(200);
    // A page open since before the restart, receiving live refresh.
    const stream = await openEvents(client);

    await postgres.stopServer();
    const down = Date.now();
    const home = await client.visit("/");
    expect(home.response.status).toBe(503);
    expect(home.response.headers.get("retry-after")).toBe("10");
    expect(home.html).toContain(html(SERVICE_UNAVAILABLE_MESSAGE));
    expect(home.html).not.toMatch(/\n\s+at |node_modules/);
    const checkIn = await client.post("/?index", { intent: "checkin" });
    expect(checkIn.status).toBe(503);
    expect(await checkIn.text()).toContain(html(SERVICE_UNAVAILABLE_MESSAGE));
    expect((await client.get("/healthz")).status).toBe(503);

    await postgres.startServer();
    const up = Date.now();
    await eventually(async () => (await client.visit("/")).response.status === 200, {
      what: "Home to answer 200 again",
      timeoutMs: 20_000,
    });
    const recoveredMs = Date.now() - up;
    expect((await client.get("/healthz")).status).toBe(200);
    // The check-in refused during the outage did not happen; now it does.
    const { rows } = await sql.query("select 1 from daily_checkins where user_id = $1", [id]);
    expect(rows).toEqual([]);
    expect((await client.post("/?index", { intent: "checkin" })).status).toBe(302);

    // The app listens again (it retries every 5 s) and, since it may have missed completions
    // meanwhile, tells the page opened before the restart to refresh; then live refresh goes on.
    const resyncMs = await stream.nextEvent("task-completed", 15_000);
    const [task] = fallbackTasks();
    expect((await client.post("/earn", { intent: "start", taskId: task!.id })).status).toBe(302);
    await sql.query("update task_starts set started_at = now() - interval '1 minute' where user_id = $1", [id]);
    const completed = await client.post("/earn", { intent: "complete", taskId: task!.id });
    expect(completed.status).toBe(302);
    await stream.nextEvent("task-completed", 5_000);
    stream.close();
    const [audit] = (await sql.query<{ result: unknown[] }>("select verify_all_balances() as result")).rows;
    expect(audit!.result).toEqual([]);
    console.log(
      `[resilience] Postgres restart: down ${up - down} ms; pages answered 200 again ${recoveredMs} ms after it was ` +
        `back, and open pages were told to refresh ${recoveredMs + resyncMs} ms after`,
    );
  }, 90_000);
});

describe("an offer provider that accepts connections and never answers", () => {
  let hanging: net.Server;
  const connections = new Set<net.Socket>();
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    hanging = net.createServer((socket) => {
      connections.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => connections.delete(socket));
    });
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const port = (hanging.address() as net.AddressInfo).port;
    app = await startTestApp({
      OFFER_PROVIDER: "acme",
      OFFER_PROVIDER_API_URL: `http://127.0.0.1:${port}/offers`,
      OFFER_PROVIDER_API_KEY: "provider-key",
    });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    for (const socket of connections) socket.destroy();
    await new Promise((resolve) => hanging?.close(resolve));
  });

  // No timer in the test: a page that waited on the provider would never answer (the test's own limit
  // fails it); the time it took is printed as a figure.
  it("Earn answers, once its deadline gives up on the provider, that the tasks could not be loaded, and so does Home's quick tasks: the fallback tasks never stand in for the provider's", async () => {
    const [{ client: signedIn }] = (await signUpUsers(app.url, 1, "hang")) as [{ client: HttpClient; email: string }];
    const began = Date.now();
    const earn = await signedIn.visit("/earn");
    const ms = Date.now() - began;
    expect(earn.response.status).toBe(200);
    expect(earn.html).toContain("Failed to load tasks");
    for (const task of fallbackTasks()) expect(earn.html).not.toContain(html(task.title));
    // The provider was asked, and kept the app waiting.
    expect(connections.size).toBeGreaterThan(0);
    const home = await signedIn.visit("/");
    expect(home.response.status).toBe(200);
    expect(home.html).toContain("Error fetching tasks");
    console.log(`[resilience] hanging offer provider: Earn answered "Failed to load tasks" in ${ms} ms`);
  }, 30_000);
});
