import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fallbackTasks } from "~/domain/tasks";
import { postgresDatabase } from "~/server/db/postgres.server";
import { RATE_LIMITS } from "~/server/http/rate-limit.server";
import { startPgBouncer } from "../../scripts/lib/services.mjs";
import { startTestApp } from "../support/app-server";
import { createScratchDatabase, testPostgresUrl } from "../support/db";
import { HttpClient, uniqueEmail } from "../support/http";
import { ledgerAudit } from "../support/ledger-audit";
import { openEvents } from "../support/live-events";
import { sessionFeatures, statementsOf } from "../support/session-features";

// Many instances through a pooler (docs/scaling.md, "Poolers"): PgBouncer from Debian in front of the
// test Postgres, two production servers through it. In transaction mode a server connection is
// the client's only for one transaction, so anything that belongs to a session (SET, session
// advisory locks, prepared statements by name, temporary tables, LISTEN) breaks or leaks. The app's
// own role logs every statement it sends (log_statement, for that role in that database only), and
// the log is read for them at the end.

const APP_ROLE = "pooled_app";
const PROBE_ROLE = "pooled_probe";
const PASSWORD = "s3cret-pass";

type App = Awaited<ReturnType<typeof startTestApp>>;
type Bouncer = Awaited<ReturnType<typeof startPgBouncer>>;

function postgresPort(): number {
  return Number(new URL(testPostgresUrl()).port);
}

/** A login role (superuser, as the app's own database owner is in these tests), made once per server. */
async function ensureRole(admin: pg.Pool, name: string) {
  await admin.query(
    `do $$ begin create role ${name} login superuser; exception when duplicate_object or unique_violation then null; end $$`,
  );
}

/** A person signed up on `on`, with the same cookie on `also`; their id. */
async function signedUp(on: App, also: App, sql: pg.Pool) {
  const client = new HttpClient(on.url);
  client.cookies.set("hasSeenOnboarding", "true");
  const email = uniqueEmail("pooled");
  const response = await client.post("/auth?tab=signup", { intent: "signup", email, password: PASSWORD });
  expect(response.status).toBe(302);
  const { rows } = await sql.query<{ id: string }>("select id from user_profiles where email = $1", [email]);
  const other = new HttpClient(also.url);
  for (const [name, value] of client.cookies) other.cookies.set(name, value);
  return { email, uid: rows[0]!.id, onA: client, onB: other };
}

