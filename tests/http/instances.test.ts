import { readdirSync } from "node:fs";
import { initializeApp } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fallbackTasks } from "~/domain/tasks";
import { RATE_LIMITS } from "~/server/http/rate-limit.server";
import { startTestApp } from "../support/app-server";
import { createScratchDatabase } from "../support/db";
import { HttpClient, uniqueEmail } from "../support/http";
import { openEvents } from "../support/live-events";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { eventually } from "../support/wait";

const PASSWORD = "s3cret-pass";
// Long enough that, without the announcement, server B would go on accepting an ended session for
// the whole test: only the broadcast can make B refuse it at once.
const VERIFY_CACHE_MS = "600000";

// Two production servers on one Postgres database, as behind a load balancer: what happens on A
// must reach B through the database (pg_notify, shared tables), whose verification cache would
// otherwise go on accepting an ended session.
describe("two app servers (A and B) on one Postgres database", () => {
  let a: PostgresApp;
  let b: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    a = await startPostgresApp({ SESSION_VERIFY_CACHE_MS: VERIFY_CACHE_MS });
    b = await startTestApp({ DATABASE_URL: a.scratchUrl, SESSION_VERIFY_CACHE_MS: VERIFY_CACHE_MS });
  }, 180_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  /**
   * A person signed up on A whose cookie B has verified (and keeps), with a page open on B
   * receiving live refresh. Returns once a revocation can tell this sign-in apart.
   */
  async function signedInOnBoth() {
    const { client, email, response } = await a.signUp();
    expect(response.status).toBe(302);
    const signedInSecond = Math.floor(Date.now() / 1000);
    const [row] = await a.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    const onB = new HttpClient(b.url);
    for (const [name, value] of client.cookies) onB.cookies.set(name, value);
    expect((await onB.get("/")).status).toBe(200);
    const stream = await openEvents(onB);
    // Firebase compares revocation times in whole seconds: revoke in a later second than sign-in.
    await eventually(() => Math.floor(Date.now() / 1000) > signedInSecond, { what: "the next second", intervalMs: 20 });
    return { client, uid: row!.id, onB, stream };
  }

  async function expectSignedOutOnB(person: Awaited<ReturnType<typeof signedInOnBoth>>) {
    expect(await person.stream.untilEnd()).toContain("event: signed-out\ndata: {}\n\n");
    const home = await person.onB.get("/");
    expect(home.status).toBe(302);
    expect(home.headers.get("location")).toBe("/auth");
  }

  it("keeps a verified session on B for SESSION_VERIFY_CACHE_MS when nothing is announced (why the tests below need the broadcast)", async () => {
    const person = await signedInOnBoth();
    // Revoked at Firebase behind the app's back: no server hears of it.
    const admin = initializeApp({ projectId: "demo-rewards" }, "session-broadcast-test");
    await getAuth(admin).revokeRefreshTokens(person.uid);
    expect((await person.onB.get("/")).status).toBe(200);
    expect(await person.stream.stillOpen()).toBe(true);
    // A has not verified the cookie yet: it asks Firebase, which refuses it.
    expect((await person.client.get("/")).status).toBe(302);
  });

  it("log out on A: B refuses the cookie at once and ends the person's open stream with 'signed-out', and no one else's", async () => {
    const person = await signedInOnBoth();
    const bystander = await signedInOnBoth();
    expect((await person.client.post("/logout", {})).status).toBe(302);
    await expectSignedOutOnB(person);
    expect((await bystander.onB.get("/")).status).toBe(200);
    expect(await bystander.stream.stillOpen()).toBe(true);
  });

  it("deactivation on A: B refuses the cookie at once and ends the person's open stream with 'signed-out'", async () => {
    const person = await signedInOnBoth();
    const response = await person.client.post("/profile", { intent: "deactivate", confirm: "yes" });
    expect(response.headers.get("location")).toBe("/auth");
    await expectSignedOutOnB(person);
  });

  it("deletion on A: B refuses the cookie at once and ends the person's open stream with 'signed-out'", async () => {
    const person = await signedInOnBoth();
    const response = await person.client.post("/profile", { intent: "delete-account", password: PASSWORD });
    expect(response.headers.get("location")).toBe("/auth");
    await expectSignedOutOnB(person);
    // Refused, not provisioned afresh: B made no profile for the deleted person.
    expect(await a.sql("select 1 from user_profiles where id = $1", [person.uid])).toEqual([]);
  });

  it("a task completed through A refreshes the person's page open on B: B's stream says task-completed, and B then shows the new balance", async () => {
    const person = await signedInOnBoth();
    const [task] = fallbackTasks();
    expect((await person.client.post("/earn", { intent: "start", taskId: task!.id })).status).toBe(302);
    // The five seconds the database insists on, already past.
    await a.sql("update task_starts set started_at = now() - interval '1 minute' where user_id = $1", [person.uid]);
    const completed = await person.client.post("/earn", { intent: "complete", taskId: task!.id });
    expect(completed.headers.get("location")).toBe("/earn");
    await person.stream.nextEvent("task-completed");
    // What the page does on that event: it reloads its data, from B.
    const home = await person.onB.visit("/");
    expect(home.html).toMatch(new RegExp(`data-testid="balance">\\$${(task!.reward / 100).toFixed(2)}<`));
    person.stream.close();
  });

  it("rate limits are shared: ten failed sign-ins for one address, five on A and five on B, slow it down on both: the eleventh is checked at the pace's turn, and the next is refused (429) on either", async () => {
    const { email } = await a.signUp();
    const signIn = (server: string) =>
      new HttpClient(server).post("/auth", { intent: "signin", email, password: "not-the-password" });
    for (let attempt = 0; attempt < RATE_LIMITS.signIn.limit; attempt++) {
      expect((await signIn(attempt % 2 === 0 ? a.url : b.url)).status).toBe(400);
    }
    expect((await signIn(b.url)).status).toBe(400);
    for (const server of [a.url, b.url]) {
      const refused = await signIn(server);
      expect(refused.status).toBe(429);
      expect(await refused.text()).toContain("Too many attempts. Please try again in");
    }
  });
});

