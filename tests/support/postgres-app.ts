import pg from "pg";
import { migrateDatabase } from "~/server/db/migrations.server";
import { startTestApp } from "./app-server";
import { createMigratedDatabase, MIGRATIONS_DIR, type TestSettings } from "./db";
import { signedPostbackQuery, startOfferProvider } from "./offer-provider";
import { HttpClient, uniqueEmail } from "./http";
import { ledgerAudit } from "./ledger-audit";
import { startPostgrestStandIn, type PostgrestStandIn } from "./postgrest";

/**
 * What an app server or an operator command is given to reach a database: DATABASE_URL (the
 * `postgres` transport), or (`supabase`) SUPABASE_URL and the service-role key of a PostgREST
 * stand-in over it, the migrations applied first as `supabase db push` would. `close` stops the
 * stand-in.
 */
async function transportEnv(
  /** A pool on the database, to migrate it. */
  pool: pg.Pool,
  /** Where the app (or the stand-in) connects to it. */
  address: string,
  transport: "postgres" | "supabase",
): Promise<{ env: Record<string, string>; postgrest: PostgrestStandIn | null; close(): Promise<void> }> {
  if (transport === "postgres") return { env: { DATABASE_URL: address }, postgrest: null, close: async () => {} };
  await migrateDatabase({ pool }, MIGRATIONS_DIR);
  const postgrest = await startPostgrestStandIn({ databaseUrl: address });
  return {
    env: { SUPABASE_URL: postgrest.url, SUPABASE_SERVICE_ROLE_KEY: postgrest.serviceRoleKey },
    postgrest,
    close: () => postgrest.close(),
  };
}

/**
 * The ledger audit of an app's database (every balance equal to its ledger, no total earned below
 * zero), thrown as an error if anything is wrong: run when an app on the supabase transport stops
 * (tests/http/supabase-deployment.test.ts, tests/http/supabase-money-flows.test.ts).
 */
async function auditLedger(sql: <R>(text: string) => Promise<R[]>) {
  const { problems } = await ledgerAudit(sql);
  if (problems.length > 0) throw new Error(`ledger audit of the app on supabase-js: ${problems.join("; ")}`);
}

/**
 * A production app server on its own scratch Postgres database, with direct SQL access so a test
 * can arrange (credit coins, mark an email verified) and inspect what the app did.
 */
export async function startPostgresApp(
  env: Record<string, string> = {},
  {
    databaseUrl = (url) => url,
    settings = "demo",
    transport: transportName = "postgres",
  }: {
    /**
     * How the app reaches its database: `postgres` (DATABASE_URL), or `supabase` (SUPABASE_URL,
     * every call through supabase-js to a PostgREST stand-in over the same kind of database).
     */
    transport?: "postgres" | "supabase";
    /** The address the app is given for the database (e.g. through a relay the test can cut). */
    databaseUrl?: (url: string) => string | Promise<string>;
    /** `production`: the strict defaults, holds and locked bonus (tests/support/db.ts, TestSettings). */
    settings?: TestSettings;
  } = {},
) {
  const scratch = await createMigratedDatabase();
  const pool = new pg.Pool({ connectionString: scratch.url, max: 4 });
  pool.on("error", () => {});
  let transport: Awaited<ReturnType<typeof transportEnv>> | null = null;
  try {
    transport = await transportEnv(pool, await databaseUrl(scratch.url), transportName);
    const app = await startTestApp({ ...transport.env, ...env });
    // The demo settings of `npm run dev` (docs/decisions/066) unless asked otherwise: most tests withdraw
    // what they have just been given; holds and locked bonus are tested in
    // tests/integration/bonus-holds.test.ts and, on the screens, tests/http/money-holds.test.ts.
    if (settings === "demo") await pool.query("select apply_demo_settings()");
    return {
      url: app.url,
      scratchUrl: scratch.url,
      transport: transportName,
      /**
       * What the app was given to reach its database (DATABASE_URL, or SUPABASE_URL and the
       * service-role key): an operator command run with it reaches the database the same way.
       */
      databaseEnv: transport.env,
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
      /** The PostgREST stand-in in front of the database (supabase transport), or null. */
      postgrest: transport.postgrest,
      async stop() {
        await app.stop();
        try {
          if (transportName === "supabase") await auditLedger(async (text) => (await pool.query(text)).rows);
        } finally {
          await transport?.close();
          await pool.end();
          await scratch.drop();
        }
      },
    };
  } catch (error) {
    await transport?.close();
    await pool.end();
    await scratch.drop();
    throw error;
  }
}

export type PostgresApp = Awaited<ReturnType<typeof startPostgresApp>>;

/**
 * An app of startPostgresApp with the offer provider `acme` configured against a local stand-in
 * of its API (`provider`), and `postback(params)`: a postback signed with `secret` as the provider
 * sends it, answered with the body's text. `stop` stops both.
 */
export async function startPostgresAppWithProvider(
  secret: string,
  options: Parameters<typeof startPostgresApp>[1] = {},
  env: Record<string, string> = {},
) {
  const provider = await startOfferProvider();
  try {
    const app = await startPostgresApp(
      { OFFER_PROVIDER: "acme", OFFER_PROVIDER_API_URL: provider.url, OFFER_POSTBACK_SECRET: secret, ...env },
      options,
    );
    const postback = async (params: Record<string, string>) =>
      (await fetch(new URL(`/api/acme/postback?${signedPostbackQuery(params, secret)}`, app.url))).text();
    const stop = async () => {
      await app.stop();
      await provider.close();
    };
    return { app, provider, postback, stop };
  } catch (error) {
    await provider.close();
    throw error;
  }
}
