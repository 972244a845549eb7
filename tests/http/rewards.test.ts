import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOALS_CAPPED, LEVELS_OFF } from "~/domain/rewards";
import { newMember } from "../support/console";
import { visibleText } from "../support/bad-input";
import { landing, type HttpClient } from "../support/http";
import { startPostgresAppWithProvider, type PostgresApp } from "../support/postgres-app";

// Levels and daily goals over plain form posts (issue 39, points 1 and 2; docs/decisions/094), on
// the production settings and an app with its own Postgres: the reward, its lock, its cap, its race
// and a farm of aliases, per loop.
const SECRET = "postback-secret-for-rewards-tests";
const THREE_GOALS = [
  { id: "check-in", kind: "checkin", target: 1, bonus_coins: 5 },
  { id: "earn-100", kind: "earn_coins", target: 100, bonus_coins: 10 },
  { id: "one-offer", kind: "complete_offer", target: 1, bonus_coins: 10 },
];

describe("levels and daily goals over HTTP (production settings, no JavaScript)", () => {
  let app: PostgresApp;
  let postback: (params: Record<string, string>) => Promise<string>;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ app, postback, stop } = await startPostgresAppWithProvider(SECRET, { settings: "production" }));
    await app.sql("update app_config set daily_goals = $1", [JSON.stringify(THREE_GOALS)]);
  }, 120_000);
  afterAll(async () => {
    await stop?.();
  });

  /** Offer earnings of `coins` for `id`, cleared at once (this provider's hold set to 0 for it). */
  async function clearedOffer(id: string, coins: number) {
    await app.sql(`update app_config set provider_hold_days = '{"acme": 0}'`);
    try {
      expect(await postback({ user_id: id, transaction_id: `${id}-${coins}`, amount: String(coins) })).toBe("OK");
    } finally {
      await app.sql(`update app_config set provider_hold_days = '{}'`);
    }
  }
  const bonusRows = (id: string) =>
    app.sql<{ coins: number; description: string }>(
      "select coins, description from transaction_history where user_id = $1 and transaction_type = 'bonus' order by id",
      [id],
    );
  const text = visibleText;
  /** A PayPal cash-out of `amount` dollars, with the smallest PayPal cash-out lowered to a cent so the lock is what refuses it. */
  async function cashOut(client: HttpClient, amount: string) {
    await app.sql("update app_config set min_withdrawal_paypal = 0.01");
    try {
      return await client.post("/withdraw", {
        intent: "withdraw",
        amount,
        method: "paypal",
        paypalEmail: "me@example.com",
      });
    } finally {
      await app.sql("update app_config set min_withdrawal_paypal = default");
    }
  }
  const claimGoal = (client: HttpClient, goalId: string) => client.post("/?index", { intent: "claim-goal", goalId });

  it("shows a new account Level 1 (Bronze), its XP, the way to Silver and what Silver unlocks, with nothing to claim", async () => {
    const { client } = await newMember(app);
    const page = text((await client.visit("/")).html);
    expect(page).toContain("Level 1");
    expect(page).toContain("Bronze");
    expect(page).toContain("0 XP");
    expect(page).toContain("500 XP to Silver");
    expect(page).toContain("Silver unlocks a 25-coin level-up bonus ($0.25) and +10% on every check-in.");
    expect(page).not.toContain("claim-level");
  });

  it("counts cleared offer coins as XP and pays the level-up bonus once, as bonus money, when claimed", async () => {
    const { client, uid } = await newMember(app);
    await clearedOffer(uid, 600);
    const before = text((await client.visit("/")).html);
    expect(before).toContain("Level 2");
    expect(before).toContain("600 XP");
    expect(before).toContain("Claim 25 coins ($0.25)");
    const after = await landing(client, await client.post("/?index", { intent: "claim-level" }));
    expect(text(after.html)).toContain("Level bonus claimed");
    expect(text(after.html)).toContain("You got 25 coins ($0.25) for reaching Silver — available to withdraw.");
    expect(text(after.html)).not.toContain("Claim 25 coins");
    expect(await bonusRows(uid)).toEqual([{ coins: 25, description: "Level bonus: Silver" }]);
    const again = await client.post("/?index", { intent: "claim-level" });
    expect(again.status).toBe(400);
    expect(text(await again.text())).toContain(
      "There is no level bonus to claim yet. Reach the next level to unlock its bonus.",
    );
    expect(await bonusRows(uid)).toHaveLength(1);
  });

  it("locks a level bonus of an account whose offer earnings have not cleared: it is paid, not withdrawable", async () => {
    const { client, uid } = await newMember(app);
    await app.sql("select record_email_verified($1)", [uid]);
    await clearedOffer(uid, 600);
    // The network takes the cleared offer back: the account keeps its level bonus, locked.
    await landing(client, await client.post("/?index", { intent: "claim-level" }));
    expect(await postback({ user_id: uid, transaction_id: `${uid}-600`, amount: "600", status: "reversed" })).toBe(
      "OK",
    );
    const withdraw = await cashOut(client, "0.25");
    expect(withdraw.status).toBe(400);
    expect(text(await withdraw.text())).toContain("Amount exceeds your available balance");
    expect(await bonusRows(uid)).toEqual([{ coins: 25, description: "Level bonus: Silver" }]);
  });

  it("pays a Silver account's check-in 10 % more, and says so in the toast", async () => {
    const { client, uid } = await newMember(app);
    await clearedOffer(uid, 600);
    const after = await landing(client, await client.post("/?index", { intent: "checkin" }));
    expect(text(after.html)).toContain("You earned 10 coins and 1 more for your Silver level ($0.11)");
    expect(await bonusRows(uid)).toEqual([{ coins: 1, description: "Level perk: check-in +10% (Silver)" }]);
  });

  it("lists every level and its perks on the Levels page, marks where the person is, and claims from it", async () => {
    const { client, uid } = await newMember(app);
    await clearedOffer(uid, 2100);
    const raw = (await client.visit("/levels")).html;
    const page = text(raw);
    for (const line of [
      "Level 1 · Bronze",
      "Where everyone starts",
      "Level 2 · Silver",
      "From 500 XP",
      "A 25-coin level-up bonus ($0.25)",
      "+10% on every check-in",
      "Level 4 · Platinum",
      "1% of every paid cash-out back",
      "Level 5 · Diamond",
      "You are here",
      "Claim 100 coins ($1.00)",
      "XP is the coins you earn from offers once they clear their hold",
    ])
      expect(page).toContain(line);
    expect(text(/aria-current="step"[^>]*>(.*?)<\/li>/.exec(raw)![1]!)).toContain("Level 3 · Gold");
    const claimed = await client.post("/levels", { intent: "claim-level" });
    expect(claimed.headers.get("location")).toBe("/levels");
    expect(text((await landing(client, claimed)).html)).toContain("for reaching Silver and Gold");
    expect((await bonusRows(uid)).map((row) => row.coins)).toEqual([25, 75]);
  });

  it("stops the levels loop while it is switched off, and says so on Home", async () => {
    const { client, uid } = await newMember(app);
    await clearedOffer(uid, 600);
    await app.sql("update app_config set levels_on = false");
    try {
      expect(text((await client.visit("/")).html)).toContain(LEVELS_OFF);
      expect((await client.post("/?index", { intent: "claim-level" })).status).toBe(400);
      expect(await bonusRows(uid)).toEqual([]);
    } finally {
      await app.sql("update app_config set levels_on = true");
    }
  });

  it("shows today's three goals with their progress and bonus, and pays a done goal once when claimed", async () => {
    const { client, uid } = await newMember(app);
    const home = text((await client.visit("/")).html);
    expect(home).toContain("Today's goals");
    expect(home).toMatch(/New goals at [0-9:]+ UTC, in [0-9]+ (h|min)\./);
    for (const line of ["Check in today", "Not yet +5 coins ($0.05)", "Earn 100 coins from offers", "0 of 100 coins"])
      expect(home).toContain(line);
    expect(home).toContain("Complete an offer");

    const early = await claimGoal(client, "check-in");
    expect(early.status).toBe(400);
    expect(text(await early.text())).toContain("This goal is not done yet. Its progress is on Home.");
    await landing(client, await client.post("/?index", { intent: "checkin" }));
    expect(text((await client.visit("/")).html)).toContain("Checked in +5 coins ($0.05)");
    const claimed = await landing(client, await claimGoal(client, "check-in"));
    expect(text(claimed.html)).toContain("Goal bonus claimed");
    expect(text(claimed.html)).toContain(
      "You got 5 coins ($0.05) for today's goal — locked until your offer earnings clear.",
    );
    expect(text(claimed.html)).toContain("Claimed");
    const twice = await claimGoal(client, "check-in");
    expect(text(await twice.text())).toContain("You already claimed this goal today.");
    expect(await bonusRows(uid)).toEqual([{ coins: 5, description: "Daily goal: check in" }]);
  });

  it("refuses a goal that is not today's, and a goal id that is no id, with words and nothing paid", async () => {
    const { client, uid } = await newMember(app);
    await landing(client, await client.post("/?index", { intent: "checkin" }));
    const other = await claimGoal(client, "refer-friend");
    expect(other.status).toBe(400);
    expect(text(await other.text())).toContain("That goal is not one of today's. Today's goals are on Home.");
    const broken = await claimGoal(client, "<script>");
    expect(broken.status).toBe(400);
    expect(text(await broken.text())).toContain("That goal is not one of today's.");
    expect(await bonusRows(uid)).toEqual([]);
  });

  it("counts offer coins that cleared today and offers credited today toward the day's goals", async () => {
    const { client, uid } = await newMember(app);
    await clearedOffer(uid, 150);
    const home = text((await client.visit("/")).html);
    expect(home).toContain("100 of 100 coins");
    expect(home).toContain("1 of 1 offer");
    await landing(client, await claimGoal(client, "earn-100"));
    await landing(client, await claimGoal(client, "one-offer"));
    await landing(client, await client.post("/?index", { intent: "checkin" }));
    const full = await landing(client, await claimGoal(client, "check-in"));
    expect(text(full.html)).toContain("1 day in a row with every goal done");
  });

  it("pays one claim of a goal when ten race on the Postgres server", async () => {
    const { client, uid } = await newMember(app);
    await landing(client, await client.post("/?index", { intent: "checkin" }));
    const answers = await Promise.all(Array.from({ length: 10 }, () => claimGoal(client, "check-in")));
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(1);
    expect(await bonusRows(uid)).toHaveLength(1);
  });

  it("stops the goals loop at its monthly cap under a race of claims, and says so on Home", async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => newMember(app)));
    for (const { client } of people) await landing(client, await client.post("/?index", { intent: "checkin" }));
    // Room for three more 5-coin bonuses this month.
    await app.sql(
      `update app_config set goals_monthly_cap =
         (select coalesce(max(paid), 0) from loop_months where loop = 'goals' and month = current_month()) + 0.15`,
    );
    try {
      const answers = await Promise.all(people.map(({ client }) => claimGoal(client, "check-in")));
      expect(answers.filter((answer) => answer.status === 302)).toHaveLength(3);
      const [month] = await app.sql<{ paid: string; cap: string }>(
        `select m.paid, c.goals_monthly_cap as cap from loop_months m, app_config c
          where m.loop = 'goals' and m.month = current_month()`,
      );
      expect(Number(month!.paid)).toBe(Number(month!.cap));
      const refused = people[answers.findIndex((answer) => answer.status === 400)]!;
      expect(text((await refused.client.visit("/")).html)).toContain(GOALS_CAPPED);
    } finally {
      await app.sql("update app_config set goals_monthly_cap = default");
    }
  });

  it("gives a farm of ten verified alias accounts nothing withdrawable from check-ins, goals and levels", async () => {
    const farm = await Promise.all(Array.from({ length: 10 }, () => newMember(app)));
    for (const { client, uid } of farm) {
      await app.sql("select record_email_verified($1)", [uid]);
      await landing(client, await client.post("/?index", { intent: "checkin" }));
      expect((await claimGoal(client, "check-in")).status).toBe(302);
      expect((await client.post("/?index", { intent: "claim-level" })).status).toBe(400);
      const refused = await cashOut(client, "0.15");
      expect(refused.status).toBe(400);
      expect(text(await refused.text())).toContain("Amount exceeds your available balance");
    }
    const [withdrawn] = await app.sql<{ count: string }>("select count(*) from withdrawals where user_id = any($1)", [
      farm.map((member) => member.uid),
    ]);
    expect(Number(withdrawn!.count)).toBe(0);
  });
});
