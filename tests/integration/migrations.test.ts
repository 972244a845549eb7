import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MigrationsPendingError } from "~/server/db/core.server";
import { openPgliteDatabase } from "~/server/db/pglite.server";
import { MIGRATIONS_DIR } from "../support/db";

// MIGRATE_ON_START=false on the embedded database: the server only checks that the migrations are
// there (tests/http/migrations.test.ts does the same against Postgres, through the server).
describe("opening the embedded database without migrating (MIGRATE_ON_START=false)", () => {
  const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), "migrate-off-")), "pglite");
  afterAll(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));

  it("refuses a database that lacks migrations as unavailable, naming them, and opens it once they are applied", async () => {
    const files = readdirSync(MIGRATIONS_DIR).filter((file) => file.endsWith(".sql"));
    const refusal = await openPgliteDatabase(dataDir, MIGRATIONS_DIR, false).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(MigrationsPendingError);
    const pending = refusal as MigrationsPendingError;
    expect(pending.unavailable).toBe(true);
    expect(pending.pending.map((migration) => `${migration.version}_${migration.name}.sql`)).toEqual(files.sort());
    expect(pending.message).toContain("MIGRATE_ON_START is false: apply them with `npm run migrate`");

    // What `npm run migrate` does on the embedded database, then the server's check passes.
    await (await openPgliteDatabase(dataDir, MIGRATIONS_DIR, true)).close();
    const db = await openPgliteDatabase(dataDir, MIGRATIONS_DIR, false);
    try {
      expect(await db.rpc("app_health")).toBeTruthy();
    } finally {
      await db.close();
    }
  }, 60_000);
});
