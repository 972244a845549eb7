import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase } from "~/server/db/migrations.server";
import { createScratchDatabase, MIGRATIONS_DIR } from "../support/db";

// The privileges contract (issue 33, docs/security.md, "Database privileges"): on a database shaped
// as Supabase makes them (the API roles anon, authenticated and service_role, and default
// privileges that grant every new table, sequence and function to all three), the migrations leave
// no privilege that is not in the lists below. Every call of the app is a SECURITY DEFINER
// function, so no API role needs anything on a table or sequence; service_role executes exactly
// SERVICE_ROLE_FUNCTIONS; anon, authenticated and PUBLIC nothing at all.

/** The functions the server calls (as service_role on Supabase). A new one is added here on purpose. */
const SERVICE_ROLE_FUNCTIONS = [
  "account_closed",
  "account_deletion_facts",
  "accounts_by_email",
  "add_user_coins",
  "announce_sessions_ended",
  "answer_ticket",
  "app_health",
  "apply_demo_settings",
  "apply_paypal_payout",
  "apply_production_settings",
  "apply_razorpayx_payout",
  "apply_tremendous_order",
  "approve_withdrawals",
  "assign_identities",
  "ban_account",
  "cash_out_outlook",
  "cash_out_reviewed_first",
  "check_dashboard_counts",
  "claim_razorpayx_payout",
  "claim_tremendous_order",
  "checkin_streak",
  "claim_due_notices",
  "claim_payout",
  "clean_display_name",
  "coins_to_dollars",
  "complete_task",
  "count_unread_notices",
  "create_withdrawal",
  "credit_cleared_referrals",
  "credited_offer_names",
  "current_month",
  "daily_checkin",
  "decide_held_postback",
  "delete_account",
  "delete_push_token",
  "drop_fcm_token",
  "email_has_profile",
  "fold_dashboard_counts",
  "forget_push_device",
  "get_app_config",
  "get_checkin_status",
  "get_last_withdrawal_recipient",
  "get_leaderboard",
  "get_leaderboard_position",
  "get_missing_credit_reports",
  "get_notification_preferences",
  "get_offer_credits",
  "get_recent_activity",
  "get_referral_status",
  "get_referrals",
  "get_task_completions",
  "get_task_start",
  "get_user_feedback",
  "get_user_summary",
  "get_user_withdrawals",
  "get_wall_id",
  "giftcard_catalogue",
  "grant_operator_role",
  "has_hidden_characters",
  "hit_rate_limit",
  "identity_taken",
  "list_missing_credit_reports",
  "list_operator_actions",
  "list_postback_log",
  "list_setting_changes",
  "log_postback",
  "mark_payout_sent",
  "money_available",
  "network_lookup_of",
  "network_pause_reason",
  "start_email_code",
  "check_email_code",
  "email_code_challenge",
  "end_email_code_account",
  "signin_code_on",
  "set_signin_code",
  "withdrawal_code_needed",
  // Levels and daily goals (docs/decisions/094).
  "rewards_status",
  "claim_level_bonuses",
  "claim_daily_goal",
  // Promo codes (docs/decisions/095).
  "redeem_promo_code",
  "operator_promo_codes",
  "operator_create_promo_code",
  "operator_disable_promo_code",
  // Monthly prizes (docs/decisions/097).
  "close_prize_month",
  "leaderboard_prizes",
  "operator_prize_awards",
  "operator_decide_prize",
  // The feed of recent cash-outs (docs/decisions/098).
  "cashout_feed",
  "in_cashout_feed",
  "set_in_cashout_feed",
  // Featured offers: when each listed offer was first seen, and the walls' typical payouts (docs/decisions/100).
  "note_wall_offers_seen",
  "wall_typical_payouts",
  "operator_totp_of",
  "start_operator_totp",
  "use_operator_totp_step",
  "use_operator_recovery_code",
  "reset_operator_totp",
  "notify_cleared_earnings",
  "operator_add_note",
  "operator_appeal",
  "operator_adjust_balance",
  "operator_adjustments",
  "operator_dashboard",
  "operator_decide_adjustment",
  "operator_decide_setting_change",
  "operator_export_unpaid",
  "operator_find_people",
  "operator_held_postbacks",
  "operator_negative_balances",
  "operator_open_appeals",
  "operator_person",
  "operator_postback_log",
  "operator_record_account_action",
  "operator_record_refusal",
  "operator_record_test_postback",
  "operator_reply_ticket",
  "operator_reset_wall",
  "operator_review_queue",
  "operator_role",
  "operator_set_settings",
  "operator_set_wall",
  "operator_settings",
  "operator_show_appeal_reasons",
  "operator_ticket",
  "operator_tickets",
  "operator_update_ticket",
  "operator_walls",
  "operator_withdrawal",
  "operator_withdrawal_counts",
  "operator_withdrawal_list",
  "operator_withdrawals",
  "pace_attempt",
  "profile_exists",
  "profiles_without_identity",
  "provision_user",
  "razorpayx_due",
  "prune_rate_limits",
  "push_token_status",
  "read_notices",
  "rebuild_dashboard_counts",
  "record_account_signals",
  "record_email_verified",
  "record_giftcard_catalogue",
  "record_inr_rate",
  "record_network_signal",
  "record_notice_delivery",
  "record_payout_status",
  "record_postback",
  "record_time_zone",
  "record_upi_validation",
  "referral_allowed_for",
  "referral_code_exists",
  "refund_rate_limit",
  "register_push_token",
  "reject_withdrawal",
  "release_payout",
  "release_razorpayx_claim",
  "release_tremendous_claim",
  "report_missing_credit",
  "require_operator_role",
  "reserve_notice_email",
  "revoke_operator_role",
  "set_account_active",
  "set_notification_preference",
  "set_payouts_paused",
  "settle_withdrawal",
  "start_task",
  "submit_feedback",
  "submit_appeal",
  "take_postback",
  "take_rate_limit",
  "take_rate_limit_hits",
  "take_user_notices",
  "tremendous_due",
  "tremendous_withdrawal_of",
  "unban_account",
  "update_display_name",
  "upi_validation_of",
  "usd_inr_rate_now",
  "verify_all_balances",
  "verify_user_balance",
  "wall_overrides",
  "withdrawal_json",
  "withdrawal_risk",
].sort();

