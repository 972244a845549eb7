import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SERVICE_UNAVAILABLE_MESSAGE } from "~/server/runtime/unavailable.server";
import { startTestApp } from "../support/app-server";
import { createScratchDatabase } from "../support/db";
import { HttpClient, html, uniqueEmail } from "../support/http";
import { startPostgresApp } from "../support/postgres-app";
import { eventually } from "../support/wait";

// Migrations at start (MIGRATE_ON_START, on by default) or as a step of their own (`npm run
// migrate`, with MIGRATE_ON_START=false on the servers), against a real Postgres server.

const MIGRATION_FILES = readdirSync("supabase/migrations")
  .filter((file) => file.endsWith(".sql"))
  .sort()
  .map((file) => file.replace(/\.sql$/, ""));
const LAST = MIGRATION_FILES.at(-1)!;

/** `npm run migrate`, as an operator runs it, against `databaseUrl`. */
function npmRunMigrate(databaseUrl: string, env: Record<string, string> = {}) {
  const result = spawnSync("npm", ["run", "--silent", "migrate"], {
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.replace(/^npm warn .*\n/gm, "") };
}

async function query<R>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as R[];
  } finally {
    await client.end();
  }
}

const appliedVersions = async (url: string) =>
  (await query<{ version: string; name: string }>(url, "select version, name from app_meta.schema_migrations")).map(
    (row) => `${row.version}_${row.name}`,
  );

/** Every page a visitor can open answers the 503 page, with the document's headers. */
async function expectPagesUnavailable(url: string) {
  const signedOut = new HttpClient(url);
  signedOut.cookies.set("hasSeenOnboarding", "true");
  for (const page of ["/auth", "/legal", "/", "/earn", "/no/such/page"]) {
    // (A page that sends a signed-out visitor to /auth still does: /auth is the 503 page.)
    const { response, html: body } = await signedOut.visit(page);
    expect(response.status, page).toBe(503);
    expect(response.headers.get("retry-after"), page).toBe("10");
    expect(response.headers.get("content-security-policy"), page).toContain("'nonce-");
    expect(body, page).toContain(html(SERVICE_UNAVAILABLE_MESSAGE));
    expect(body, page).not.toMatch(/\n\s+at |node_modules/);
  }
  const signUp = await signedOut.post("/auth?tab=signup", {
    intent: "signup",
    email: uniqueEmail("behind"),
    password: "s3cret-pass",
  });
  expect(signUp.status).toBe(503);
  const health = await signedOut.get("/healthz");
  expect(health.status).toBe(503);
  expect(await health.json()).toEqual({ status: "error", database: "migrations pending" });
}

async function expectReady(url: string) {
  const client = new HttpClient(url);
  await eventually(async () => (await client.get("/healthz")).status === 200, { what: "the server to be ready" });
  expect(await (await client.get("/healthz")).json()).toEqual({ status: "ok", database: "ok" });
  client.cookies.set("hasSeenOnboarding", "true");
  const signUp = await client.post("/auth?tab=signup", {
    intent: "signup",
    email: uniqueEmail("ready"),
    password: "s3cret-pass",
  });
  expect(signUp.status).toBe(302);
  expect((await client.get("/")).status).toBe(200);
}

describe("migrations at start, or by npm run migrate with MIGRATE_ON_START=false, on Postgres", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("by default a server applies every migration to an empty database when it starts, and is ready", async () => {
    const app = await startPostgresApp();
    cleanups.push(app.stop);
    expect(await appliedVersions(app.scratchUrl)).toEqual(MIGRATION_FILES);
    await expectReady(app.url);
  });

  it("with MIGRATE_ON_START=false on an empty database, the server creates nothing and answers 503 (healthz: migrations pending) until npm run migrate has applied every migration, listing them; then it is ready without a restart", async () => {
    const scratch = await createScratchDatabase();
    cleanups.push(scratch.drop);
    const app = await startTestApp(
      { DATABASE_URL: scratch.url, MIGRATE_ON_START: "false" },
      (health) => health.status === 503,
    );
    cleanups.push(app.stop);

    await expectPagesUnavailable(app.url);
    // Nothing was created: not even the table that records migrations.
    expect(await query(scratch.url, "select 1 from pg_namespace where nspname = 'app_meta'")).toEqual([]);
    expect(app.stderr()).toContain("MIGRATE_ON_START is false: apply them with `npm run migrate`");
    expect(app.stderr()).toContain(LAST);

    const migrate = npmRunMigrate(scratch.url);
    expect(migrate.stderr).toBe("");
    expect(migrate.status).toBe(0);
    const [heading, ...listed] = migrate.stdout.trim().split("\n");
    expect(heading).toMatch(
      new RegExp(
        `^Applied ${MIGRATION_FILES.length} of ${MIGRATION_FILES.length} migrations to Postgres at 127\\.0\\.0\\.1:\\d+/test_\\w+:$`,
      ),
    );
    expect(listed.map((line) => line.trim())).toEqual(MIGRATION_FILES);
    expect(await appliedVersions(scratch.url)).toEqual(MIGRATION_FILES);

    await expectReady(app.url);

    // A second run has nothing to do.
    const again = npmRunMigrate(scratch.url);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(
      `Nothing to apply: Postgres at ${new URL(scratch.url).host}${new URL(scratch.url).pathname} has all ${MIGRATION_FILES.length} migrations.\n`,
    );
  });

  it("with MIGRATE_ON_START=false on a database one migration behind, the server answers 503 naming the missing migration until npm run migrate applies just that one", async () => {
    const scratch = await createScratchDatabase();
    cleanups.push(scratch.drop);
    // The previous release's migrations: every file but the last.
    const previous = mkdtempSync(path.join(os.tmpdir(), "previous-migrations-"));
    cleanups.push(async () => rmSync(previous, { recursive: true, force: true }));
    for (const file of MIGRATION_FILES.slice(0, -1)) {
      cpSync(path.join("supabase/migrations", `${file}.sql`), path.join(previous, `${file}.sql`));
    }
    const before = npmRunMigrate(scratch.url, { MIGRATIONS_DIR: previous });
    expect(before.status).toBe(0);
    expect(await appliedVersions(scratch.url)).toEqual(MIGRATION_FILES.slice(0, -1));

    const app = await startTestApp(
      { DATABASE_URL: scratch.url, MIGRATE_ON_START: "false" },
      (health) => health.status === 503,
    );
    cleanups.push(app.stop);
    await expectPagesUnavailable(app.url);
    expect(app.stderr()).toContain(`the database lacks 1 migration(s) of this version (${LAST})`);
    expect(await appliedVersions(scratch.url)).toEqual(MIGRATION_FILES.slice(0, -1));

    const migrate = npmRunMigrate(scratch.url);
    expect(migrate.status).toBe(0);
    expect(migrate.stdout).toMatch(
      new RegExp(`^Applied 1 of ${MIGRATION_FILES.length} migrations to .*:\\n  ${LAST}\\n$`),
    );
    await expectReady(app.url);
  });

  it("npm run migrate on an unreachable database exits 1 with one line saying nothing was applied", () => {
    const result = npmRunMigrate("postgres://postgres@127.0.0.1:9/nowhere");
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^error: nothing was applied: .*ECONNREFUSED.*\n$/);
  });
});
