import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbError } from "~/server/db/core.server";
import { ledgerAudit } from "../support/ledger-audit";
import { openTestPglite, type TestDatabase } from "../support/db";
import { endHolds } from "../support/holds";
import { newUserId, provisionMember, recordPostback } from "../support/arrange";

// Monthly prizes (supabase/migrations/20261216000000_monthly_prizes.sql, docs/decisions/097): the
// places count offer money that cleared in the month (not the board's total, not bonus money), the
// close pays once, one place per identity, a risky winner waits for an operator, the loop's switch
// and cap hold, and the Leaderboard's standing says what the next prize takes. The close racing on
// two servers is proven over HTTP (tests/http/loops-two-servers.test.ts).

interface Close {
  closed: boolean;
  reason?: string;
  outcome?: string;
  awards?: number;
  paid?: number;
  held?: number;
}
interface Award {
  place: number;
  user_id: string | null;
  username: string;
  cleared: number;
  coins: number;
  status: string;
  refused: string | null;
}
interface Standing {
  on: boolean;
  prizes: number[];
  cleared: number;
  place: number | null;
  next: { place: number; coins: number; needed: number } | null;
  past: { month: string; winners: { place: number; username: string; coins: number; in_review: boolean }[] }[];
}

/** Each test closes a month of its own, long past, so the tests stay independent. */
let monthCounter = 0;
const nextMonth = () => `2019-${String(++monthCounter).padStart(2, "0")}-01`;