// Deployments start their instances together: each applies missing migrations at start, under an
// advisory lock, so one applies them and the other finds them done.
describe("two app servers started at the same moment on an empty Postgres database", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("both start and serve without an error, and every migration is recorded once, all applied in one transaction", async () => {
    const scratch = await createScratchDatabase();
    cleanups.push(scratch.drop);
    const servers = await Promise.all([
      startTestApp({ DATABASE_URL: scratch.url }),
      startTestApp({ DATABASE_URL: scratch.url }),
    ]);
    for (const server of servers) cleanups.push(server.stop);
    const files = readdirSync("supabase/migrations")
      .filter((file) => file.endsWith(".sql"))
      .sort()
      .map((file) => file.replace(/\.sql$/, ""));
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ migration: string; applied_at: Date }>(
        "select version || '_' || name as migration, applied_at from app_meta.schema_migrations order by version",
      );
      expect(rows.map((row) => row.migration)).toEqual(files);
      // now() is the transaction's start: one time for all of them.
      expect(new Set(rows.map((row) => row.applied_at.getTime())).size).toBe(1);
    } finally {
      await admin.end();
    }
    for (const server of servers) {
      // A server whose first try failed (and then succeeded on the next request) would say so here.
      expect(server.stderr()).not.toMatch(/database not ready|error/i);
      const client = new HttpClient(server.url);
      client.cookies.set("hasSeenOnboarding", "true");
      const signUp = await client.post("/auth?tab=signup", {
        intent: "signup",
        email: uniqueEmail("together"),
        password: PASSWORD,
      });
      expect(signUp.status).toBe(302);
    }
  }, 120_000);
});
