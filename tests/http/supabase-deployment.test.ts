import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../support/app-server";
import { HttpClient } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startSmtpStandIn, type SmtpStandIn } from "../support/smtp";
import { eventually } from "../support/wait";

// The deployment on Supabase (docs/configuration.md, SUPABASE_URL): the app on SUPABASE_URL and the
// service-role key, every call through PostgREST (here the stand-in of tests/support/postgrest.ts
// over Postgres), no DATABASE_URL. This file checks what is particular to it; each money flow over
// HTTP on this transport, with a refusal raised in SQL, is tests/http/supabase-money-flows.test.ts.
// How long a server trusts a session it has verified (SESSION_VERIFY_CACHE_MS): over PostgREST no
// announcement can end it sooner on another server.
const VERIFY_CACHE_MS = 3_000;

describe("the app deployed on Supabase: every call through PostgREST, no LISTEN", () => {
  let app: PostgresApp;
  let second: Awaited<ReturnType<typeof startTestApp>>;
  let smtp: SmtpStandIn;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    app = await startPostgresApp(
      {
        SMTP_URL: smtp.url,
        EMAIL_FROM: "Rewards <rewards@example.com>",
        NOTIFY_INTERVAL_SECONDS: "1",
        SESSION_VERIFY_CACHE_MS: String(VERIFY_CACHE_MS),
      },
      { transport: "supabase" },
    );
    // A second server on the same project, as behind a load balancer.
    second = await startTestApp({
      SUPABASE_URL: app.postgrest!.url,
      SUPABASE_SERVICE_ROLE_KEY: app.postgrest!.serviceRoleKey,
      SESSION_VERIFY_CACHE_MS: String(VERIFY_CACHE_MS),
    });
  }, 120_000);
  afterAll(async () => {
    await second?.stop();
    await app?.stop();
    await smtp?.close();
  });

  it("signs up and checks in through PostgREST as the service role: each money call is one RPC request", async () => {
    const postgrest = app.postgrest!;
    const { client, email, response } = await app.signUp();
    expect(response.status).toBe(302);
    const [profile] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    const before = postgrest.requests.length;
    const checkedIn = await client.post("/?index", { intent: "checkin" });
    expect(checkedIn.status).toBe(302);
    const calls = postgrest.requests.slice(before);
    const checkin = calls.filter((request) => request.path === "/rest/v1/rpc/daily_checkin");
    expect(checkin).toHaveLength(1);
    expect(checkin[0]).toMatchObject({ method: "POST", status: 200 });
    expect(JSON.parse(checkin[0]!.body)).toEqual({ p_user_id: profile!.id });
    expect(checkin[0]!.headers.authorization).toBe(`Bearer ${postgrest.serviceRoleKey}`);
    const ledger = await app.sql<{ transaction_type: string; amount: string }>(
      "select transaction_type, amount from transaction_history where user_id = $1",
      [profile!.id],
    );
    expect(ledger).toEqual([{ transaction_type: "checkin", amount: "0.10" }]);
    // A second check-in is refused by the database's rule, through PostgREST's 400.
    await client.post("/?index", { intent: "checkin" });
    const refused = postgrest.requests.filter((request) => request.path === "/rest/v1/rpc/daily_checkin").at(-1)!;
    expect(refused.status).toBe(400);
    expect(await app.sql("select 1 from transaction_history where user_id = $1", [profile!.id])).toHaveLength(1);
  });

  it("delivers a notice on NOTIFY_INTERVAL_SECONDS, as nothing wakes the worker over PostgREST", async () => {
    const { email, response } = await app.signUp();
    expect(response.status).toBe(302);
    const [profile] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    await app.sql("select record_email_verified($1)", [profile!.id]);
    await app.sql(
      `select record_postback(p_provider => 'acme', p_transaction_id => $1, p_user_id => $2, p_coins => 250,
                              p_reversal => false, p_description => 'Offer completed via acme')`,
      [`tx-${randomUUID()}`, profile!.id],
    );
    const mail = await eventually(() => smtp.mailTo(email)[0], { what: "the notice's email", timeoutMs: 8_000 });
    expect(mail.parsed.subject).toBe("Offer completed");
  });

  it("ends a session on another server when its verification expires (SESSION_VERIFY_CACHE_MS), since no announcement reaches it", async () => {
    const { client, response } = await app.signUp();
    expect(response.status).toBe(302);
    const onSecond = new HttpClient(second.url);
    for (const [name, value] of client.cookies) onSecond.cookies.set(name, value);
    // Firebase compares revocation times in whole seconds: log out in a later second than sign-in.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const verifiedAt = Date.now();
    expect((await onSecond.get("/")).status).toBe(200);
    expect((await client.post("/logout", {})).status).toBe(302);
    // Still trusted on the second server while its check lives...
    const soon = await onSecond.get("/");
    if (Date.now() - verifiedAt < VERIFY_CACHE_MS - 500) expect(soon.status).toBe(200);
    // ...and refused once it has expired.
    const refused = await eventually(
      async () => {
        const home = await onSecond.get("/");
        return home.status === 302 ? home : undefined;
      },
      { what: "the second server to refuse the ended session", timeoutMs: VERIFY_CACHE_MS + 5_000 },
    );
    expect(refused.headers.get("location")).toBe("/auth");
    expect(Date.now() - verifiedAt).toBeGreaterThanOrEqual(VERIFY_CACHE_MS);
  });
});
