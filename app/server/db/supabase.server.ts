import { DbError, assertIdentifier, type Database } from "./core.server";

/**
 * A hosted Supabase project: every operation is `.rpc()` through PostgREST with the service-role key.
 * Migrations are pushed with the Supabase CLI (`supabase db push`), not applied here.
 */
export async function openSupabaseDatabase(url: string, serviceRoleKey: string): Promise<Database> {
  // Loaded here, not at the top: only a process on this transport loads supabase-js.
  const { createClient } = await import("@supabase/supabase-js");
  const client = createClient(url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  async function rpc<T>(fn: string, args: Record<string, unknown> = {}) {
    Object.keys(args).forEach(assertIdentifier);
    const { data, error } = await client.rpc(assertIdentifier(fn), args);
    if (error) throw new DbError(error.message, error.code, error.details, error.hint);
    return data as T;
  }
  return {
    transport: "supabase",
    rpc,
    // PostgREST runs one function per request: a batch is its calls side by side.
    rpcBatch: (calls) => Promise.all(calls.map((call) => rpc(call.fn, call.args))),
    // PostgREST cannot LISTEN; live refresh needs DATABASE_URL or the embedded database.
    listen: null,
    close: async () => {},
  };
}
