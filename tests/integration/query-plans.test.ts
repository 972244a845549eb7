import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase } from "~/server/db/migrations.server";
import { createScratchDatabase, MIGRATIONS_DIR } from "../support/db";

// The plans Postgres chooses for the queries inside the app's functions, as auto_explain reports
// them (to this session, as notices) while the function runs: the evidence that a page view's
// reads stay small however much history a person has.
describe("query plans on Postgres", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: pg.Pool;
  let client: pg.PoolClient;
  const plans: string[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    pool = new pg.Pool({ connectionString: scratch.url, max: 1 });
    pool.on("error", () => {});
    await migrateDatabase({ pool }, MIGRATIONS_DIR);
    client = await pool.connect();
    client.on("notice", (notice) => plans.push(notice.message ?? ""));
    await client.query("load 'auto_explain'");
    await client.query(`set auto_explain.log_min_duration = 0;
                        set auto_explain.log_nested_statements = on;
                        set auto_explain.log_level = 'notice'`);
  });

  afterAll(async () => {
    client?.release();
    await pool?.end();
    await scratch?.drop();
  });

  it("get_user_summary sums a person's referral credits from their own index, not by reading their whole ledger", async () => {
    await client.query(`
      insert into user_profiles (id, display_name, referral_code) values ('long-history', 'Long', 'AAAAAAA');
      insert into user_balance (user_id) values ('long-history');
      insert into transaction_history (user_id, created_at, description, transaction_type, amount, status, coins)
      select 'long-history', now() - make_interval(hours => h), 'Daily check-in', 'checkin', 0.10, 'completed', 10
        from generate_series(1, 3000) h;
      insert into transaction_history (user_id, description, transaction_type, amount, status, coins)
      values ('long-history', 'Referral reward', 'referral', 5.00, 'completed', 500),
             ('long-history', 'Welcome bonus', 'referral_bonus', 1.00, 'completed', 100);
      analyze transaction_history;`);
    plans.length = 0;
    const { rows } = await client.query<{ summary: { referral_earned: number } }>(
      "select get_user_summary('long-history') as summary",
    );
    expect(rows[0]!.summary.referral_earned).toBe(6);
    const referralSum = plans.find((plan) => /transaction_type = ANY|referral/.test(plan) && /sum\(/i.test(plan));
    expect(referralSum, plans.join("\n---\n")).toBeDefined();
    expect(referralSum).toMatch(/Index Only Scan using transaction_history_referral_credits_idx/);
    expect(referralSum).not.toMatch(/transaction_history_user_created_idx|Seq Scan/);
  });

  it("profiles_without_identity (run at every start) reads only the profiles without an identity, from their partial index", async () => {
    await client.query(`
      insert into user_profiles (id, display_name, referral_code, email, identity_hash)
      select 'with-' || n, 'P', code, 'p' || n || '@example.com', encode(sha256(n::text::bytea), 'hex')
        from generate_series(1, 5000) n,
             lateral (select string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', ((n >> (5 * k)) & 31) + 1, 1), '' order by k) as code
                        from generate_series(0, 6) k) as codes;
      insert into user_profiles (id, display_name, referral_code, email)
      values ('legacy-1', 'Legacy', 'ZZZZZZZ', 'legacy@example.com');
      analyze user_profiles;`);
    plans.length = 0;
    const { rows } = await client.query<{ batch: { id: string }[] }>(
      "select profiles_without_identity(p_after => '', p_limit => 500) as batch",
    );
    expect(rows[0]!.batch.map(({ id }) => id)).toEqual(["legacy-1"]);
    const read = plans.find((plan) => /user_profiles/.test(plan) && /identity_hash IS NULL/i.test(plan));
    expect(read, plans.join("\n---\n")).toBeDefined();
    expect(read).toMatch(/user_profiles_without_identity_idx/);
    expect(read).not.toMatch(/Seq Scan on user_profiles/);
  });

  it("get_user_summary reads only a person's pending earned rows for pending and available money, from the clearing index", async () => {
    await client.query(`
      insert into user_profiles (id, display_name, referral_code) values ('long-earner', 'Earner', 'BBBBBBB');
      insert into user_balance (user_id, balance, total_earned, earned_total) values ('long-earner', 300.20, 300.20, 300.20);
      insert into transaction_history (user_id, created_at, available_at, description, transaction_type, amount, status, coins)
      select 'long-earner', now() - make_interval(hours => h), now() - make_interval(hours => h), 'Offer completed',
             'postback', 0.10, 'completed', 10
        from generate_series(1, 3000) h;
      insert into transaction_history (user_id, available_at, description, transaction_type, amount, status, coins)
      values ('long-earner', now() + interval '2 days', 'Offer completed', 'postback', 0.20, 'completed', 20);
      analyze transaction_history;`);
    plans.length = 0;
    const { rows } = await client.query<{ summary: { available: number; pending: number } }>(
      "select get_user_summary('long-earner') as summary",
    );
    expect(rows[0]!.summary).toMatchObject({ available: 300, pending: 0.2 });
    const pendingSum = plans.find((plan) => /available_at > now\(\)/.test(plan) && /sum\(/i.test(plan));
    expect(pendingSum, plans.join("\n---\n")).toBeDefined();
    expect(pendingSum).toMatch(
      /(Bitmap Index|Index Only|Index) Scan (on|using) transaction_history_earned_clearing_idx/,
    );
    expect(pendingSum).not.toMatch(/transaction_history_user_created_idx|Seq Scan on transaction_history/);
  });

  it("credit_cleared_referrals reads only the uncredited referrals, from their partial index, for everyone and for one account", async () => {
    await client.query(`
      insert into user_profiles (id, display_name, referral_code, email_verified)
      select 'settle-' || n, 'S', code, true
        from generate_series(1, 3000) n,
             lateral (select string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', (((n + 40000) >> (5 * k)) & 31) + 1, 1), '' order by k) as code
                        from generate_series(0, 6) k) as codes;
      insert into user_balance (user_id) select 'settle-' || n from generate_series(1, 3000) n;
      insert into referrals (referrer_user_id, referred_user_id, credited_at)
      select 'settle-1', 'settle-' || n, case when n <= 2990 then now() end from generate_series(2, 3000) n;
      analyze user_profiles; analyze referrals;`);
    for (const call of ["credit_cleared_referrals(100)", "credit_cleared_referrals(50, 'settle-1')"]) {
      plans.length = 0;
      const { rows } = await client.query<{ result: { credited: number } }>(`select ${call} as result`);
      expect(rows[0]!.result).toEqual({ credited: 0, skipped: 0 });
      const read = plans.find((plan) => /on referrals/.test(plan) && /credited_at IS NULL/i.test(plan));
      expect(read, plans.join("\n---\n")).toBeDefined();
      expect(read).toMatch(/referrals_uncredited_idx/);
      expect(read).not.toMatch(/Seq Scan on referrals|referrals_referrer_idx/);
    }
  });
});
