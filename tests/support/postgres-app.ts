import pg from "pg";
import { migrateDatabase } from "~/server/db/migrations.server";
import { startTestApp } from "./app-server";
import { createScratchDatabase, MIGRATIONS_DIR, type TestSettings } from "./db";
import { HttpClient, uniqueEmail } from "./http";
import { startPostgrestStandIn } from "./postgrest";

/**
 * How the apps of startPostgresApp reach their database: `postgres` (DATABASE_URL, the default) or
 * `supabase` (SUPABASE_URL, through the PostgREST stand-in over the same kind of database). `npm
 * test` runs the money flows' files a second time with TEST_APP_TRANSPORT=supabase.
 */
export const TEST_APP_TRANSPORT: "postgres" | "supabase" =
  process.env.TEST_APP_TRANSPORT === "supabase" ? "supabase" : "postgres";

/**
 * A production app server on its own scratch Postgres database, with direct SQL access so a test
 * can arrange (credit coins, mark an email verified) and inspect what the app did.
 */
export async function startPostgresApp(
  env: Record<string, string> = {},
  {
    databaseUrl = (url) => url,
    settings = "demo",
  }: {
    /** The address the app is given for the database (e.g. through a relay the test can cut). */
    databaseUrl?: (url: string) => string | Promise<string>;
    /** `production`: the strict defaults, holds and locked bonus (tests/support/db.ts, TestSettings). */
    settings?: TestSettings;
  } = {},
) {
  const scratch = await createScratchDatabase();
  const pool = new pg.Pool({ connectionString: scratch.url, max: 4 });
  pool.on("error", () => {});
  let postgrest: Awaited<ReturnType<typeof startPostgrestStandIn>> | null = null;
  try {
    let database: Record<string, string>;
    if (TEST_APP_TRANSPORT === "supabase") {
      // A Supabase project gets its migrations from `supabase db push`, not from the app.
      await migrateDatabase({ pool }, MIGRATIONS_DIR);
      postgrest = await startPostgrestStandIn({ databaseUrl: await databaseUrl(scratch.url) });
      database = { SUPABASE_URL: postgrest.url, SUPABASE_SERVICE_ROLE_KEY: postgrest.serviceRoleKey };
    } else {
      database = { DATABASE_URL: await databaseUrl(scratch.url) };
    }
    const app = await startTestApp({ ...database, ...env });
    // The demo settings of `npm run dev` (docs/decisions/066) unless asked otherwise: most tests withdraw
    // what they have just been given; holds and locked bonus are tested in
    // tests/integration/bonus-holds.test.ts and, on the screens, tests/http/money-holds.test.ts.
    if (settings === "demo") await pool.query("select apply_demo_settings()");
    return {
      url: app.url,
      scratchUrl: scratch.url,
      transport: TEST_APP_TRANSPORT,
      /** What the server wrote to stderr so far (its warnings and errors). */
      stderr: app.stderr,
      sql: async <R = Record<string, unknown>>(text: string, values?: unknown[]) =>
        (await pool.query(text, values)).rows as R[],
      /** Takes a SQL function away (calls fail as "does not exist") while `work` runs, then puts it back. */
      async withoutFunction(signature: string, work: () => Promise<void>) {
        const name = signature.slice(0, signature.indexOf("("));
        await pool.query(`alter function public.${signature} rename to ${name}_off`);
        try {
          await work();
        } finally {
          await pool.query(`alter function public.${name}_off${signature.slice(name.length)} rename to ${name}`);
        }
      },
      /** A returning visitor with a new password account, signed in on this app. */
      async signUp(fields: Record<string, string> = {}) {
        const client = new HttpClient(app.url);
        client.cookies.set("hasSeenOnboarding", "true");
        const email = fields.email ?? uniqueEmail("pg");
        const response = await client.post("/auth?tab=signup", {
          intent: "signup",
          email,
          password: "s3cret-pass",
          ...fields,
        });
        return { client, email, response };
      },
      async stop() {
        await app.stop();
        await postgrest?.close();
        await pool.end();
        await scratch.drop();
      },
    };
  } catch (error) {
    await postgrest?.close();
    await pool.end();
    await scratch.drop();
    throw error;
  }
}

export type PostgresApp = Awaited<ReturnType<typeof startPostgresApp>>;
