import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isOperatorRole, OPERATOR_ROLES, roleAtLeast, type OperatorRole } from "~/domain/operator-roles";
import { newMember, newOperator, signInAs } from "../support/console";
import { setCustomClaims } from "../support/emulator";
import { HttpClient } from "../support/http";
import { runOperator } from "../support/operator";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { routeModules } from "../support/route-modules";

// Who may enter the operator console (docs/operator-console.md, "Who may enter"), on a Postgres
// app with the real Auth emulator: roles granted and revoked by the built command
// (`node build/operator.js`, what `npm run operator --` runs) against the app's scratch database.

/** Every console URL there is, and one that is not (the app's 404 for everyone). */
const ADMIN_URLS = ["/admin", "/admin/", "/admin/audit", "/admin/audit?before=1", "/admin/people"];

describe("the operator console lets in only accounts whose role claim and database row agree", () => {
  let app: PostgresApp;

  const operator = (args: string[], env: Record<string, string> = {}) =>
    runOperator(app.scratchUrl, args, { OPERATOR_NAME: "ops-test", ...env }, "build/operator.js");

  /** The app's normal 404 page, with nothing that names the console. */
  async function expectNotFoundEverywhere(client: HttpClient, who: string) {
    for (const path of ADMIN_URLS) {
      const response = await client.get(path);
      const page = await response.text();
      expect(response.status, `${who}: ${path}`).toBe(404);
      expect(page, `${who}: ${path}`).toContain("Oops! Page not found");
      expect(page, `${who}: ${path}`).not.toMatch(/Operator console|Audit log|audit-entry/);
      expect(page, `${who}: ${path}`).toContain("<title>Rewards</title>");
      expect(response.headers.get("location"), `${who}: ${path}`).toBeNull();
    }
    // The data requests a browser with JavaScript makes for the same pages answer 404 too, with no data.
    for (const path of ["/admin.data", "/admin/audit.data"]) {
      const response = await client.get(path);
      const body = await response.text();
      expect(response.status, `${who}: ${path}`).toBe(404);
      expect(body, `${who}: ${path}`).not.toMatch(/operator|grant_role|olderBefore/);
    }
  }

  /** One line on stderr, `error: ...`, no stack trace, and a non-zero exit. */
  function expectOneLineError(result: { code: number | null; stderr: string }, message: RegExp) {
    expect(result.code).not.toBe(0);
    const lines = result.stderr
      .trim()
      .split("\n")
      .filter((line) => !line.includes("supabase-js"));
    expect(lines[0]).toMatch(/^error: /);
    expect(lines[0]).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at |node:internal|\.js:\d+/);
  }

  beforeAll(async () => {
    app = await startPostgresApp();
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it("a signed-out visitor gets the normal 404 page for every /admin URL, with no redirect to sign-in", async () => {
    const visitor = new HttpClient(app.url);
    visitor.cookies.set("hasSeenOnboarding", "true");
    await expectNotFoundEverywhere(visitor, "signed out");
    // A cookie that is no session at all is treated the same.
    visitor.cookies.set("__session", "not-a-session");
    await expectNotFoundEverywhere(visitor, "forged session");
  });

  it("a plain member gets the normal 404 page for every /admin URL", async () => {
    const { client } = await newMember(app);
    await expectNotFoundEverywhere(client, "member");
  });

  it("an account holding the role claim without the database row gets the 404 page, and so does a row without the claim", async () => {
    const claimOnly = await newMember(app);
    await setCustomClaims(claimOnly.uid, { role: "owner" });
    await expectNotFoundEverywhere(await signInAs(app, claimOnly.email), "claim without row");

    const rowOnly = await newMember(app);
    await app.sql("select grant_operator_role('ops-test', $1, 'owner')", [rowOnly.uid]);
    await expectNotFoundEverywhere(await signInAs(app, rowOnly.email), "row without claim");
  });

  for (const [role, label] of [
    ["support", "Support"],
    ["finance", "Finance"],
    ["owner", "Owner"],
  ] as const) {
    it(`a granted ${role} signs in again and gets the console (200) showing their role, and the audit log with the grant`, async () => {
      const person = await newMember(app);
      const granted = await operator(["grant", person.email, role]);
      expect(granted.code, granted.stderr).toBe(0);
      expect(granted.stdout).toContain(`${person.email} now holds the ${role} role`);
      expect(await app.sql("select role, granted_by from operators where user_id = $1", [person.uid])).toEqual([
        { role, granted_by: "ops-test" },
      ]);
      // The grant ended the sessions it had: the old cookie is signed out.
      expect((await person.client.get("/")).headers.get("location")).toMatch(/^\/auth/);

      const client = await signInAs(app, person.email);
      const home = await client.get("/admin");
      const page = await home.text();
      expect(home.status).toBe(200);
      expect(page).toContain("Operator console");
      expect(page).toMatch(new RegExp(`data-testid="operator-role"[^>]*>${label}<`));
      expect(page).toContain(person.email);

      const audit = await client.get("/admin/audit");
      const log = await audit.text();
      expect(audit.status).toBe(200);
      expect(log).toContain("Audit log");
      expect(log).toMatch(/data-testid="audit-entry"/);
      expect(log).toContain("grant role");
      expect(log).toContain(`role: ${role}`);
    });
  }

  it("after revoke the same session gets the 404 page (its sessions were revoked), and a new sign-in too", async () => {
    const person = await newMember(app);
    expect((await operator(["grant", person.email, "owner"])).code).toBe(0);
    const client = await signInAs(app, person.email);
    expect((await client.get("/admin")).status).toBe(200);

    const revoked = await operator(["revoke", person.email]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`${person.email} no longer holds the owner role`);
    expect(await app.sql("select 1 from operators where user_id = $1", [person.uid])).toEqual([]);
    const [entry] = await app.sql<{ action: string; before: unknown; after: unknown }>(
      "select action, before, after from operator_actions where user_id = $1 order by id desc limit 1",
      [person.uid],
    );
    expect(entry).toEqual({ action: "revoke_role", before: { role: "owner" }, after: null });

    await expectNotFoundEverywhere(client, "revoked session");
    expect((await client.get("/")).headers.get("location")).toMatch(/^\/auth/);
    await expectNotFoundEverywhere(await signInAs(app, person.email), "signed in again after revoke");
  });

  it("the audit log pages by URL: 50 entries newest first, then ?before=<id> for the older ones", async () => {
    const person = await newMember(app);
    expect((await operator(["grant", person.email, "support"])).code).toBe(0);
    for (let index = 0; index < 60; index++) {
      await app.sql(
        "insert into operator_actions (actor, action, user_id, reason) values ('ops-page', 'pause', $1, $2)",
        [person.uid, `page test ${index}`],
      );
    }
    const client = await signInAs(app, person.email);
    const first = await (await client.get("/admin/audit")).text();
    expect(first.match(/data-testid="audit-entry"/g)).toHaveLength(50);
    expect(first).toContain("page test 59");
    expect(first).not.toContain("page test 9<");
    const older = /href="\/admin\/audit\?before=(\d+)"/.exec(first);
    expect(older).not.toBeNull();
    const second = await (await client.get(`/admin/audit?before=${older![1]}`)).text();
    expect(second).toContain("page test 9<");
    expect(second).not.toContain("page test 59");
    expect(second).toContain('href="/admin/audit"');
  });

  it("the command answers one line for an unknown email, an unknown role and the embedded PGlite database, changing nothing", async () => {
    const person = await newMember(app);
    expectOneLineError(await operator(["grant", "nobody-here@example.com", "owner"]), /no account has the email/);
    expectOneLineError(await operator(["revoke", "nobody-here@example.com"]), /no account has the email/);
    expectOneLineError(await operator(["grant", person.email, "admin"]), /unknown role "admin"/);
    expectOneLineError(
      await operator(["grant", person.email, "owner"], { DATABASE_URL: "", PGLITE_DATA_DIR: "/nonexistent/pglite" }),
      /embedded PGlite/,
    );
    expect(await app.sql("select 1 from operators where user_id = $1", [person.uid])).toEqual([]);
  });
});

// Every console route module, walked as a signed-out visitor, a plain member and each role: a new
// /admin route fails the first test until it is listed here with who may open it.
describe("every /admin route answers each kind of visitor as its section says", () => {
  let app: PostgresApp;
  let person: { uid: string };
  let withdrawalId: string;
  let ticketId: string;
  const clients = new Map<string, HttpClient>();

  /** Each console route module, a URL of it, and the least role that may open it. */
  const pages = (): Record<string, { path: string; role: OperatorRole }> => ({
    "admin/route.tsx": { path: "/admin", role: "support" },
    "admin._index/route.tsx": { path: "/admin/", role: "support" },
    "admin.audit/route.tsx": { path: "/admin/audit", role: "support" },
    "admin.people/route.tsx": { path: `/admin/people?q=${person.uid}`, role: "support" },
    "admin.people_.$userId/route.tsx": { path: `/admin/people/${person.uid}`, role: "support" },
    "admin.withdrawals/route.tsx": { path: "/admin/withdrawals?view=all", role: "support" },
    "admin.withdrawals_.$withdrawalId/route.tsx": { path: `/admin/withdrawals/${withdrawalId}`, role: "support" },
    "admin.settings/route.tsx": { path: "/admin/settings", role: "support" },
    "admin.walls/route.tsx": { path: "/admin/walls", role: "support" },
    // Promo codes (docs/decisions/095): every role reads them; finance and owners make and end them.
    "admin.codes/route.tsx": { path: "/admin/codes", role: "support" },
    "admin.prizes/route.tsx": { path: "/admin/prizes", role: "support" },
    "admin.walls_.$network/route.tsx": { path: "/admin/walls/bitlabs?refused=1", role: "support" },
    "admin.support/route.tsx": { path: "/admin/support?view=all", role: "support" },
    "admin.support_.$kind.$ticketId/route.tsx": { path: `/admin/support/feedback/${ticketId}`, role: "support" },
    // The authenticator's page (docs/decisions/093): an operator's, whether or not the console asks for it.
    "admin_.2fa/route.tsx": { path: "/admin/2fa", role: "support" },
  });
  // Resource routes: what a GET and a POST get from someone who may use them.
  const RESOURCES: Record<string, { path: string; role: OperatorRole }> = {
    "admin.withdrawals[.csv].ts": { path: "/admin/withdrawals.csv", role: "finance" },
  };

  beforeAll(async () => {
    app = await startPostgresApp();
    const member = await newMember(app);
    person = member;
    clients.set("member", member.client);
    const visitor = new HttpClient(app.url);
    visitor.cookies.set("hasSeenOnboarding", "true");
    clients.set("visitor", visitor);
    for (const role of OPERATOR_ROLES) clients.set(role, (await newOperator(app, role)).client);
    await app.sql("select record_email_verified($1)", [member.uid]);
    await app.sql("select add_user_coins($1, 600)", [member.uid]);
    await app.sql("update app_config set review_first_withdrawal = true");
    await member.client.post("/withdraw", { intent: "withdraw", amount: "5", method: "upi", upiId: "walk@okaxis" });
    await member.client.post("/profile?tab=help", {
      intent: "feedback",
      name: "Ana",
      email: "ana@example.com",
      message: "Hi",
    });
    withdrawalId = (await app.sql<{ id: string }>("select id from withdrawals where user_id = $1", [member.uid]))[0]!
      .id;
    ticketId = (
      await app.sql<{ id: string }>("select id::text from user_feedback where user_id = $1", [member.uid])
    )[0]!.id;
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  it("lists every /admin route module", () => {
    const consoleModules = routeModules().filter((file) => file.startsWith("admin"));
    expect(consoleModules.sort()).toEqual([...Object.keys(pages()), ...Object.keys(RESOURCES)].sort());
  });

  for (const who of ["visitor", "member", ...OPERATOR_ROLES] as const) {
    it(`${who}: every console page answers 200 to a role that may open it and the normal 404 page to everyone else`, async () => {
      for (const [module, { path, role }] of Object.entries(pages())) {
        const response = await clients.get(who)!.get(path);
        const page = await response.text();
        const allowed = isOperatorRole(who) && roleAtLeast(who, role);
        expect(response.status, `${who} ${module} ${path}`).toBe(allowed ? 200 : 404);
        if (allowed) expect(page, module).toContain("Operator console");
        else expect(page, module).toContain("Oops! Page not found");
      }
      for (const [module, { path, role }] of Object.entries(RESOURCES)) {
        const post = await clients.get(who)!.post(path, {});
        const allowed = isOperatorRole(who) && roleAtLeast(who, role);
        expect(post.status, `${who} POST ${module}`).toBe(allowed ? 200 : 404);
        // A GET is a mistake of an operator's (405, use POST), and the 404 to anyone else.
        const get = await clients.get(who)!.get(path);
        expect(get.status, `${who} GET ${module}`).toBe(isOperatorRole(who) ? 405 : 404);
      }
    });
  }

  it("support may not use a finance action: the forms are not shown, and a post is refused without a change", async () => {
    const support = clients.get("support")!;
    const page = await (await support.get(`/admin/withdrawals/${withdrawalId}`)).text();
    expect(page).not.toContain('data-testid="form-approve"');
    expect((await support.post(`/admin/withdrawals/${withdrawalId}`, { intent: "approve" })).status).toBe(404);
    const adjust = await support.post(`/admin/people/${person.uid}`, {
      intent: "adjust",
      amount: "1",
      kind: "bonus",
      reason: "x",
    });
    expect(adjust.status).toBe(403);
    expect(await app.sql("select review_state from withdrawals where id = $1", [withdrawalId])).toEqual([
      { review_state: "review" },
    ]);
  });
});
