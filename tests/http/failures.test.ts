import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVICE_UNAVAILABLE_MESSAGE } from "~/server/runtime/unavailable.server";
import { emulatorHost } from "../support/emulator";
import { HttpClient, html } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startTcpProxy } from "../support/tcp-proxy";
import { eventually } from "../support/wait";

// An app server on Postgres whose database and Firebase are reached through relays the tests can
// cut, and whose SQL functions a test can take away for a moment: one part of a page fails while
// the rest must still show. Every test puts back what it broke, in `finally`.
describe("failures stay in their section: an app on Postgres whose database and Firebase can fail", () => {
  let dbRelay: Awaited<ReturnType<typeof startTcpProxy>>;
  let firebaseRelay: Awaited<ReturnType<typeof startTcpProxy>>;
  let app: PostgresApp;
  let client: HttpClient;

  const sql = (text: string) => app.sql(text);

  const withoutFunction = (signature: string, work: () => Promise<void>) => app.withoutFunction(signature, work);

  beforeAll(async () => {
    const [emulatorName, emulatorPort] = emulatorHost().split(":");
    firebaseRelay = await startTcpProxy({ host: emulatorName!, port: Number(emulatorPort) });
    app = await startPostgresApp(
      { FIREBASE_AUTH_EMULATOR_HOST: firebaseRelay.host, TRUST_PROXY: "true" },
      {
        databaseUrl: async (url) => {
          const target = new URL(url);
          dbRelay = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
          target.port = String(dbRelay.port);
          return target.toString();
        },
      },
    );
    const signUp = await app.signUp();
    expect(signUp.response.status).toBe(302);
    client = signUp.client;
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await dbRelay?.close();
    await firebaseRelay?.close();
  });

  it("a change of app_config shows at once: the check-in reward on Home and the coin rate on Earn", async () => {
    expect((await client.visit("/")).html).toContain("Check In Now (+10 coins)");
    try {
      await sql("update app_config set checkin_coins = 15, coins_per_dollar = 200");
      // The database notifies the server, which drops its copy (it would otherwise keep it 60 s).
      await eventually(async () => (await client.visit("/")).html.includes("Check In Now (+15 coins)"), {
        what: "Home to show the new check-in reward",
      });
      // task-001 is worth 100 coins: $0.50 at 200 coins to the dollar.
      expect((await client.visit("/earn?task=task-001")).html).toContain("= <!-- -->$0.50");
    } finally {
      await sql("update app_config set checkin_coins = 10, coins_per_dollar = 100");
    }
    await eventually(async () => (await client.visit("/")).html.includes("Check In Now (+10 coins)"), {
      what: "Home to show the restored reward",
    });
  });

  it("when the leaderboard fails, Home still shows balance, check-in and tasks, and both pages say Couldn't load leaderboard", async () => {
    await withoutFunction("get_leaderboard(integer)", async () => {
      const home = await client.visit("/");
      expect(home.response.status).toBe(200);
      expect(home.html).toContain("Couldn&#x27;t load leaderboard");
      expect(home.html).toContain("Please try again later");
      expect(home.html).toContain("Available Balance");
      expect(home.html).toContain("Check In Now (+10 coins)");
      expect(home.html).toContain("Quick Tasks");
      expect(home.html).not.toContain("Error fetching tasks");
      const board = await client.visit("/leaderboard");
      expect(board.response.status).toBe(200);
      expect(board.html).toContain("Couldn&#x27;t load leaderboard");
      expect(board.html).toContain("How to climb the leaderboard");
    });
  });

  it("when the task list fails, Home shows Error fetching tasks beside the rest, and Earn shows Failed to load tasks", async () => {
    await withoutFunction("get_task_completions(text)", async () => {
      const home = await client.visit("/");
      expect(home.response.status).toBe(200);
      expect(home.html).toContain("Error fetching tasks");
      expect(home.html).toContain("Couldn&#x27;t load available tasks. Please try again later.");
      expect(home.html).toContain("Available Balance");
      expect(home.html).toContain("Check In Now (+10 coins)");
      expect(home.html).not.toContain("Couldn&#x27;t load leaderboard");
      const earn = await client.visit("/earn");
      expect(earn.response.status).toBe(200);
      expect(earn.html).toContain("Failed to load tasks");
      expect(earn.html).toContain("Try Again");
    });
  });

  it("when the check-in status fails, only the check-in card says so", async () => {
    await withoutFunction("get_checkin_status(text)", async () => {
      const home = await client.visit("/");
      expect(home.response.status).toBe(200);
      expect(home.html).toContain("Couldn&#x27;t load your check-in");
      expect(home.html).not.toContain("Check In Now");
      expect(home.html).toContain("Quick Tasks");
      expect(home.html).toContain("View Leaderboard");
    });
  });

  it("with the database down, pages answer 503 with the app's error screen inside the shell, and recover when it is back", async () => {
    try {
      await dbRelay.cut();
      const home = await client.visit("/");
      expect(home.response.status).toBe(503);
      expect(home.response.headers.get("retry-after")).toBe("10");
      expect(home.html).toContain(html(SERVICE_UNAVAILABLE_MESSAGE));
      expect(home.html).toContain('aria-label="Main"'); // the bottom bar stays
      expect(home.html).toContain('aria-label="Profile"');
      expect(home.html).not.toMatch(/\n\s+at |Error:|node_modules/);
      const earn = await client.visit("/earn");
      expect(earn.response.status).toBe(503);
      const health = await client.get("/healthz");
      expect(health.status).toBe(503);
    } finally {
      await dbRelay.restore();
    }
    await eventually(async () => (await client.visit("/")).response.status === 200, { what: "Home to recover" });
    expect((await client.get("/healthz")).status).toBe(200);
  });

  it("with Firebase unreachable, a signed-in page answers 503 (never signs the person out) while /healthz stays 200", async () => {
    try {
      await firebaseRelay.cut();
      // A verified session is shared for 2 s; the next check meets the outage.
      const home = await eventually(
        async () => {
          const visit = await client.visit("/");
          return visit.response.status === 503 && visit;
        },
        { what: "the session check to meet the outage" },
      );
      expect(home.html).toContain(html(SERVICE_UNAVAILABLE_MESSAGE));
      expect(home.html).not.toMatch(/\n\s+at |Error:|node_modules/);
      expect(client.cookies.has("__session")).toBe(true);
      expect((await client.get("/healthz")).status).toBe(200);
    } finally {
      await firebaseRelay.restore();
    }
    await eventually(async () => (await client.visit("/")).response.status === 200, { what: "Home to recover" });
  });

  it("logging out while Firebase cannot be reached still clears the cookie, and says the log out failed", async () => {
    const { client: leaving } = await app.signUp();
    try {
      await firebaseRelay.cut();
      const response = await leaving.post("/logout", {});
      expect(response.headers.get("location")).toBe("/auth");
      expect(response.headers.getSetCookie().find((cookie) => cookie.startsWith("__session="))).toMatch(/Max-Age=0/);
    } finally {
      await firebaseRelay.restore();
    }
    expect((await leaving.visit("/auth")).html).toContain("Failed to log out. Please try again.");
  });

  it("behind a trusted proxy (TRUST_PROXY) a post whose Origin is the first X-Forwarded-Host is not refused", async () => {
    const proxied = await new HttpClient(app.url).post(
      "/auth",
      { intent: "signin", email: "", password: "" },
      { origin: "https://app.example", "x-forwarded-host": "app.example, edge.internal" },
    );
    // The form itself is read and refused for its content, not for its origin.
    expect(proxied.status).toBe(400);
    expect(await proxied.text()).toContain("Please fill in all fields");
  });
});