describe("monthly prizes on PGlite, production settings", () => {
  let t: TestDatabase;
  let operatorId: string;
  beforeAll(async () => {
    t = await openTestPglite("production");
    // Offers through "instant" are never held; every other wall holds 7 days.
    await t.sql(`update app_config set provider_hold_days = '{"instant": 0}', monthly_prizes = '[300, 200, 100]'`);
    operatorId = await provisionMember(t, { prefix: "operator", identity: "identity-operator" });
    await grantRole(operatorId);
  });
  afterAll(async () => {
    expect((await ledgerAudit(t.sql)).problems).toEqual([]);
    await t?.close();
  });

  const grantRole = (userId: string) =>
    t.db.rpc("grant_operator_role", { p_actor: "test", p_user_id: userId, p_role: "finance" });
  const member = (options: { identity?: string | null; verified?: boolean } = {}) => {
    const userId = newUserId("prize");
    return provisionMember(t, {
      userId,
      identity: options.identity === undefined ? `identity-${userId}` : options.identity,
      verified: options.verified ?? true,
    });
  };
  const cleared = async (userId: string, month = "current") =>
    Number(
      (
        await t.sql<{ cleared: string }>(
          `select cleared from monthly_earnings
            where user_id = $1 and month = case when $2 = 'current' then current_month() else $2::date end`,
          [userId, month],
        )
      )[0]?.cleared ?? 0,
    );
  /** Offer money that cleared in a past month, as the ledger functions and the sweep leave it. */
  const clearedIn = (month: string, userId: string, dollars: number) =>
    t.sql(
      `insert into monthly_earnings (user_id, month, amount, cleared) values ($1, $2, $3, $3)
       on conflict (user_id, month) do update set cleared = excluded.cleared`,
      [userId, month, dollars],
    );
  const close = (month: string) => t.db.rpc<Close>("close_prize_month", { p_month: month });
  const awards = (month: string) =>
    t.sql<Award>(
      `select place, user_id, username, cleared::float8 as cleared, coins, status, refused
         from prize_awards where month = $1 order by place`,
      [month],
    );
  const bonuses = (userId: string) =>
    t.sql<{ transaction_type: string; kind: string; coins: number; description: string }>(
      `select transaction_type, kind, coins, description from transaction_history
        where user_id = $1 and transaction_type = 'bonus' order by id`,
      [userId],
    );
  const standing = (userId: string) => t.db.rpc<Standing>("leaderboard_prizes", { p_user_id: userId });
  const decide = (month: string, place: number, approve: boolean, operator = operatorId) =>
    t.db.rpc<{ status: string; refused: string | null }>("operator_decide_prize", {
      p_operator_id: operator,
      p_actor: "finance@example.com",
      p_month: month,
      p_place: place,
      p_approve: approve,
      p_reason: "Checked the offers with the network",
    });
  const hint = (promise: Promise<unknown>) =>
    promise.then(
      () => "no error",
      (error: unknown) => (error instanceof DbError ? error.hint : String(error)),
    );

  it("counts offer money toward the month's prizes when it clears: at once when not held, after the hold otherwise, never bonus money", async () => {
    const userId = await member();
    await t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: 900 });
    await recordPostback(t, userId, `${userId}-instant`, 150, { provider: "instant" });
    await recordPostback(t, userId, `${userId}-held`, 400);
    expect(await cleared(userId)).toBe(1.5);
    await endHolds(t, userId);
    await t.db.rpc("notify_cleared_earnings", {});
    expect(await cleared(userId)).toBe(5.5);
    // A reversal after the money cleared counts against the month it happens in.
    await recordPostback(t, userId, `${userId}-instant`, 150, { provider: "instant", reversal: true });
    expect(await cleared(userId)).toBe(4);
  });

  it("nets a credit reversed during its hold to nothing, so it never counts", async () => {
    const userId = await member();
    await recordPostback(t, userId, `${userId}-a`, 500);
    await recordPostback(t, userId, `${userId}-a`, 500, { reversal: true });
    await endHolds(t, userId);
    await t.db.rpc("notify_cleared_earnings", {});
    expect(await cleared(userId)).toBe(0);
  });

  it("pays the table to the top places by cleared offer money as bonus money, once, however often the close runs", async () => {
    const month = nextMonth();
    const [first, second, third, fourth] = [await member(), await member(), await member(), await member()];
    await clearedIn(month, first, 40);
    await clearedIn(month, second, 30);
    await clearedIn(month, third, 20.5);
    await clearedIn(month, fourth, 20);
    expect(await close(month)).toMatchObject({ closed: true, outcome: "closed", awards: 3, paid: 3, held: 0 });
    expect(await awards(month)).toMatchObject([
      { place: 1, user_id: first, cleared: 40, coins: 300, status: "paid" },
      { place: 2, user_id: second, cleared: 30, coins: 200, status: "paid" },
      { place: 3, user_id: third, cleared: 20.5, coins: 100, status: "paid" },
    ]);
    const monthName = new Date(month).toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
    expect(await bonuses(first)).toEqual([
      {
        transaction_type: "bonus",
        kind: "bonus",
        coins: 300,
        description: `Leaderboard prize: 1st place in ${monthName}`,
      },
    ]);
    expect(await bonuses(fourth)).toEqual([]);
    expect(await close(month)).toEqual({ closed: false, reason: "already_closed" });
    expect(await bonuses(first)).toHaveLength(1);
  });

  it("locks a prize like every bonus: none of it is withdrawable before offer money unlocks it", async () => {
    const month = nextMonth();
    const winner = await member();
    await clearedIn(month, winner, 50);
    await close(month);
    const summary = await t.db.rpc<{ balance: number; available: number }>("get_user_summary", { p_user_id: winner });
    expect({ balance: Number(summary.balance), available: Number(summary.available) }).toEqual({
      balance: 3,
      available: 0,
    });
  });

  it("gives no place to an account without an identity or a banned one: the place passes to the next person", async () => {
    const month = nextMonth();
    const noIdentity = await member({ identity: null });
    const banned = await member();
    const next = await member();
    await t.sql("update user_profiles set banned_at = now() where id = $1", [banned]);
    await clearedIn(month, noIdentity, 90);
    await clearedIn(month, banned, 80);
    await clearedIn(month, next, 10);
    await close(month);
    expect((await awards(month)).map((award) => award.user_id)).toEqual([next]);
    expect(await bonuses(noIdentity)).toEqual([]);
    expect(await bonuses(banned)).toEqual([]);
  });

  it("reads the places a hundred at a time: past 150 accounts without an identity, the first with one wins", async () => {
    const month = nextMonth();
    const nobodies = await Promise.all(Array.from({ length: 150 }, () => member({ identity: null })));
    for (const [index, nobody] of nobodies.entries()) await clearedIn(month, nobody, 500 - index);
    const winner = await member();
    await clearedIn(month, winner, 1);
    expect(await close(month)).toMatchObject({ awards: 1 });
    expect((await awards(month)).map((award) => award.user_id)).toEqual([winner]);
  });

  it("holds a winner whose risk score reaches the review threshold until an operator pays or refuses it, audited", async () => {
    const month = nextMonth();
    // An unverified email (30) on an account made this hour (20): 50, the production threshold.
    const risky = await member({ verified: false });
    const refusedOne = await member({ verified: false });
    await clearedIn(month, risky, 60);
    await clearedIn(month, refusedOne, 50);
    expect(await close(month)).toMatchObject({ awards: 2, paid: 0, held: 2 });
    expect(await bonuses(risky)).toEqual([]);
    expect((await standing(risky)).past[0]).toEqual({
      month,
      winners: [
        { place: 1, username: `User${risky.slice(0, 4)}`, coins: 300, in_review: true },
        { place: 2, username: `User${refusedOne.slice(0, 4)}`, coins: 200, in_review: true },
      ],
    });
    expect(await decide(month, 1, true)).toEqual({ status: "paid", refused: null });
    expect(await bonuses(risky)).toHaveLength(1);
    expect(await decide(month, 2, false)).toEqual({ status: "refused", refused: null });
    expect(await bonuses(refusedOne)).toEqual([]);
    expect(await hint(decide(month, 1, true))).toBe("prize_award_decided");
    expect(await bonuses(risky)).toHaveLength(1);
    const audit = await t.sql<{ action: string; record_id: string; reason: string }>(
      `select action, record_id, reason from operator_actions where record_kind = 'prize_award' and record_id like $1
        order by id`,
      [`${month.slice(0, 7)}#%`],
    );
    expect(audit).toEqual([
      { action: "pay_prize", record_id: `${month.slice(0, 7)}#1`, reason: "Checked the offers with the network" },
      { action: "refuse_prize", record_id: `${month.slice(0, 7)}#2`, reason: "Checked the offers with the network" },
    ]);
    // Refused and unpaid places are not shown as winners.
    expect((await standing(risky)).past.find((past) => past.month === month)?.winners).toEqual([
      { place: 1, username: `User${risky.slice(0, 4)}`, coins: 300, in_review: false },
    ]);
  });

  it("refuses an operator deciding their own held prize; another operator may", async () => {
    const month = nextMonth();
    const lone = await provisionMember(t, { prefix: "operator", identity: "identity-lone-operator", verified: false });
    await grantRole(lone);
    await clearedIn(month, lone, 60);
    await close(month);
    expect(await awards(month)).toMatchObject([{ place: 1, user_id: lone, status: "held" }]);
    expect(await hint(decide(month, 1, true, lone))).toBe("operator_self_action");
    expect(await bonuses(lone)).toEqual([]);
    expect(await decide(month, 1, true)).toMatchObject({ status: "paid" });
    expect(await bonuses(lone)).toHaveLength(1);
  });

  it("pays nothing for a month closed while the loop is off, and records it as off", async () => {
    const month = nextMonth();
    const winner = await member();
    await clearedIn(month, winner, 99);
    await t.sql("update app_config set prizes_on = false");
    try {
      expect(await close(month)).toMatchObject({ closed: true, outcome: "off", awards: 0 });
    } finally {
      await t.sql("update app_config set prizes_on = true");
    }
    expect(await bonuses(winner)).toEqual([]);
    expect(await close(month)).toEqual({ closed: false, reason: "already_closed" });
  });

  it("stops at the loop's monthly cap: a place whose prize does not fit is recorded as not paid, for the cap", async () => {
    const month = nextMonth();
    const [first, second] = [await member(), await member()];
    await clearedIn(month, first, 20);
    await clearedIn(month, second, 10);
    const { paid } = (
      await t.sql<{ paid: string }>(
        "select coalesce((select paid from loop_months where loop = 'prizes' and month = current_month()), 0) as paid",
      )
    )[0]!;
    // Room for the first prize ($3.00) and not the second ($2.00).
    await t.sql("update app_config set prizes_monthly_cap = $1", [Number(paid) + 4]);
    try {
      await close(month);
    } finally {
      await t.sql("update app_config set prizes_monthly_cap = default");
    }
    expect(await awards(month)).toMatchObject([
      { place: 1, user_id: first, status: "paid" },
      { place: 2, user_id: second, status: "not_paid", refused: "loop_cap_reached" },
    ]);
    expect(await bonuses(second)).toEqual([]);
  });

  it("closes only finished months, and never the month before prizes began", async () => {
    expect(await t.db.rpc<Close>("close_prize_month", { p_month: "2999-01-01" })).toEqual({
      closed: false,
      reason: "month_not_finished",
    });
    // The job's call: the month before this one, which the migration marked as before prizes.
    expect(await t.db.rpc<Close>("close_prize_month", {})).toEqual({ closed: false, reason: "already_closed" });
    const { outcome } = (
      await t.sql<{ outcome: string }>(
        "select outcome from prize_months where month = (current_month() - interval '1 month')::date",
      )
    )[0]!;
    expect(outcome).toBe("before_prizes");
  });

  it("a farm of aliases that check in and collect bonuses has no cleared offer money, so no place", async () => {
    const month = nextMonth();
    const farm = await Promise.all(Array.from({ length: 20 }, () => member()));
    for (const alias of farm) await t.db.rpc("add_user_coins", { user_id_param: alias, amount_param: 5000 });
    const earner = await member();
    await recordPostback(t, earner, `${earner}-honest`, 100, { provider: "instant" });
    for (const alias of [...farm, earner]) expect(await cleared(alias)).toBe(alias === earner ? 1 : 0);
    // The month's places as the close would take them: only the earner has any.
    const { places } = (
      await t.sql<{ places: number }>(
        "select count(*)::int as places from monthly_earnings where month = current_month() and cleared > 0 and user_id = any($1)",
        [farm],
      )
    )[0]!;
    expect(places).toBe(0);
    await clearedIn(month, earner, 1);
    await close(month);
    expect((await awards(month)).map((award) => award.user_id)).toEqual([earner]);
  });

  it("tells a person their place by cleared offer money and what the next prize place takes", async () => {
    // This month's standings among the accounts of this test alone cannot be isolated from the
    // others', so the numbers are read relative to what is on the board now.
    const top = await member();
    await recordPostback(t, top, `${top}-big`, 1_000_000, { provider: "instant" });
    const runnerUp = await member();
    await recordPostback(t, runnerUp, `${runnerUp}-big`, 900_000, { provider: "instant" });
    const none = await member();
    expect(await standing(top)).toMatchObject({
      on: true,
      prizes: [300, 200, 100],
      cleared: 10000,
      place: 1,
      next: null,
    });
    expect(await standing(runnerUp)).toMatchObject({
      cleared: 9000,
      place: 2,
      next: { place: 1, coins: 300, needed: 1000.01 },
    });
    const third = await standing(none);
    expect(third).toMatchObject({ cleared: 0, place: null, next: { place: 3, coins: 100 } });
    const { third_cleared } = (
      await t.sql<{ third_cleared: string }>(
        `select cleared as third_cleared from monthly_earnings where month = current_month() and cleared > 0
        order by cleared desc, user_id offset 2 limit 1`,
      )
    )[0]!;
    expect(third.next!.needed).toBe(Math.round((Number(third_cleared ?? 0) + 0.01) * 100) / 100);
  });

  it("keeps the cleared column equal to the ledger: each earned row in the month its hold ended, or it was written", async () => {
    await t.db.rpc("notify_cleared_earnings", {});
    const rows = await t.sql<{ user_id: string; month: string; kept: string; ledger: string }>(`
      with ledger as (
        select user_id, date_trunc('month', case when available_at > created_at then available_at else created_at end
                                               at time zone 'UTC')::date as month, sum(amount) as amount
          from transaction_history
         where kind = 'earned' and user_id is not null and available_at <= now()
         group by 1, 2)
      select coalesce(m.user_id, l.user_id) as user_id, coalesce(m.month, l.month)::text as month,
             coalesce(m.cleared, 0)::text as kept, coalesce(l.amount, 0)::text as ledger
        from (select * from monthly_earnings where month >= current_month() - interval '1 month') m
        full join ledger l on l.user_id = m.user_id and l.month = m.month
       where coalesce(m.cleared, 0) <> coalesce(l.amount, 0)`);
    expect(rows.filter((row) => !row.month.startsWith("2019"))).toEqual([]);
  });
});
