import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerAudit } from "../support/ledger-audit";
import { openTestPglite, type TestDatabase } from "../support/db";
import { endHolds } from "../support/holds";
import { newUserId, provisionMember, recordPostback } from "../support/arrange";
import {
  DEFAULT_GOALS,
  DEFAULT_LEVELS,
  INVALID_GOAL_LISTS,
  INVALID_LEVEL_LISTS,
  VALID_GOAL_LISTS,
  VALID_LEVEL_LISTS,
} from "../support/loop-samples";

// Levels and daily goals (supabase/migrations/20261215000000_levels_and_daily_goals.sql,
// docs/decisions/094): XP from cleared offer earnings, the level-up bonus once per identity, the
// check-in and cash-out perks, today's goals and their progress, each loop's switch and monthly
// cap, all on the production settings. Races are proven on the Postgres server
// (tests/integration/money-races.test.ts) and the screens over HTTP (tests/http/rewards.test.ts).

interface Status {
  xp: number;
  level: number;
  unclaimed: string[];
  levels_on: boolean;
  levels_capped: boolean;
  today: string;
  goals: { id: string; kind: string; target: number; bonus_coins: number; progress: number; claimed: boolean }[];
  goal_streak: number;
  goals_on: boolean;
  goals_capped: boolean;
}
type Claim = { paid: true; coins: number; balance: number } | { paid: false; refused: string };

/** Three goals, so each day draws all of them. */
const THREE_GOALS = [
  { id: "check-in", kind: "checkin", target: 1, bonus_coins: 5 },
  { id: "earn-100", kind: "earn_coins", target: 100, bonus_coins: 10 },
  { id: "one-offer", kind: "complete_offer", target: 1, bonus_coins: 10 },
];