describe("two app servers through PgBouncer in transaction mode", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let direct: pg.Pool;
  let bouncer: Bouncer;
  let a: App;
  let b: App;
  let database: string;

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    database = new URL(scratch.url).pathname.slice(1);
    direct = new pg.Pool({ connectionString: scratch.url, max: 4 });
    direct.on("error", () => {});
    for (const role of [APP_ROLE, PROBE_ROLE]) {
      await ensureRole(direct, role);
      await direct.query(`alter role ${role} in database ${database} set log_statement = 'all'`);
    }
    bouncer = await startPgBouncer({
      postgresPort: postgresPort(),
      mode: "transaction",
      users: [APP_ROLE, PROBE_ROLE],
    });
    // Both at once, on an empty database: each applies the missing migrations at start.
    [a, b] = await Promise.all([
      startTestApp({ DATABASE_URL: bouncer.url(database, APP_ROLE) }),
      startTestApp({ DATABASE_URL: bouncer.url(database, APP_ROLE) }),
    ]);
    await direct.query("select apply_demo_settings()");
  }, 180_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await bouncer?.stop();
    await direct?.end();
    await scratch?.drop();
  });

  it("both start through the pooler at the same moment and every migration is applied once, in one transaction", async () => {
    const files = readdirSync("supabase/migrations")
      .filter((file) => file.endsWith(".sql"))
      .sort()
      .map((file) => file.replace(/\.sql$/, ""));
    const { rows } = await direct.query<{ migration: string; applied_at: Date }>(
      "select version || '_' || name as migration, applied_at from app_meta.schema_migrations order by version",
    );
    expect(rows.map((row) => row.migration)).toEqual(files);
    expect(new Set(rows.map((row) => row.applied_at.getTime())).size).toBe(1);
    for (const server of [a, b]) expect(server.stderr()).not.toMatch(/database not ready|error/i);
  });

  it("50 withdrawals of one balance, posted at once through both servers, take exactly what the balance allows", async () => {
    const person = await signedUp(a, b, direct);
    await direct.query("select record_email_verified($1)", [person.uid]);
    // $2.50: two $1.00 UPI withdrawals, then 50 cents left.
    await direct.query("select add_user_coins($1, 250)", [person.uid]);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 === 0 ? person.onA : person.onB).post("/withdraw", {
          intent: "withdraw",
          amount: "1",
          method: "upi",
          upiId: "pooled@okaxis",
        }),
      ),
    );
    expect(answers.every((answer) => answer.status < 500)).toBe(true);
    const { rows } = await direct.query<{ n: number; balance: string }>(
      `select (select count(*)::int from withdrawals where user_id = $1) as n,
              (select balance from user_balance where user_id = $1) as balance`,
      [person.uid],
    );
    expect(rows[0]).toEqual({ n: 2, balance: "0.50" });
  });

  it("20 check-ins posted at once through both servers credit one check-in", async () => {
    const person = await signedUp(a, b, direct);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? person.onA : person.onB).post("/?index", { intent: "checkin" }),
      ),
    );
    expect(answers.every((answer) => answer.status < 500)).toBe(true);
    const { rows } = await direct.query<{ n: number }>(
      "select count(*)::int as n from transaction_history where user_id = $1 and transaction_type = 'checkin'",
      [person.uid],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it("50 settlements of one withdrawal at once (completed and failed, mixed), from two pools through the pooler: exactly one changes it, one notice, every repeat reports that outcome, the refund at most once", async () => {
    const person = await signedUp(a, b, direct);
    await direct.query("select record_email_verified($1)", [person.uid]);
    await direct.query("select add_user_coins($1, 1000)", [person.uid]);
    const { rows } = await direct.query<{ result: { id: string } }>(
      `select create_withdrawal(p_user_id => $1, amount_param => 5, payment_method_param => 'paypal',
                                recipient_email_param => 'payee@example.com') as result`,
      [person.uid],
    );
    const id = rows[0]!.result.id;
    let outcome = "";
    const pools = [0, 1].map(() => new pg.Pool({ connectionString: bouncer.url(database, APP_ROLE), max: 10 }));
    try {
      const databases = pools.map((pool) =>
        postgresDatabase(pool, () => new pg.Client({ connectionString: bouncer.url(database, APP_ROLE) })),
      );
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          databases[i % 2]!.rpc<{ changed: boolean; status: string }>("settle_withdrawal", {
            p_withdrawal_id: id,
            p_status: Math.floor(i / 2) % 2 === 0 ? "completed" : "failed",
          }),
        ),
      );
      const changed = results.filter((result) => result.changed);
      expect(changed).toHaveLength(1);
      outcome = changed[0]!.status;
      expect(results.every((result) => result.status === outcome)).toBe(true);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
    const notices = await direct.query("select 1 from user_notices where data ->> 'withdrawal_id' = $1", [id]);
    expect(notices.rows).toHaveLength(1);
    const status = await direct.query<{ status: string }>("select status from withdrawals where id = $1", [id]);
    expect(status.rows[0]!.status).toBe(outcome);
    // $10.00 credited, $5.00 asked: a failed payout gives the $5.00 back once.
    const balance = await direct.query<{ balance: string }>("select balance from user_balance where user_id = $1", [
      person.uid,
    ]);
    expect(balance.rows[0]!.balance).toBe(outcome === "failed" ? "10.00" : "5.00");
  });

  it("rate limits are shared: failed sign-ins for one address, half on A and half on B, are refused (429) on either past the limit", async () => {
    const person = await signedUp(a, b, direct);
    const signIn = (server: string) =>
      new HttpClient(server).post("/auth", { intent: "signin", email: person.email, password: "not-the-password" });
    for (let attempt = 0; attempt < RATE_LIMITS.signIn.limit; attempt++) {
      expect((await signIn(attempt % 2 === 0 ? a.url : b.url)).status).toBe(400);
    }
    expect((await signIn(b.url)).status).toBe(400);
    for (const server of [a.url, b.url]) expect((await signIn(server)).status).toBe(429);
  });

  it("LISTEN does not survive transaction mode: a task completed through A does not reach the person's page open on B (docs/scaling.md)", async () => {
    const person = await signedUp(a, b, direct);
    expect((await person.onB.get("/")).status).toBe(200);
    const stream = await openEvents(person.onB);
    const [task] = fallbackTasks();
    expect((await person.onA.post("/earn", { intent: "start", taskId: task!.id })).status).toBe(302);
    await direct.query("update task_starts set started_at = now() - interval '1 minute' where user_id = $1", [
      person.uid,
    ]);
    expect((await person.onA.post("/earn", { intent: "complete", taskId: task!.id })).status).toBe(302);
    await expect(stream.nextEvent("task-completed", 3_000)).rejects.toThrow(/no "task-completed"/);
    stream.close();
    // The page still shows the money on its next load, from either server.
    expect((await person.onB.visit("/")).html).toMatch(
      new RegExp(`data-testid="balance">\\$${(task!.reward / 100).toFixed(2)}<`),
    );
  });

  it("the ledger agrees with every balance after the races", async () => {
    const audit = await ledgerAudit(async (text) => (await direct.query(text)).rows);
    expect(audit.problems).toEqual([]);
  });

  it("no session-level feature went through the pooler: the app's statements hold no SET, session advisory lock, named prepared statement or temporary table (a probe's do)", async () => {
    const log = readFileSync(process.env.TEST_DATABASE_LOG!, "utf8");
    // The probe proves the reading: a SET and a prepared statement by name, as the app must not.
    const probe = new pg.Client({ connectionString: bouncer.url(database, PROBE_ROLE) });
    await probe.connect();
    try {
      await probe.query("set statement_timeout = '5s'");
      await probe.query({ name: "probe_statement", text: "select 1 as one" });
    } finally {
      await probe.end();
    }
    const probed = sessionFeatures(
      statementsOf(readFileSync(process.env.TEST_DATABASE_LOG!, "utf8"), PROBE_ROLE, database),
    );
    expect(probed.map((found) => found.feature).sort()).toEqual(["SET", "a prepared statement by name"]);

    const statements = statementsOf(log, APP_ROLE, database);
    // Everything above went through here: sign-ups, withdrawals, check-ins, settlements, migrations.
    expect(statements.length).toBeGreaterThan(200);
    // LISTEN is the one session feature the app uses, and loses here as the docs say.
    expect(sessionFeatures(statements).filter((found) => found.feature !== "LISTEN")).toEqual([]);
  });
});

