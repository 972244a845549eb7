import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isReferralCode } from "~/domain/referral-code";
import type { UserSummary } from "~/server/account/users.server";
import { dbRefusal, MIGRATIONS_DIR, openTestPglite, openTestPostgres, type TestDatabase } from "../support/db";
import { newUserId } from "../support/arrange";

const TABLES = [
  "daily_checkins",
  "completed_tasks",
  "user_balance",
  "user_profiles",
  "referrals",
  "notification_preferences",
  "operator_actions",
  "transaction_history",
  "user_feedback",
  "user_fcm_tokens",
  "withdrawals",
  "app_config",
  "monthly_earnings",
  "task_starts",
  "provider_postbacks",
  "rate_limit_windows",
  "rate_limit_paces",
  "user_notices",
  "deleted_accounts",
  "departed_accounts",
  // One person, one identity (decision 064).
  "identities",
  "identity_rewards",
  "account_signals",
  // Every offer wall postback (docs/offer-walls.md).
  "postback_log",
  // "Report missing credit" (docs/offer-walls.md).
  "missing_credit_reports",
  // The operator console (docs/operator-console.md): roles, balance adjustments, support messages.
  "operators",
  "balance_adjustments",
  "support_messages",
  // Offer walls' settings made in the console (docs/offer-walls.md).
  "wall_settings",
  // Test postbacks credit test money; loosening a money rule waits for a second owner (issue 33).
  "test_credits",
  "setting_changes",
  // The console's dashboard: its counters, and each account's last active and earning days.
  "dashboard_counts",
  "user_activity",
  // Postbacks the network vouches for (docs/decisions/077): signature digests, postbacks held for review.
  "postback_signatures",
  "held_postbacks",
  // How far the sweeps that tell people their held earnings cleared have read (docs/decisions/086).
  "cleared_earnings_sweep",
  // Each status a payout's rail reported, once (docs/decisions/088).
  "payout_events",
  // RazorpayX's answer about each UPI ID checked before its first payout.
  "upi_validations",
  // Tremendous's gift card catalogue, its last good list (docs/decisions/089).
  "giftcard_products",
  // What an IP-intelligence provider said of each address, by its keyed hash (docs/decisions/091).
  "network_lookups",
  // Codes by email: each code's keyed hash, tries and when it passed (docs/decisions/092).
  "email_codes",
  // The console's authenticator: sealed secrets and recovery codes' hashes (docs/decisions/093).
  "operator_totp",
  "operator_recovery_codes",
  // Levels and daily goals: each loop payment, and what each loop paid in a month (docs/decisions/094).
  "loop_bonuses",
  "loop_months",
  // Promo codes (docs/decisions/095).
  "promo_codes",
  // Retention by sign-up week: who was active on the 1st, 7th and 30th day (docs/decisions/094).
  "retention_marks",
  // Monthly prizes: each settled month and each of its places (docs/decisions/097).
  "prize_months",
  "prize_awards",
  // When the app first saw each offer a wall's catalogue lists (docs/decisions/100).
  "wall_offers_seen",
];

/** Credits a user the way an earning function will: a ledger row and the balance, together. */
async function fund(t: TestDatabase, userId: string, amount: number) {
  await t.sql(
    "insert into transaction_history (user_id, description, transaction_type, amount, status) values ($1, 'Test credit', 'task', $2, 'completed')",
    [userId, amount],
  );
  await t.sql("update user_balance set balance = balance + $2, total_earned = total_earned + $2 where user_id = $1", [
    userId,
    amount,
  ]);
}

