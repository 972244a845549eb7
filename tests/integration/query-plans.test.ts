import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase } from "~/server/db/migrations.server";
import { createMigratedDatabase, MIGRATIONS_DIR } from "../support/db";

// The plans Postgres chooses for the queries inside the app's functions, as auto_explain reports
// them (to this session, as notices) while the function runs: the evidence that a page view's
// reads stay small however much history a person has.
describe("query plans on Postgres", () => {
  let scratch: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let pool: pg.Pool;
  let client: pg.PoolClient;
  const plans: string[] = [];

  beforeAll(async () => {
    scratch = await createMigratedDatabase();
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

  it("a new session on the migrated database runs without JIT, which cost Home's reads 14-50 ms each at 1,000,000 accounts", async () => {
    const fresh = new pg.Client({ connectionString: scratch.url });
    await fresh.connect();
    try {
      expect((await fresh.query<{ jit: string }>("show jit")).rows[0]!.jit).toBe("off");
    } finally {
      await fresh.end();
    }
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
    // Money earned by referring friends: the welcome bonus of joining with a code is not counted.
    expect(rows[0]!.summary.referral_earned).toBe(5);
    const referralSum = plans.find((plan) => /transaction_type = ANY|referral/.test(plan) && /sum\(/i.test(plan));
    expect(referralSum, plans.join("\n---\n")).toBeDefined();
    expect(referralSum).toMatch(/Index Only Scan using transaction_history_referral_credits_idx/);
    expect(referralSum).not.toMatch(/transaction_history_user_created_idx|Seq Scan on transaction_history/);
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

  it("money_available (every balance shown) reads app_config once a call, not once for each use of the unlock ratio", async () => {
    await client.query(`
      insert into user_profiles (id, display_name, referral_code) values ('ratio-reader', 'Ratio', 'RRRRRRR');
      insert into user_balance (user_id, balance, total_earned, earned_total) values ('ratio-reader', 12.00, 20.00, 10.00);`);
    for (let call = 0; call < 6; call++) {
      plans.length = 0;
      const { rows } = await client.query<{ money: { available: number; bonus_locked: number } }>(
        "select money_available('ratio-reader') as money",
      );
      // 10.00 cleared unlocks 10.00 of the 10.00 bonus (ratio 1.0), less the 8.00 withdrawn.
      expect(rows[0]!.money).toMatchObject({ available: 12, bonus_locked: 0 });
      const all = plans.join("\n---\n");
      expect(all.match(/on app_config/g), all).toHaveLength(1);
    }
  });

  it("Home's money, XP and check-in reads are one statement each: account_money and checkin_run are inlined into get_user_summary, rewards_status and get_checkin_status, and only their owner may run them", async () => {
    await client.query(`
      insert into user_profiles (id, display_name, referral_code) values ('home-reader', 'Home', 'HHHHHHH');
      insert into user_balance (user_id, balance, total_earned, earned_total) values ('home-reader', 3.00, 3.00, 3.00);
      insert into transaction_history (user_id, available_at, description, transaction_type, amount, status, coins)
      values ('home-reader', now() + interval '2 days', 'Offer completed', 'postback', 1.00, 'completed', 100);
      insert into daily_checkins (user_id, check_date, coins_earned)
      select 'home-reader', (now() at time zone 'UTC')::date - d, 10 from generate_series(1, 3) d;`);
    const read = async (call: string) => {
      plans.length = 0;
      const { rows } = await client.query<{ result: Record<string, unknown> }>(`select ${call} as result`);
      // auto_explain reports each statement a function runs, then the caller's own.
      return { result: rows[0]!.result, statements: plans.slice(0, -1) };
    };
    const summary = await read("get_user_summary('home-reader')");
    expect(summary.result).toMatchObject({ balance: 3, available: 2, pending: 1 });
    expect(summary.statements, summary.statements.join("\n---\n")).toHaveLength(1);
    expect(summary.statements[0]).toMatch(/user_profiles/);
    expect(summary.statements[0]).toMatch(/transaction_history/);
    const rewards = await read("rewards_status('home-reader')");
    // 2.00 cleared at the default 100 coins a dollar.
    expect(rewards.result).toMatchObject({ xp: 200 });
    expect(rewards.statements, rewards.statements.join("\n---\n")).toHaveLength(1);
    const checkin = await read("get_checkin_status('home-reader')");
    // Three days in a row up to yesterday, none today: today would be the fourth.
    expect(checkin.result).toMatchObject({ checked_in_today: false, streak_days: 3, streak_day: 4 });
    expect(checkin.statements, checkin.statements.join("\n---\n")).toHaveLength(1);
    expect(checkin.statements[0]).toMatch(/daily_checkins/);
    const { rows: procs } = await client.query<{
      proname: string;
      prosecdef: boolean;
      proconfig: string[] | null;
      grantees: string[];
    }>(
      `select p.proname, p.prosecdef, p.proconfig,
              array(select r.rolname::text from pg_roles r
                     where has_function_privilege(r.oid, p.oid, 'execute') and r.rolname in ('anon', 'authenticated', 'service_role')) as grantees
         from pg_proc p where p.proname in ('account_money', 'checkin_run') order by p.proname`,
    );
    expect(procs).toEqual([
      { proname: "account_money", prosecdef: false, proconfig: null, grantees: [] },
      { proname: "checkin_run", prosecdef: false, proconfig: null, grantees: [] },
    ]);
  });

  it("rewards_status, get_referral_status, get_referrals and get_recent_activity plan their statements once for a connection: the first call already runs the generic plan (the person's id a parameter, not a value), which Postgres otherwise gave up at 1,000,000 accounts and planned every call again", async () => {
    await client.query(`
      insert into user_profiles (id, display_name, referral_code) values ('plan-keeper', 'Plans', 'PKPKPKP');
      insert into user_balance (user_id, balance, total_earned, earned_total) values ('plan-keeper', 1.00, 1.00, 1.00);`);
    // A new connection: nothing planned yet, auto_explain reporting each statement the function runs.
    const fresh = new pg.Client({ connectionString: scratch.url });
    const reported: string[] = [];
    fresh.on("notice", (notice) => reported.push(notice.message ?? ""));
    await fresh.connect();
    try {
      await fresh.query("load 'auto_explain'");
      await fresh.query(`set auto_explain.log_min_duration = 0;
                         set auto_explain.log_nested_statements = on;
                         set auto_explain.log_level = 'notice'`);
      for (const call of [
        "rewards_status('plan-keeper')",
        "get_referral_status('plan-keeper')",
        "get_referrals('plan-keeper')",
        "get_recent_activity('plan-keeper', 20)",
      ]) {
        reported.length = 0;
        await fresh.query(`select ${call}`);
        // auto_explain reports each statement the function runs, then the caller's own.
        const statements = reported.slice(0, -1).join("\n---\n");
        expect(statements, call).toMatch(/\$1\b/);
        expect(statements, call).not.toContain("'plan-keeper'");
      }
    } finally {
      await fresh.end();
    }
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

  it("get_leaderboard_position counts at most 1,000 people ahead from the ranking index: exact to 1,000, no rank below", async () => {
    // 5,000 earners this month, person n ranked n (amounts fall with n).
    await client.query(`
      set session_replication_role = replica;
      insert into monthly_earnings (user_id, month, amount)
      select 'rank-' || lpad(n::text, 4, '0'), current_month(), 10000 - n from generate_series(1, 5000) n;
      set session_replication_role = default;
      analyze monthly_earnings;`);
    const rankOf = async (n: number) => {
      const { rows } = await client.query<{ position: { rank: number | null; total_earned: number } }>(
        "select get_leaderboard_position($1, 1000) as position",
        [`rank-${String(n).padStart(4, "0")}`],
      );
      return rows[0]!.position;
    };
    expect(await rankOf(51)).toMatchObject({ rank: 51, total_earned: 9949 });
    expect((await rankOf(1000)).rank).toBe(1000);
    expect((await rankOf(1001)).rank).toBeNull();
    await client.query("set auto_explain.log_analyze = on");
    try {
      plans.length = 0;
      expect((await rankOf(5000)).rank).toBeNull();
    } finally {
      await client.query("set auto_explain.log_analyze = off");
    }
    const count = plans.find((plan) => /count\(\*\)/i.test(plan)) ?? plans.join("\n---\n");
    expect(count, count).not.toMatch(/Seq Scan on monthly_earnings/);
    // The entries read (actual rows), not the planner's estimate before it.
    const read =
      /Index (?:Only )?Scan using monthly_earnings_rank_idx on monthly_earnings ahead .*?\(actual [^)]*?rows=(\d+)/.exec(
        count,
      );
    expect(read, count).not.toBeNull();
    expect(Number(read![1])).toBeLessThanOrEqual(1000);
  });

  it("withdrawal_risk reads each signal from its index, not the whole tables", async () => {
    // 3,000 accounts: households of three share an address range (the first refers the second),
    // pairs share a payout address, one in 20 is on a carrier's NAT; each has a device, a ledger, a
    // paid withdrawal, an offer credit; one in 10 a reversal. risk-31 is the one scored.
    const id = (n: string) => `'risk-' || ${n}`;
    const hash = (text: string) => `encode(sha256((${text})::bytea), 'hex')`;
    await client.query(`
      set session_replication_role = replica;
      insert into user_profiles (id, display_name, referral_code, email, email_verified, identity_hash, created_at)
      select ${id("n")}, 'Risk ' || n, code, 'risk' || n || '@example.com', true, ${hash("'risk-identity-' || n")},
             now() - interval '100 days'
        from generate_series(1, 3000) n,
             lateral (select string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', (((n + 100000) >> (5 * k)) & 31) + 1, 1), '' order by k) as code
                        from generate_series(0, 6) k) as codes;
      insert into user_balance (user_id, balance, total_earned, earned_total)
      select ${id("n")}, 10, 20, 15 from generate_series(1, 3000) n;
      insert into identities (identity_hash, user_id, created_at)
      select ${hash("'risk-identity-' || n")}, ${id("n")}, now() - interval '100 days' from generate_series(1, 3000) n;
      insert into identity_rewards (identity_hash, reward, user_id)
      select ${hash("'risk-identity-' || n")}, 'task:survey', ${id("n")} from generate_series(1, 3000) n;
      insert into withdrawals (user_id, created_at, amount, payment_method, recipient_email, status, settled_at, recipient_hash)
      select ${id("n")}, now() - interval '30 days', 5, 'paypal', 'payee' || n || '@example.com', 'completed',
             now() - interval '29 days', ${hash("'risk-payee-' || (n / 2)")}
        from generate_series(1, 3000) n;
      insert into account_signals (user_id, kind, hash)
      select ${id("n")}, 'address', ${hash("case when n % 20 = 0 then 'risk-nat' else 'risk-range-' || (n / 3) end")}
        from generate_series(1, 3000) n
      union all
      select ${id("n")}, 'device', ${hash("'risk-device-' || n")} from generate_series(1, 3000) n;
      insert into referrals (referrer_user_id, referred_user_id)
      select ${id("(n - 1)")}, ${id("n")} from generate_series(1, 3000) n where n % 3 = 1;
      insert into transaction_history (user_id, created_at, available_at, description, transaction_type, amount, status, coins)
      select ${id("n")}, now() - make_interval(hours => h * 7), now() - make_interval(hours => h * 7),
             'Offer completed', 'postback', 0.10, 'completed', 10
        from generate_series(1, 3000) n, generate_series(1, 10) h;
      insert into provider_postbacks (provider, transaction_id, kind, user_id, coins, amount)
      select 'risk', 'risk-' || n, 'credit', ${id("n")}, 100, 1 from generate_series(1, 3000) n
      union all
      select 'risk', 'risk-' || n, 'reversal', ${id("n")}, -100, -1 from generate_series(1, 3000) n where n % 10 = 1;
      set session_replication_role = default;
      analyze user_profiles, user_balance, identities, identity_rewards, withdrawals, account_signals, referrals,
              transaction_history, provider_postbacks;`);
    plans.length = 0;
    // Six calls: the plans the session caches after five (generic ones, if chosen) are checked too.
    for (let call = 0; call < 6; call++) {
      const { rows } = await client.query<{ risk: { reasons: { code: string; accounts: string[] }[] } }>(
        `select withdrawal_risk('risk-31', ${hash("'risk-payee-15'")}) as risk`,
      );
      const codes = Object.fromEntries(rows[0]!.risk.reasons.map((reason) => [reason.code, reason.accounts]));
      // Each signal was found: the reads below are the ones that found them.
      expect(codes).toMatchObject({
        same_payout_address: ["risk-30"],
        same_address_range: ["risk-30", "risk-32"],
        referral_between_linked: ["risk-30"],
        reversals: [],
      });
    }
    const all = plans.join("\n---\n");
    for (const table of [
      "transaction_history",
      "withdrawals",
      "account_signals",
      "referrals",
      "provider_postbacks",
      "identity_rewards",
      "identities",
      "user_profiles",
      "user_balance",
    ])
      expect(all, all).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
    for (const index of [
      "user_profiles_pkey",
      "user_balance_pkey",
      "identity_rewards_pkey",
      "withdrawals_recipient_user_idx",
      "account_signals_pkey",
      "account_signals_kind_hash_idx",
      "referrals_referred_user_id_key",
      "transaction_history_user_created_idx",
      "provider_postbacks_user_reversals_idx",
      "withdrawals_user_created_idx",
    ])
      expect(all, `${index} not in the plans:\n${all}`).toContain(index);
  });

  it("list_setting_changes reads the settings' audit entries from their partial index, not every operator action", async () => {
    await client.query(`
      insert into user_profiles (id, display_name, referral_code) values ('plans-owner', 'Owner', 'CCCCCCC');
      insert into operators (user_id, role, granted_by) values ('plans-owner', 'owner', 'query-plans');
      insert into operator_actions (actor, action, record_kind, record_id, before, after)
      select 'ops', 'approve', 'withdrawal', 'w-' || n, '{}', '{}' from generate_series(1, 5000) n;
      insert into operator_actions (actor, action, record_kind, record_id, before, after)
      select 'ops', 'set_setting', 'setting', 'checkin_coins', jsonb_build_object('value', n), jsonb_build_object('value', n + 1)
        from generate_series(1, 30) n;
      analyze operator_actions;`);
    plans.length = 0;
    const { rows } = await client.query<{ changes: { after: number }[] }>(
      "select list_setting_changes('plans-owner', null, 21) as changes",
    );
    expect(rows[0]!.changes).toHaveLength(21);
    expect(rows[0]!.changes[0]!.after).toBe(31);
    const read = plans.find((plan) => /operator_actions/.test(plan) && /setting/.test(plan));
    expect(read, plans.join("\n---\n")).toBeDefined();
    expect(read).toMatch(/operator_actions_setting_idx/);
    expect(read).not.toMatch(/Seq Scan on operator_actions/);
  });

  it("the console's postback log reads a network's refused entries (another network's flood aside), one transaction's and one person's through their indexes", async () => {
    await client.query(`
      insert into user_profiles (id, display_name, referral_code) values ('log-owner', 'Owner', 'LGWNRAB'),
                                                                         ('log-person', 'Person', 'LGPRSAB');
      insert into operators (user_id, role, granted_by) values ('log-owner', 'owner', 'test');
      insert into postback_log (network, received_at, method, query, body, verdict, reason, user_id, transaction_id, coins)
      select case when n % 2 = 0 then 'bitlabs' else 'revlum' end, now() - make_interval(secs => n), 'GET', '', '',
             -- Revlum flooded with forged postbacks; BitLabs refused now and then.
             case when (n % 2 = 1 and n % 3 = 0) or n % 100 = 0 then 'refused' else 'credited' end, null,
             case when n % 1000 = 2 then 'log-person' end, 'tx-' || n, 10
        from generate_series(1, 20000) n;`);
    // What autovacuum does to a table that is only ever appended to.
    await client.query("vacuum analyze postback_log");
    const read = async (filters: string) => {
      plans.length = 0;
      const { rows } = await client.query<{ log: { id: number }[] }>(
        `select operator_postback_log('log-owner', 'bitlabs', ${filters}, null, 50) as log`,
      );
      return {
        log: rows[0]!.log,
        plan: plans.find((plan) => /from postback_log/i.test(plan) && /limit/i.test(plan)) ?? plans.join("\n---\n"),
      };
    };
    const refused = await read("true, null, null");
    expect(refused.log).toHaveLength(50);
    expect(refused.plan).toMatch(/postback_log_network_refused_idx/);
    const transaction = await read("false, null, 'tx-4000'");
    expect(transaction.log).toHaveLength(1);
    expect(transaction.plan).toMatch(/postback_log_network_transaction_idx/);
    const person = await read("false, 'log-person', null");
    expect(person.log.length).toBeGreaterThan(0);
    expect(person.plan).toMatch(/postback_log_user_idx/);
    for (const plan of [refused.plan, transaction.plan, person.plan])
      expect(plan).not.toMatch(/Seq Scan on postback_log/);
  });

  it("wall_typical_payouts reads each wall's last 500 credits from its partial index, not every postback of every wall", async () => {
    await client.query(`
      insert into user_profiles (id, display_name, referral_code) values ('typical-person', 'Person', 'TYPCLAB');
      insert into provider_postbacks (provider, transaction_id, kind, user_id, coins, created_at)
      select case when n % 4 = 0 then 'adgate' else 'bitlabs' end, 'typical-' || n,
             case when n % 50 = 0 then 'reversal' else 'credit' end, 'typical-person', 10 + n % 300,
             now() - make_interval(mins => n)
        from generate_series(1, 20000) n;
      analyze provider_postbacks;`);
    plans.length = 0;
    const { rows } = await client.query<{ typical: { network: string; credits: number }[] }>(
      `select wall_typical_payouts('["adgate", "bitlabs"]') as typical`,
    );
    expect(rows[0]!.typical.map((row) => [row.network, row.credits])).toEqual([
      ["adgate", 500],
      ["bitlabs", 500],
    ]);
    const read = plans.find((plan) => /provider_postbacks/.test(plan) && /Limit/.test(plan));
    expect(read, plans.join("\n---\n")).toBeDefined();
    expect(read).toMatch(/provider_postbacks_network_credits_idx/);
    expect(read).not.toMatch(/Seq Scan on provider_postbacks/);
  });

  it("credited_offer_names (Earn's featured offers, signed in) reads a person's last 200 credits from their partial index, not all their postbacks", async () => {
    // The 20,000 postbacks of the test above, all of 'typical-person', some named.
    await client.query(`update provider_postbacks set offer_name = 'Offer ' || (id % 7)
                         where user_id = 'typical-person' and id % 3 = 0;
                        analyze provider_postbacks;`);
    plans.length = 0;
    const { rows } = await client.query<{ names: [string, string][] }>(
      `select credited_offer_names('typical-person') as names`,
    );
    expect(rows[0]!.names.length).toBeGreaterThan(0);
    expect(
      rows[0]!.names.every(([network, name]) => ["adgate", "bitlabs"].includes(network) && /^offer \d$/.test(name)),
    ).toBe(true);
    const read = plans.find((plan) => /provider_postbacks/.test(plan) && /Limit/.test(plan));
    expect(read, plans.join("\n---\n")).toBeDefined();
    expect(read).toMatch(/provider_postbacks_user_credits_idx/);
    expect(read).not.toMatch(/Seq Scan on provider_postbacks/);
  });
});