const API_ROLES = ["anon", "authenticated", "service_role"];

/** The tables nobody may empty: the ledger, the money, the audit and what anti-abuse remembers. */
const NEVER_EMPTIED = [
  "operator_actions",
  "transaction_history",
  "withdrawals",
  "user_balance",
  "user_profiles",
  "balance_adjustments",
  "provider_postbacks",
  "postback_log",
  "postback_signatures",
  "held_postbacks",
  "deleted_accounts",
  "identities",
  "identity_rewards",
  "monthly_earnings",
  "test_credits",
  "missing_credit_reports",
  "support_messages",
  "operators",
  "app_config",
  "wall_settings",
];

describe("privileges on a Supabase-shaped database", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: pg.Pool;
  const sql = async <T>(text: string, values?: unknown[]) => (await pool.query(text, values)).rows as T[];

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
    pool.on("error", () => {});
    // What a Supabase project has before the first migration: its API roles, and default
    // privileges that hand each of them every object the migrations will create.
    await sql(`
      do $$
      begin
        if not exists (select from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
        if not exists (select from pg_roles where rolname = 'authenticated') then
          create role authenticated nologin noinherit;
        end if;
        if not exists (select from pg_roles where rolname = 'service_role') then
          create role service_role nologin noinherit bypassrls;
        end if;
      exception when duplicate_object or unique_violation then null;
      end
      $$;
      alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
      alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
      alter default privileges in schema public grant all on functions to anon, authenticated, service_role;`);
    await migrateDatabase({ pool }, MIGRATIONS_DIR);
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await scratch?.drop();
  });

  it("grants anon, authenticated, service_role and PUBLIC nothing on any table, view or sequence", async () => {
    const granted = await sql<{ object: string; grantee: string; privilege: string }>(`
      select c.relname as object, coalesce(r.rolname, 'PUBLIC') as grantee, a.privilege_type as privilege
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        cross join lateral aclexplode(coalesce(c.relacl, acldefault('r', c.relowner))) a
        left join pg_roles r on r.oid = a.grantee
       where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
         and a.grantee <> c.relowner
       order by 1, 2, 3`);
    expect(granted).toEqual([]);
  });

  it("lets service_role execute exactly the listed functions, and anon, authenticated and PUBLIC none", async () => {
    const granted = await sql<{ name: string; grantee: string }>(`
      select distinct p.proname as name, coalesce(r.rolname, 'PUBLIC') as grantee
        from pg_proc p
        join pg_namespace n on n.oid = p.pronamespace
        cross join lateral aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
        left join pg_roles r on r.oid = a.grantee
       where n.nspname = 'public' and a.grantee <> p.proowner
       order by 1, 2`);
    expect(granted.filter((row) => row.grantee !== "service_role")).toEqual([]);
    expect(granted.map((row) => row.name)).toEqual(SERVICE_ROLE_FUNCTIONS);
  });

  it("leaves no default privilege that would hand a new object to an API role or PUBLIC", async () => {
    const defaults = await sql<{ kind: string; grantee: string; privilege: string }>(`
      select d.defaclobjtype as kind, coalesce(r.rolname, 'PUBLIC') as grantee, a.privilege_type as privilege
        from pg_default_acl d
        cross join lateral aclexplode(d.defaclacl) a
        left join pg_roles r on r.oid = a.grantee
       where a.grantee <> d.defaclrole
       order by 1, 2, 3`);
    expect(defaults).toEqual([]);
    // And a function made after the migrations, as the next migration would make one, is nobody's.
    await sql("create function public.contract_probe() returns int language sql as 'select 1'");
    const probe = await sql<{ role: string; allowed: boolean }>(
      `select role, has_function_privilege(role, 'public.contract_probe()', 'execute') as allowed
         from unnest($1::text[]) role`,
      [API_ROLES],
    );
    expect(probe).toEqual(API_ROLES.map((role) => ({ role, allowed: false })));
  });

  it.each(NEVER_EMPTIED)(
    "refuses TRUNCATE on %s, even to its owner and with cascade, and service_role may not try",
    async (table) => {
      // With cascade the trigger answers; without, a table others reference is refused even sooner.
      await expect(sql(`truncate public.${table} cascade`)).rejects.toMatchObject({ hint: "audit_append_only" });
      await expect(sql(`truncate public.${table}`)).rejects.toThrow(/append-only|cannot truncate a table referenced/);
      const client = await pool.connect();
      try {
        await client.query("set role service_role");
        await expect(client.query(`truncate public.${table}`)).rejects.toMatchObject({ code: "42501" });
      } finally {
        await client.query("reset role");
        client.release();
      }
    },
  );
});