// The same behaviour on both transports that apply migrations themselves.
describe.each([
  ["PGlite", openTestPglite],
  ["Postgres", () => openTestPostgres()],
])("schema and functions on %s", (_name, open) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("records every migration once", async () => {
    const files = readdirSync(MIGRATIONS_DIR).filter((file) => file.endsWith(".sql"));
    const rows = await t.sql<{ version: string }>("select version from app_meta.schema_migrations order by version");
    expect(rows.map((row) => row.version)).toEqual(files.map((file) => file.slice(0, 14)).sort());
  });

  it("has every table, with row level security on and nothing granted to anon or authenticated", async () => {
    const rows = await t.sql<{ relname: string; relrowsecurity: boolean }>(
      "select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r'",
    );
    expect(rows.map((row) => row.relname).sort()).toEqual([...TABLES].sort());
    for (const row of rows) expect(row.relrowsecurity, row.relname).toBe(true);
    for (const table of TABLES) {
      for (const role of ["anon", "authenticated"]) {
        const [privilege] = await t.sql<{ allowed: boolean }>(
          `select has_table_privilege($1, 'public.${table}', 'select,insert,update,delete') as allowed`,
          [role],
        );
        expect(privilege!.allowed, `${role} on ${table}`).toBe(false);
      }
    }
    const [execute] = await t.sql<{ allowed: boolean }>(
      "select has_function_privilege('anon', 'public.create_withdrawal(text, numeric, text, text, text, jsonb, text, text)', 'execute') as allowed",
    );
    expect(execute!.allowed).toBe(false);
  });

  it("keeps money as numeric(12,2)", async () => {
    const rows = await t.sql<{
      table_name: string;
      column_name: string;
      numeric_precision: number;
      numeric_scale: number;
    }>(
      "select table_name, column_name, numeric_precision, numeric_scale from information_schema.columns where table_schema = 'public' and column_name in ('balance', 'total_earned', 'amount')",
    );
    expect(rows.length).toBeGreaterThanOrEqual(4);
    // The dashboard's counters add many amounts up: wider, with the same two decimals.
    for (const row of rows)
      expect([row.table_name, row.numeric_precision, row.numeric_scale]).toEqual([
        row.table_name,
        row.table_name === "dashboard_counts" ? 18 : 12,
        2,
      ]);
  });

  it("provisions a new user once: profile, zero balance, default preferences, a valid referral code", async () => {
    const userId = newUserId("uid");
    const first = await t.db.rpc<UserSummary>("provision_user", {
      p_user_id: userId,
      p_email: "a@example.com",
      p_display_name: "Asha",
    });
    expect(first).toMatchObject({
      id: userId,
      email: "a@example.com",
      display_name: "Asha",
      balance: 0,
      total_earned: 0,
    });
    expect(isReferralCode(first.referral_code)).toBe(true);
    const again = await t.db.rpc<UserSummary>("provision_user", {
      p_user_id: userId,
      p_email: "a@example.com",
      p_display_name: "Other",
    });
    expect(again.referral_code).toBe(first.referral_code);
    expect(again.display_name).toBe("Asha");
    const [prefs] = await t.sql(
      "select email_notifications, push_notifications, marketing_notifications, withdrawal_notifications, reward_notifications from notification_preferences where user_id = $1",
      [userId],
    );
    expect(prefs).toEqual({
      email_notifications: true,
      push_notifications: true,
      marketing_notifications: true,
      withdrawal_notifications: true,
      reward_notifications: true,
    });
    expect(await t.db.rpc("get_user_summary", { p_user_id: "nobody" })).toBeNull();
  });

  it("gives every user a different referral code", async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const summary = await t.db.rpc<UserSummary>("provision_user", {
        p_user_id: newUserId("uid"),
        p_email: null,
        p_display_name: "",
      });
      expect(summary.display_name).toBe("User");
      codes.add(summary.referral_code);
    }
    expect(codes.size).toBe(40);
  });

  it("enforces the rules with constraints: one check-in a day, one completion a task, one referral a person, no negative total earned", async () => {
    const a = newUserId("uid");
    const b = newUserId("uid");
    for (const id of [a, b]) await t.db.rpc("provision_user", { p_user_id: id, p_email: null, p_display_name: "x" });
    await t.sql("insert into daily_checkins (user_id, check_date, coins_earned) values ($1, '2026-11-22', 10)", [a]);
    await expect(
      t.sql("insert into daily_checkins (user_id, check_date, coins_earned) values ($1, '2026-11-22', 10)", [a]),
    ).rejects.toMatchObject({ code: "23505" });
    await t.sql("insert into completed_tasks (user_id, task_id, reward) values ($1, 'task-001', 100)", [a]);
    await expect(
      t.sql("insert into completed_tasks (user_id, task_id, reward) values ($1, 'task-001', 100)", [a]),
    ).rejects.toMatchObject({ code: "23505" });
    await t.sql("insert into referrals (referrer_user_id, referred_user_id) values ($1, $2)", [a, b]);
    await expect(
      t.sql("insert into referrals (referrer_user_id, referred_user_id) values ($1, $2)", [b, b]),
    ).rejects.toMatchObject({ code: expect.stringMatching(/^23/) });
    await expect(
      t.sql("insert into referrals (referrer_user_id, referred_user_id) values ($1, $2)", [a, a]),
    ).rejects.toMatchObject({ code: "23514" });
    // A balance may go below zero (a reversal of money already withdrawn, docs/decisions/065); what was earned may not.
    await expect(t.sql("update user_balance set total_earned = -0.01 where user_id = $1", [a])).rejects.toMatchObject({
      code: "23514",
    });
    await expect(
      t.sql("insert into user_fcm_tokens (user_id, fcm_token) values ($1, 'tok'), ($1, 'tok')", [a]),
    ).rejects.toMatchObject({ code: "23505" });
  });

  it("creates a withdrawal, checking the spec's rules in order, and keeps balance and ledger in step", async () => {
    const userId = newUserId("uid");
    await t.db.rpc("provision_user", { p_user_id: userId, p_email: null, p_display_name: "x", p_email_verified: true });
    await fund(t, userId, 12.5);
    const withdraw = (amount: unknown, method: string, extra: Record<string, unknown> = {}) =>
      t.db.rpc<{ id: string; amount: number; status: string; payment_method: string }>("create_withdrawal", {
        p_user_id: userId,
        amount_param: amount,
        payment_method_param: method,
        recipient_email_param: null,
        recipient_upi_param: null,
        recipient_bank_details_param: null,
        ...extra,
      });
    expect((await dbRefusal(withdraw(0, "paypal"))).message).toBe("Please enter a valid amount");
    expect((await dbRefusal(withdraw(-3, "paypal"))).message).toBe("Please enter a valid amount");
    expect((await dbRefusal(withdraw(1.005, "paypal"))).message).toBe("Please enter a valid amount");
    expect((await dbRefusal(withdraw(13, "paypal", { recipient_email_param: "p@x.com" }))).message).toBe(
      "Amount exceeds your available balance",
    );
    expect((await dbRefusal(withdraw(4.99, "paypal", { recipient_email_param: "p@x.com" }))).message).toBe(
      "Minimum withdrawal amount is $5.00",
    );
    expect((await dbRefusal(withdraw(0.5, "upi", { recipient_upi_param: "me@upi" }))).message).toBe(
      "Minimum withdrawal amount is $1.00",
    );
    expect((await dbRefusal(withdraw(5, "paypal", { recipient_email_param: "  " }))).message).toBe(
      "Please enter your PayPal email",
    );
    expect((await dbRefusal(withdraw(2, "upi"))).message).toBe("Please enter your UPI ID");
    expect((await dbRefusal(withdraw(10, "bank", { recipient_bank_details_param: { details: " " } }))).message).toBe(
      "Please enter your bank account details",
    );
    const refused = await dbRefusal(withdraw(5, "crypto"));
    expect(refused.code).toBe("P0001");

    const created = await withdraw(5.25, "paypal", { recipient_email_param: " me@example.com " });
    expect(created).toMatchObject({ amount: 5.25, status: "pending", payment_method: "paypal" });
    const summary = await t.db.rpc<UserSummary>("get_user_summary", { p_user_id: userId });
    expect(summary.balance).toBe(7.25);
    const list = await t.db.rpc<unknown[]>("get_user_withdrawals", { p_user_id: userId });
    expect(list).toEqual([expect.objectContaining({ id: created.id, amount: 5.25, status: "pending" })]);
    expect(await t.db.rpc("get_user_withdrawals", { p_user_id: newUserId("uid") })).toEqual([]);
    expect(await t.db.rpc("verify_user_balance", { p_user_id: userId })).toMatchObject({ consistent: true });
  });

  it("settles a withdrawal once: failure gives the money back, completion keeps it, a repeat changes nothing", async () => {
    const userId = newUserId("uid");
    await t.db.rpc("provision_user", { p_user_id: userId, p_email: null, p_display_name: "x", p_email_verified: true });
    await fund(t, userId, 20);
    const request = () =>
      t.db.rpc<{ id: string }>("create_withdrawal", {
        p_user_id: userId,
        amount_param: 6,
        payment_method_param: "upi",
        recipient_email_param: null,
        recipient_upi_param: "me@okbank",
        recipient_bank_details_param: null,
      });
    const failed = await request();
    const completed = await request();
    expect((await t.db.rpc<UserSummary>("get_user_summary", { p_user_id: userId })).balance).toBe(8);
    expect(await t.db.rpc("settle_withdrawal", { p_withdrawal_id: failed.id, p_status: "failed" })).toMatchObject({
      status: "failed",
    });
    expect(await t.db.rpc("settle_withdrawal", { p_withdrawal_id: completed.id, p_status: "completed" })).toMatchObject(
      { status: "completed" },
    );
    // A withdrawal settles once: a repeat, even with another outcome, changes nothing.
    expect(await t.db.rpc("settle_withdrawal", { p_withdrawal_id: failed.id, p_status: "completed" })).toMatchObject({
      status: "failed",
      changed: false,
    });
    expect((await t.db.rpc<UserSummary>("get_user_summary", { p_user_id: userId })).balance).toBe(14);
    expect(await t.db.rpc("verify_user_balance", { p_user_id: userId })).toMatchObject({
      consistent: true,
      balance: 14,
    });
  });

  it("keeps the ledger append-only", async () => {
    const userId = newUserId("uid");
    await t.db.rpc("provision_user", { p_user_id: userId, p_email: null, p_display_name: "x" });
    await fund(t, userId, 3);
    await expect(t.sql("update transaction_history set amount = 300 where user_id = $1", [userId])).rejects.toThrow(
      /append-only/,
    );
    await expect(t.sql("delete from transaction_history where user_id = $1", [userId])).rejects.toThrow(/append-only/);
  });
});
