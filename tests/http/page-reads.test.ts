import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../support/app-server";
import { createMigratedDatabase } from "../support/db";
import { statementsOf } from "../support/session-features";
import { emulatorHost } from "../support/emulator";
import { HttpClient, uniqueEmail } from "../support/http";
import { startRecordingProxy } from "../support/recording-proxy";

// What a page view costs outside the app: an app whose Firebase is reached through a relay that
// records every call. Its session checks are kept for ten minutes, so every lookup left is the
// page's own.
const LOOKUP_PATH = "/identitytoolkit.googleapis.com/v1/projects/demo-rewards/accounts:lookup";

describe("page views and Firebase", () => {
  let firebase: Awaited<ReturnType<typeof startRecordingProxy>>;
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let client: HttpClient;

  beforeAll(async () => {
    const [host, port] = emulatorHost().split(":");
    firebase = await startRecordingProxy({ host: host!, port: Number(port) });
    app = await startTestApp({ FIREBASE_AUTH_EMULATOR_HOST: firebase.host, SESSION_VERIFY_CACHE_MS: "600000" });
    client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    const signUp = await client.post("/auth?tab=signup", {
      intent: "signup",
      email: uniqueEmail("reads"),
      password: "s3cret-pass",
    });
    expect(signUp.status).toBe(302);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await firebase?.close();
  });

  it("asks Firebase for the account's sign-in methods once, not on every view of My Account", async () => {
    const first = await client.visit("/profile");
    expect(first.response.status).toBe(200);
    expect(first.html).toContain("Delete account permanently");
    firebase.clear();
    for (let view = 0; view < 5; view++) {
      const again = await client.visit("/profile");
      expect(again.response.status).toBe(200);
      // Still the password form: the answer kept is the account's.
      expect(again.html).toContain("Delete account permanently");
    }
    expect(firebase.requests().filter((call) => call.path === LOOKUP_PATH)).toEqual([]);
  });
});

// What a page view sends to Postgres: the app connects as a role whose every statement the test
// server logs (log_statement, for that role in that database only); its session checks and the
// leaderboard are kept for the test's length, so what is left is the page's own.
describe("page views and the database", () => {
  const ROLE = "page_reads_app";
  let scratch: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let admin: pg.Pool;
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let client: HttpClient;
  let database: string;

  beforeAll(async () => {
    scratch = await createMigratedDatabase();
    database = new URL(scratch.url).pathname.slice(1);
    admin = new pg.Pool({ connectionString: scratch.url, max: 1 });
    admin.on("error", () => {});
    await admin.query(
      `do $$ begin create role ${ROLE} login superuser; exception when duplicate_object or unique_violation then null; end $$`,
    );
    await admin.query(`alter role ${ROLE} in database ${database} set log_statement = 'all'`);
    const url = new URL(scratch.url);
    url.username = ROLE;
    app = await startTestApp({
      DATABASE_URL: url.toString(),
      SESSION_VERIFY_CACHE_MS: "600000",
      LEADERBOARD_REFRESH_SECONDS: "3600",
    });
    client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    const signUp = await client.post("/auth?tab=signup", {
      intent: "signup",
      email: uniqueEmail("statements"),
      password: "s3cret-pass",
    });
    expect(signUp.status).toBe(302);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await admin?.end();
    await scratch?.drop();
  });

  /** The statements the app sent that call `fn`, while `views` ran. */
  async function statementsDuring(fn: string, views: () => Promise<void>) {
    const log = process.env.TEST_DATABASE_LOG!;
    const from = readFileSync(log).length;
    await views();
    return statementsOf(readFileSync(log).subarray(from).toString("utf8"), ROLE, database)
      .map(({ sql }) => sql)
      .filter((sql) => sql.includes(fn));
  }

  it("Home's reads and the root's notice claim go to the database as one statement a view", async () => {
    expect((await client.visit("/")).response.status).toBe(200);
    const sent = await statementsDuring("take_user_notices", async () => {
      for (let view = 0; view < 3; view++) expect((await client.visit("/")).response.status).toBe(200);
    });
    expect(sent).toHaveLength(3);
    for (const sql of sent) expect(sql).toMatch(/get_user_summary[\s\S]*get_checkin_status[\s\S]*take_user_notices/);
  });

  it.each([
    ["/profile", "get_recent_activity"],
    ["/referral", "get_referrals"],
    ["/withdraw", "get_user_summary"],
    ["/earn", "get_task_completions"],
    ["/settings", "get_notification_preferences"],
    ["/earn/offers", "get_offer_credits"],
  ])("%s reads with the notice claim in one statement too", async (path, read) => {
    expect((await client.visit(path)).response.status).toBe(200);
    const sent = await statementsDuring("take_user_notices", async () => {
      expect((await client.visit(path)).response.status).toBe(200);
    });
    expect(sent).toEqual([expect.stringContaining(read)]);
  });

  it.each(["/profile", "/settings"])(
    "%s reads what keeps deletion back (account_deletion_facts) in that one statement, not in one of its own",
    async (path) => {
      expect((await client.visit(path)).response.status).toBe(200);
      const sent = await statementsDuring("account_deletion_facts", async () => {
        expect((await client.visit(path)).response.status).toBe(200);
      });
      expect(sent).toEqual([expect.stringContaining("take_user_notices")]);
    },
  );

  it("a page without reads of its own (Legal) claims the notices and counts the unread (the bell) in a statement of their own", async () => {
    const sent = await statementsDuring("take_user_notices", async () => {
      expect((await client.visit("/legal")).response.status).toBe(200);
    });
    expect(sent).toEqual([
      expect.stringMatching(
        /^select public\.take_user_notices\(p_user_id => \$1\) as r0, public\.count_unread_notices\(p_user_id => \$2\) as r1$/,
      ),
    ]);
  });
});
