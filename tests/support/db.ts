import path from "node:path";
import { openPgliteDatabase } from "~/server/db-pglite.server";
import { openPostgresDatabase } from "~/server/db-postgres.server";

export const MIGRATIONS_DIR = path.resolve("supabase/migrations");

/** A fresh in-memory PGlite with every migration applied. */
export function openTestPglite() {
  return openPgliteDatabase("memory://", MIGRATIONS_DIR);
}

/** The Postgres server that scripts/test.mjs started (TEST_DATABASE_URL), migrated. */
export function openTestPostgres() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is not set: run the tests through `npm test`");
  return openPostgresDatabase(url, MIGRATIONS_DIR);
}
