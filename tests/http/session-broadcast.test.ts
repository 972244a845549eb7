import { initializeApp } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../support/app-server";
import { HttpClient } from "../support/http";
import { openEvents } from "../support/live-events";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { eventually } from "../support/wait";

const PASSWORD = "s3cret-pass";
// Long enough that, without the announcement, server B would go on accepting an ended session for
// the whole test: only the broadcast can make B refuse it at once.
const VERIFY_CACHE_MS = "600000";

// Two production servers on one Postgres database, as behind a load balancer: what happens on A
// must reach B through the database (pg_notify), whose verification cache would otherwise go on
// accepting the session.
describe("a session ended on one server is refused by every server at once", () => {
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
});