describe("two app servers through PgBouncer in session mode", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let direct: pg.Pool;
  let bouncer: Bouncer;
  let a: App;
  let b: App;

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    const database = new URL(scratch.url).pathname.slice(1);
    direct = new pg.Pool({ connectionString: scratch.url, max: 2 });
    direct.on("error", () => {});
    bouncer = await startPgBouncer({ postgresPort: postgresPort(), mode: "session" });
    a = await startTestApp({ DATABASE_URL: bouncer.url(database) });
    b = await startTestApp({ DATABASE_URL: bouncer.url(database) });
    await direct.query("select apply_demo_settings()");
  }, 180_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await bouncer?.stop();
    await direct?.end();
    await scratch?.drop();
  });

  it("LISTEN works again: a task completed through A refreshes the person's page open on B", async () => {
    const person = await signedUp(a, b, direct);
    expect((await person.onB.get("/")).status).toBe(200);
    const stream = await openEvents(person.onB);
    const [task] = fallbackTasks();
    expect((await person.onA.post("/earn", { intent: "start", taskId: task!.id })).status).toBe(302);
    await direct.query("update task_starts set started_at = now() - interval '1 minute' where user_id = $1", [
      person.uid,
    ]);
    expect((await person.onA.post("/earn", { intent: "complete", taskId: task!.id })).status).toBe(302);
    await stream.nextEvent("task-completed", 5_000);
    stream.close();
  });
});
