// `npm run migrate` (in the Docker image: `node build/migrate.js`): applies the SQL migrations this
// version has and the database lacks, in one transaction, and says which. For deployments that run
// migrations as a step of their own, with a role allowed to change the schema, and start the servers
// with MIGRATE_ON_START=false (docs/configuration.md). Bundled into build/migrate.js by scripts/build-operator.mjs;
// reads the same environment as the server (DATABASE_URL, PGLITE_DATA_DIR, MIGRATIONS_DIR).
import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { DbError } from "~/server/db/core.server";
import { migrateDatabase, readMigrations } from "~/server/db/migrations.server";
import { checkEnv, EnvError, type Env } from "~/server/runtime/env.server";
import { readWalls } from "~/server/walls/registry.server";

const USAGE = `Usage: npm run migrate

Applies the migrations in MIGRATIONS_DIR (default supabase/migrations) that the database named by
DATABASE_URL (or the embedded PGLITE_DATA_DIR, with no server running on it) lacks, and lists them.`;

class MigrateError extends Error {}

/** Where the migrations go, without credentials. */
function describeTarget(database: Env["database"]): string {
  if (database.kind === "pglite") return `the embedded database in ${database.dataDir}`;
  if (database.kind === "postgres") {
    const url = new URL(database.url);
    return `Postgres at ${url.host}${url.pathname}`;
  }
  return `Supabase at ${database.url}`;
}

async function migrate(): Promise<number> {
  // Like the operator command: the database only, no session secret or Firebase needed.
  process.env.APP_ROLE = "operator";
  const env = checkEnv(readWalls(process.env).problems);
  const { database } = env;
  const target = describeTarget(database);
  const migrations = await readMigrations(env.migrationsDir);
  let applied: string[];
  switch (database.kind) {
    case "supabase":
      throw new MigrateError("a Supabase project's migrations are pushed with the Supabase CLI: supabase db push");
    case "postgres": {
      const pool = new pg.Pool({ connectionString: database.url, max: 1, connectionTimeoutMillis: 10_000 });
      pool.on("error", () => {});
      try {
        applied = await migrateDatabase({ pool }, env.migrationsDir);
      } finally {
        await pool.end();
      }
      break;
    }
    case "pglite": {
      await mkdir(database.dataDir, { recursive: true });
      const pglite = await PGlite.create(database.dataDir);
      try {
        applied = await migrateDatabase({ pglite }, env.migrationsDir);
      } finally {
        await pglite.close();
      }
      break;
    }
  }
  if (applied.length === 0) {
    console.log(`Nothing to apply: ${target} has all ${migrations.length} migrations.`);
    return 0;
  }
  const names = new Map(migrations.map((migration) => [migration.version, migration.name]));
  console.log(`Applied ${applied.length} of ${migrations.length} migrations to ${target}:`);
  for (const version of applied) console.log(`  ${version}_${names.get(version)}`);
  return 0;
}

function describe(error: unknown): string {
  if (error instanceof MigrateError || error instanceof EnvError) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof DbError || typeof code === "string") {
    // Nothing was applied: the migrations run in one transaction.
    return `nothing was applied: ${(error as Error).message}${typeof code === "string" ? ` (${code})` : ""}`;
  }
  return error instanceof Error ? error.message : String(error);
}

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE);
} else if (args.length > 0) {
  console.error(`error: npm run migrate takes no arguments, got "${args[0]}"\n\n${USAGE}`);
  process.exitCode = 2;
} else {
  try {
    process.exitCode = await migrate();
  } catch (error) {
    console.error(`error: ${describe(error)}`);
    process.exitCode = 1;
  }
}
