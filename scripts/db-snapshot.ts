// `npm run db:snapshot`: applies every migration to a fresh in-memory PGlite and writes the schema
// as they leave it under supabase/schema/ (one file per function and per table; see
// app/server/db/schema-snapshot.server.ts). Bundled into build/db-snapshot.js by
// scripts/build-operator.mjs. tests/integration/schema-snapshot.test.ts fails while it is stale.
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { migrateDatabase } from "~/server/db/migrations.server";
import { schemaSnapshot } from "~/server/db/schema-snapshot.server";

const SCHEMA_DIR = path.resolve("supabase/schema");

const pglite = await PGlite.create();
try {
  await migrateDatabase({ pglite }, path.resolve("supabase/migrations"));
  const files = await schemaSnapshot(pglite);
  await rm(SCHEMA_DIR, { recursive: true, force: true });
  for (const [file, text] of files) {
    await mkdir(path.dirname(path.join(SCHEMA_DIR, file)), { recursive: true });
    await writeFile(path.join(SCHEMA_DIR, file), text);
  }
  console.log(`supabase/schema/: ${files.size} files written`);
} finally {
  await pglite.close();
}