describe("levels and daily goals on PGlite, production settings", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPglite("production");
    await t.sql("update app_config set daily_goals = $1", [JSON.stringify(THREE_GOALS)]);
  });
  afterAll(async () => {
    expect((await ledgerAudit(t.sql)).problems).toEqual([]);
    await t?.close();
  });

  /** A verified account with its own identity (as every sign-up since decision 064 has). */
  const member = (identity?: string) => {
    const userId = newUserId("loop");
    return provisionMember(t, { userId, identity: identity ?? `identity-${userId}` });
  };
  const status = (userId: string) => t.db.rpc<Status>("rewards_status", { p_user_id: userId });
  const claimLevels = (userId: string) => t.db.rpc<Claim>("claim_level_bonuses", { p_user_id: userId });
  const claimGoal = (userId: string, goalId: string) =>
    t.db.rpc<Claim>("claim_daily_goal", { p_user_id: userId, p_goal_id: goalId });
  const ledger = (userId: string) =>
    t.sql<{ transaction_type: string; kind: string; coins: number; description: string }>(
      "select transaction_type, kind, coins, description from transaction_history where user_id = $1 order by id",
      [userId],
    );
  /** Offer earnings of `coins`, past their hold. */
  async function clearedEarnings(userId: string, coins: number, transaction = `${userId}-${coins}`) {
    await recordPostback(t, userId, transaction, coins);
    await endHolds(t, userId);
  }

  it("counts as XP only offer earnings that cleared their hold: not pending ones, not bonus money", async () => {
    const userId = await member();
    await t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: 900 });
    await recordPostback(t, userId, `${userId}-a`, 600);
    expect(await status(userId)).toMatchObject({ xp: 0, level: 1, unclaimed: [] });
    await endHolds(t, userId);
    expect(await status(userId)).toMatchObject({ xp: 600, level: 2, unclaimed: ["Silver"] });
  });

  it("takes XP back with a reversal of cleared earnings", async () => {
    const userId = await member();
    await clearedEarnings(userId, 600, `${userId}-r`);
    expect((await status(userId)).level).toBe(2);
    await recordPostback(t, userId, `${userId}-r`, 200, { reversal: true });
    expect(await status(userId)).toMatchObject({ xp: 400, level: 1 });
  });

  it("pays each level's bonus once as bonus money, and never again after XP falls and climbs back", async () => {
    const userId = await member();
    await clearedEarnings(userId, 2100, `${userId}-g`);
    expect(await status(userId)).toMatchObject({ level: 3, unclaimed: ["Silver", "Gold"] });
    expect(await claimLevels(userId)).toMatchObject({ paid: true, coins: 100, levels: ["Silver", "Gold"] });
    expect((await ledger(userId)).slice(1)).toEqual([
      { transaction_type: "bonus", kind: "bonus", coins: 25, description: "Level bonus: Silver" },
      { transaction_type: "bonus", kind: "bonus", coins: 75, description: "Level bonus: Gold" },
    ]);
    expect(await claimLevels(userId)).toEqual({ paid: false, refused: "no_level_bonus" });
    await recordPostback(t, userId, `${userId}-g`, 2100, { reversal: true });
    await clearedEarnings(userId, 2100, `${userId}-g2`);
    expect((await status(userId)).unclaimed).toEqual([]);
    expect(await claimLevels(userId)).toEqual({ paid: false, refused: "no_level_bonus" });
  });

  it("does not pay a level's bonus again to a new account of the same person (identity) after the first was deleted", async () => {
    const identity = `identity-${newUserId("person")}`;
    const first = await member(identity);
    await clearedEarnings(first, 600);
    expect(await claimLevels(first)).toMatchObject({ paid: true, coins: 25 });
    await t.sql("select delete_account($1, null, '{}', 1000)", [first]);
    const second = await member(identity);
    await clearedEarnings(second, 600);
    expect(await status(second)).toMatchObject({ level: 2, unclaimed: [] });
    expect(await claimLevels(second)).toEqual({ paid: false, refused: "no_level_bonus" });
  });

  it("refuses every loop's bonus to an account without an identity (fail closed)", async () => {
    const userId = await provisionMember(t, { prefix: "legacy" });
    await clearedEarnings(userId, 600);
    expect(await claimLevels(userId)).toEqual({ paid: false, refused: "reward_needs_identity" });
    await t.db.rpc("daily_checkin", { p_user_id: userId });
    expect(await claimGoal(userId, "check-in")).toEqual({ paid: false, refused: "reward_needs_identity" });
    expect(await ledger(userId)).toHaveLength(2);
  });

  it("pays the level's check-in extra with each check-in (Silver: 10 % more), as bonus money of the levels loop", async () => {
    const userId = await member();
    await clearedEarnings(userId, 600);
    const result = await t.db.rpc<Record<string, unknown>>("daily_checkin", { p_user_id: userId });
    expect(result).toMatchObject({ coins: 10, perk_coins: 1, level_name: "Silver" });
    expect((await ledger(userId)).slice(-2)).toEqual([
      { transaction_type: "checkin", kind: "bonus", coins: 10, description: "Daily check-in" },
      { transaction_type: "bonus", kind: "bonus", coins: 1, description: "Level perk: check-in +10% (Silver)" },
    ]);
    const [row] = await t.sql("select loop, reward, coins from loop_bonuses where user_id = $1", [userId]);
    expect(row).toMatchObject({ loop: "levels", coins: 1 });
  });

  it("pays a Platinum account 1 % of a paid cash-out back as bonus money, once, and nothing when it fails", async () => {
    const userId = await member();
    await clearedEarnings(userId, 5000);
    const paid = await t.db.rpc<{ id: string }>("create_withdrawal", {
      p_user_id: userId,
      amount_param: 20,
      payment_method_param: "upi",
      recipient_upi_param: "me@upi",
    });
    const failed = await t.db.rpc<{ id: string }>("create_withdrawal", {
      p_user_id: userId,
      amount_param: 10,
      payment_method_param: "upi",
      recipient_upi_param: "me@upi",
    });
    await t.sql("update withdrawals set review_state = 'approved' where user_id = $1", [userId]);
    await t.db.rpc("settle_withdrawal", { p_withdrawal_id: paid.id, p_status: "completed" });
    await t.db.rpc("settle_withdrawal", { p_withdrawal_id: paid.id, p_status: "completed" });
    await t.db.rpc("settle_withdrawal", { p_withdrawal_id: failed.id, p_status: "failed" });
    const rebates = (await ledger(userId)).filter((row) => row.description.includes("back on a cash-out"));
    expect(rebates).toEqual([
      {
        transaction_type: "bonus",
        kind: "bonus",
        coins: 20,
        description: "Level perk: 1% back on a cash-out (Platinum)",
      },
    ]);
  });

  it("stops the levels loop while it is switched off, and says so", async () => {
    const userId = await member();
    await clearedEarnings(userId, 600);
    await t.sql("update app_config set levels_on = false");
    try {
      expect(await claimLevels(userId)).toEqual({ paid: false, refused: "levels_off" });
      expect(await t.db.rpc("daily_checkin", { p_user_id: userId })).toMatchObject({ perk_coins: 0 });
      expect(await status(userId)).toMatchObject({ levels_on: false, unclaimed: ["Silver"] });
    } finally {
      await t.sql("update app_config set levels_on = true");
    }
  });

  it("stops a loop for the month once its cap would be passed, says so, and starts again when the cap is raised", async () => {
    await t.sql(
      "update app_config set goals_monthly_cap = (select coalesce(max(paid), 0) from loop_months where loop = 'goals' and month = current_month()) + 0.07",
    );
    try {
      const first = await member();
      const second = await member();
      for (const userId of [first, second]) await t.db.rpc("daily_checkin", { p_user_id: userId });
      expect(await claimGoal(first, "check-in")).toMatchObject({ paid: true, coins: 5 });
      expect(await claimGoal(second, "check-in")).toEqual({ paid: false, refused: "goals_cap_reached" });
      expect(await status(second)).toMatchObject({ goals_capped: true });
      await t.sql("update app_config set goals_monthly_cap = goals_monthly_cap + 1");
      expect(await claimGoal(second, "check-in")).toMatchObject({ paid: true, coins: 5 });
      expect(await status(second)).toMatchObject({ goals_capped: false });
    } finally {
      await t.sql("update app_config set goals_monthly_cap = default");
    }
  });

  it("draws three goals a day, the same for everyone, and measures each: a check-in, offer coins cleared today, offers credited today", async () => {
    const userId = await member();
    const other = await member();
    const goals = (await status(userId)).goals;
    expect(goals.map((goal) => goal.id).sort()).toEqual(["check-in", "earn-100", "one-offer"]);
    expect((await status(other)).goals.map((goal) => goal.id)).toEqual(goals.map((goal) => goal.id));
    expect(goals.every((goal) => goal.progress === 0 && !goal.claimed)).toBe(true);

    await t.db.rpc("daily_checkin", { p_user_id: userId });
    await recordPostback(t, userId, `${userId}-offer`, 150);
    const pending = Object.fromEntries((await status(userId)).goals.map((goal) => [goal.id, goal.progress]));
    // The offer is credited (one offer done) but its coins are in their hold: not earned today yet.
    expect(pending).toEqual({ "check-in": 1, "earn-100": 0, "one-offer": 1 });
    await endHolds(t, userId);
    const cleared = Object.fromEntries((await status(userId)).goals.map((goal) => [goal.id, goal.progress]));
    expect(cleared).toEqual({ "check-in": 1, "earn-100": 150, "one-offer": 1 });
  });

  it("reads the day's goals and their progress in the statement that asks: goals_progress is inlined (no search_path, no SECURITY DEFINER of its own), draws the goals in one sort, and only the owner may run it", async () => {
    const plan = (
      await t.sql<{ "QUERY PLAN": string }>(
        "explain (verbose, costs off) select g.goal, g.progress from goals_progress('someone', current_date) g",
      )
    )
      .map((row) => row["QUERY PLAN"])
      .join("\n");
    // Inlined: the plan reads the goal list and the tables itself, with no call of the function.
    expect(plan).toContain("jsonb_array_elements");
    expect(plan).toContain("daily_checkins");
    expect(plan).not.toMatch(/Function Scan on public\.goals_progress/);
    // The draw sorts the list once (its md5 key serves the row numbers and the three taken).
    expect(plan.match(/Sort Key/g), plan).toHaveLength(1);
    const [proc] = await t.sql<{ prosecdef: boolean; proconfig: string[] | null; grantees: string[] }>(
      `select p.prosecdef, p.proconfig,
              array(select r.rolname::text from pg_roles r
                     where has_function_privilege(r.oid, p.oid, 'execute') and r.rolname in ('anon', 'authenticated', 'service_role')) as grantees
         from pg_proc p where p.proname = 'goals_progress'`,
    );
    expect(proc).toEqual({ prosecdef: false, proconfig: null, grantees: [] });
  });

  it("pays a reached goal once, refuses one not reached or not today's, and counts a streak of full days", async () => {
    const userId = await member();
    expect(await claimGoal(userId, "check-in")).toEqual({ paid: false, refused: "goal_not_done" });
    expect(await claimGoal(userId, "refer-friend")).toEqual({ paid: false, refused: "goal_not_today" });
    await t.db.rpc("daily_checkin", { p_user_id: userId });
    expect(await claimGoal(userId, "check-in")).toMatchObject({ paid: true, coins: 5 });
    expect(await claimGoal(userId, "check-in")).toEqual({ paid: false, refused: "goal_already_claimed" });
    expect((await ledger(userId)).at(-1)).toEqual({
      transaction_type: "bonus",
      kind: "bonus",
      coins: 5,
      description: "Daily goal: check in",
    });
    expect((await status(userId)).goal_streak).toBe(0);

    await clearedEarnings(userId, 120);
    expect(await claimGoal(userId, "earn-100")).toMatchObject({ paid: true, coins: 10 });
    expect(await claimGoal(userId, "one-offer")).toMatchObject({ paid: true, coins: 10 });
    expect(await status(userId)).toMatchObject({ goal_streak: 1 });
    // Yesterday's three goals claimed too: two days in a row. The day before was missed.
    const [row] = await t.sql<{ identity_hash: string }>("select identity_hash from user_profiles where id = $1", [
      userId,
    ]);
    const identity = row!.identity_hash;
    for (const goal of ["a", "b", "c"]) {
      await t.sql(
        `insert into loop_bonuses (loop, identity_hash, reward, user_id, coins, amount, day)
         values ('goals', $1, $2, $3, 5, 0.05, (now() at time zone 'UTC')::date - $4::integer)`,
        [identity, `goal:past-${goal}`, userId, 1],
      );
      await t.sql(
        `insert into loop_bonuses (loop, identity_hash, reward, user_id, coins, amount, day)
         values ('goals', $1, $2, $3, 5, 0.05, (now() at time zone 'UTC')::date - $4::integer)`,
        [identity, `goal:older-${goal}`, userId, 3],
      );
    }
    expect(await status(userId)).toMatchObject({ goal_streak: 2 });
  });

  it("counts a friend who joined with the code today and verified their email toward a referral goal", async () => {
    await t.sql("update app_config set daily_goals = $1", [
      JSON.stringify([{ id: "refer-friend", kind: "refer_verified", target: 1, bonus_coins: 25 }]),
    ]);
    try {
      const referrer = await member();
      const [referrerRow] = await t.sql<{ referral_code: string }>(
        "select referral_code from user_profiles where id = $1",
        [referrer],
      );
      const code = referrerRow!.referral_code;
      const friend = newUserId("friend");
      await provisionMember(t, { userId: friend, identity: `identity-${friend}`, referralCode: code, verified: false });
      expect((await status(referrer)).goals[0]).toMatchObject({ id: "refer-friend", progress: 0 });
      await t.sql("select record_email_verified($1)", [friend]);
      expect((await status(referrer)).goals[0]).toMatchObject({ progress: 1 });
      expect(await claimGoal(referrer, "refer-friend")).toMatchObject({ paid: true, coins: 25 });
    } finally {
      await t.sql("update app_config set daily_goals = $1", [JSON.stringify(THREE_GOALS)]);
    }
  });

  it("gives a farm of twenty alias accounts without offer earnings nothing withdrawable from goals and levels", async () => {
    const farm = await Promise.all(Array.from({ length: 20 }, () => member()));
    for (const userId of farm) {
      await t.db.rpc("daily_checkin", { p_user_id: userId });
      expect(await claimGoal(userId, "check-in")).toMatchObject({ paid: true });
      expect(await claimLevels(userId)).toEqual({ paid: false, refused: "no_level_bonus" });
    }
    const available = await t.sql<{ available: string }>(
      "select sum((money_available(id) ->> 'available')::numeric) as available from user_profiles where id = any($1)",
      [farm],
    );
    expect(Number(available[0]!.available)).toBe(0);
  });

  it("starts app_config with the levels and goals the console's tests post (tests/support/loop-samples.ts)", async () => {
    const [row] = await t.sql<{ levels: unknown; daily_goals: unknown }>(
      "select c.levels, d.daily_goals from (select (select column_default from information_schema.columns where table_name = 'app_config' and column_name = 'levels') as levels) c, (select (select column_default from information_schema.columns where table_name = 'app_config' and column_name = 'daily_goals') as daily_goals) d",
    );
    const value = (fallback: unknown) => JSON.parse(String(fallback).replace(/^'|'::jsonb$/g, ""));
    expect(value(row!.levels)).toEqual(DEFAULT_LEVELS);
    expect(value(row!.daily_goals)).toEqual(DEFAULT_GOALS);
  });

  it("checks the lists an owner sets with the same rules as the console's form (tests/support/loop-samples.ts)", async () => {
    const valid = async (name: string, value: unknown) =>
      (
        await t.sql<{ ok: boolean | null }>("select app_setting_valid($1, $2::jsonb) as ok", [
          name,
          JSON.stringify(value),
        ])
      )[0]!.ok;
    for (const list of VALID_LEVEL_LISTS) expect(await valid("levels", list), JSON.stringify(list)).toBe(true);
    for (const list of INVALID_LEVEL_LISTS) expect(await valid("levels", list), JSON.stringify(list)).toBe(false);
    for (const list of VALID_GOAL_LISTS) expect(await valid("daily_goals", list), JSON.stringify(list)).toBe(true);
    for (const list of INVALID_GOAL_LISTS) expect(await valid("daily_goals", list), JSON.stringify(list)).toBe(false);
    expect(await valid("goals_monthly_cap", 250.5)).toBe(true);
    expect(await valid("goals_monthly_cap", -1)).toBe(false);
    expect(await valid("levels_on", "yes")).toBe(false);
  });

  it("makes an owner's change that pays more wait for a second owner: a loop turned on, a cap raised, a list changed", async () => {
    const loosens = async (name: string, before: unknown, after: unknown) =>
      (
        await t.sql<{ loosens: boolean }>("select setting_loosens($1, $2::jsonb, $3::jsonb) as loosens", [
          name,
          JSON.stringify(before),
          JSON.stringify(after),
        ])
      )[0]!.loosens;
    expect(await loosens("goals_on", false, true)).toBe(true);
    expect(await loosens("goals_on", true, false)).toBe(false);
    expect(await loosens("levels_monthly_cap", 500, 600)).toBe(true);
    expect(await loosens("levels_monthly_cap", 500, 400)).toBe(false);
    expect(await loosens("daily_goals", THREE_GOALS, THREE_GOALS.slice(1))).toBe(true);
  });
});
