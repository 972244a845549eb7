import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monthName, PRIZE_FORM_MESSAGES, PRIZES_PAUSED, PRIZES_RULE } from "~/domain/prizes";
import { ruleMessage } from "~/domain/rules";
import { visibleText } from "../support/bad-input";
import { newMember, newOperator } from "../support/console";
import { landing } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// Monthly prizes over plain form posts (issue 39, point 3; docs/decisions/097), on the production
// settings and an app with its own Postgres: the Leaderboard shows the table, the person's place by
// offer money cleared this month and what the next prize takes, and past winners; the console lists
// settled months and pays or refuses a held prize, audited, never the operator's own. The close
// itself, once across two servers, is in tests/http/loops-two-servers.test.ts; its rules on
// PGlite in tests/integration/monthly-prizes.test.ts.
describe("monthly prizes over HTTP (production settings, no JavaScript)", () => {
  let app: PostgresApp;
  let finance: Awaited<ReturnType<typeof newOperator>>;
  let monthCounter = 0;
  const nextMonth = () => `2020-${String(++monthCounter).padStart(2, "0")}-01`;

  beforeAll(async () => {
    app = await startPostgresApp({}, { settings: "production" });
    finance = await newOperator(app, "finance");
    // Offers through "instant" are never held, so they count at once.
    await app.sql(`update app_config set provider_hold_days = '{"instant": 0}'`);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  const text = (page: string) => visibleText(page);
  const leaderboard = async (client: Awaited<ReturnType<typeof newMember>>["client"]) =>
    text(await (await client.get("/leaderboard")).text());
  const offer = (uid: string, coins: number) =>
    app.sql(
      `select record_postback(p_provider => 'instant', p_transaction_id => $1, p_user_id => $2, p_coins => $3,
                              p_reversal => false, p_description => 'Offer completed')`,
      [`${uid}-${coins}-${Math.random()}`, uid, coins],
    );
  /** A settled past month: each account's cleared offer money, then the close. */
  async function settled(month: string, cleared: [string, number][]) {
    for (const [uid, dollars] of cleared)
      await app.sql("insert into monthly_earnings (user_id, month, amount, cleared) values ($1, $2, $3, $3)", [
        uid,
        month,
        dollars,
      ]);
    await app.sql("select close_prize_month($1)", [month]);
  }
  const bonusRows = (uid: string) =>
    app.sql<{ coins: number; description: string }>(
      "select coins, description from transaction_history where user_id = $1 and transaction_type = 'bonus'",
      [uid],
    );

  it("shows the prize table and, to a person with no cleared offer money, what reaches the last prize", async () => {
    const { client } = await newMember(app);
    const page = await leaderboard(client);
    expect(page).toContain("Monthly prizes");
    expect(page).toContain("1st 2,500 coins ($25.00)");
    expect(page).toContain("10th 200 coins ($2.00)");
    expect(page).toContain(PRIZES_RULE);
    expect(page).toContain(
      "None of your offer earnings have cleared this month yet. Any offer earnings that clear reach 10th place and 200 coins ($2.00).",
    );
  });

  it("counts offer money that cleared, not check-ins or bonuses, and says what the place above takes", async () => {
    const leader = await newMember(app);
    await offer(leader.uid, 5000);
    const second = await newMember(app);
    await offer(second.uid, 1200);
    await landing(second.client, await second.client.post("/?index", { intent: "checkin" }));
    await app.sql("select add_user_coins($1, 100000)", [second.uid]);
    expect(await leaderboard(leader.client)).toContain(
      "You're in 1st place with $50.00 cleared this month, in line for 2,500 coins ($25.00).",
    );
    expect(await leaderboard(second.client)).toContain(
      "You're in 2nd place with $12.00 cleared this month, in line for 1,500 coins ($15.00). " +
        "$38.01 more cleared reaches 1st place and 2,500 coins ($25.00).",
    );
  });

  it("says prizes are paused when the loop is off", async () => {
    const { client } = await newMember(app);
    await app.sql("update app_config set prizes_on = false");
    try {
      const page = await leaderboard(client);
      expect(page).toContain(PRIZES_PAUSED);
      expect(page).not.toContain("1st 2,500 coins");
    } finally {
      await app.sql("update app_config set prizes_on = true");
    }
  });

  it("lists a settled month's winners on the Leaderboard, a held one as in review and a refused one not at all", async () => {
    const month = nextMonth();
    const [paid, held, refused] = [await newMember(app), await newMember(app), await newMember(app)];
    await app.sql("select record_email_verified($1)", [paid.uid]);
    await settled(month, [
      [paid.uid, 40],
      [held.uid, 30],
      [refused.uid, 20],
    ]);
    const [{ status }] = (await app.sql<{ status: string }>(
      "select status from prize_awards where month = $1 and place = 3",
      [month],
    )) as [{ status: string }];
    expect(status).toBe("held");
    const decided = await finance.client.post("/admin/prizes", {
      intent: "refuse-prize",
      month,
      place: "3",
      reason: "Offers reversed by the network",
    });
    expect(decided.status).toBe(302);
    const page = await leaderboard(paid.client);
    expect(page).toContain("Past winners");
    expect(page).toContain(`January 2020 1st User${paid.uid.slice(0, 4)} 2,500 coins 2nd`);
    expect(page).toContain(`2nd User${held.uid.slice(0, 4)} In review`);
    expect(page).not.toContain(`User${refused.uid.slice(0, 4)}`);
  });

  it("pays a prize as locked bonus money: the winner's Withdraw shows it locked, nothing more to withdraw", async () => {
    const month = nextMonth();
    const winner = await newMember(app);
    await app.sql("select record_email_verified($1)", [winner.uid]);
    await settled(month, [[winner.uid, 70]]);
    expect(await bonusRows(winner.uid)).toHaveLength(1);
    const page = text(await (await winner.client.get("/withdraw")).text());
    expect(page).toContain("$25.00 bonus locked");
    expect(page).toContain("$0.00");
  });

  it("stops at the month's cap for prizes: a place that does not fit is not paid, and the console says why", async () => {
    const month = nextMonth();
    const [first, second] = [await newMember(app), await newMember(app)];
    for (const member of [first, second]) await app.sql("select record_email_verified($1)", [member.uid]);
    const [spent] = await app.sql<{ paid: string }>(
      "select coalesce((select paid from loop_months where loop = 'prizes' and month = current_month()), 0) as paid",
    );
    // Room for the first prize ($25.00) and not the second ($15.00).
    await app.sql("update app_config set prizes_monthly_cap = $1", [Number(spent!.paid) + 30]);
    try {
      await settled(month, [
        [first.uid, 50],
        [second.uid, 40],
      ]);
    } finally {
      await app.sql("update app_config set prizes_monthly_cap = default");
    }
    expect(await bonusRows(first.uid)).toHaveLength(1);
    expect(await bonusRows(second.uid)).toEqual([]);
    const console = text(await (await finance.client.get("/admin/prizes")).text());
    expect(console).toContain("Not paid: the month's cap for prizes was reached");
  });

  it("lets finance pay a held prize with a reason, audited, and refuses a second decision", async () => {
    const month = nextMonth();
    const winner = await newMember(app);
    await settled(month, [[winner.uid, 25]]);
    const console = text(await (await finance.client.get("/admin/prizes")).text());
    expect(console).toContain("Waiting for a decision");
    expect(console).toContain(`User${winner.uid.slice(0, 4)}`);
    expect(console).toContain("$25.00 cleared");
    expect(console).toContain("email address not verified");
    const noReason = await finance.client.post("/admin/prizes", { intent: "pay-prize", month, place: "1", reason: "" });
    expect(noReason.status).toBe(400);
    expect(text(await noReason.text())).toContain(PRIZE_FORM_MESSAGES.reason);
    expect(await bonusRows(winner.uid)).toEqual([]);
    const pay = await finance.client.post("/admin/prizes", {
      intent: "pay-prize",
      month,
      place: "1",
      reason: "Offers checked with the network",
    });
    expect(pay.status).toBe(302);
    expect(await bonusRows(winner.uid)).toEqual([
      { coins: 2500, description: `Leaderboard prize: 1st place in ${monthName(month)}` },
    ]);
    const audit = await app.sql<{ action: string; actor_user_id: string; reason: string }>(
      "select action, actor_user_id, reason from operator_actions where record_kind = 'prize_award' and record_id = $1",
      [`${month.slice(0, 7)}#1`],
    );
    expect(audit).toEqual([
      { action: "pay_prize", actor_user_id: finance.uid, reason: "Offers checked with the network" },
    ]);
    // The dashboard's "Bonus loops" counts the prize with the month's spend against the cap.
    const dashboard = await (await finance.client.get("/admin")).text();
    const monthLine = /data-testid="loop-month-prizes"[^>]*>([\s\S]*?)<\/span>/
      .exec(dashboard)![1]!
      .replace(/<[^>]*>/g, "");
    const [spent] = await app.sql<{ paid: string }>(
      "select to_char(paid, 'FM999990.00') as paid from loop_months where loop = 'prizes' and month = current_month()",
    );
    expect(monthLine.replaceAll("\u0000", "")).toBe(`$${spent!.paid} of $100.00 this month`);
    expect(Number(spent!.paid)).toBeGreaterThanOrEqual(25);
    const again = await finance.client.post("/admin/prizes", {
      intent: "refuse-prize",
      month,
      place: "1",
      reason: "Changed my mind",
    });
    expect(again.status).toBe(400);
    expect(text(await again.text())).toContain(ruleMessage("prize_award_decided"));
    expect(await bonusRows(winner.uid)).toHaveLength(1);
  });

  it("refuses support's decision, and an operator's decision on their own prize", async () => {
    const month = nextMonth();
    const support = await newOperator(app, "support");
    const lone = await newOperator(app, "finance");
    await settled(month, [[lone.uid, 60]]);
    const bySupport = await support.client.post("/admin/prizes", {
      intent: "pay-prize",
      month,
      place: "1",
      reason: "Looks fine",
    });
    expect(bySupport.status).toBe(403);
    expect(text(await bySupport.text())).toContain(ruleMessage("operator_role_required"));
    const ownPage = text(await (await lone.client.get("/admin/prizes")).text());
    expect(ownPage).toContain("This prize is yours: another operator decides it.");
    const own = await lone.client.post("/admin/prizes", { intent: "pay-prize", month, place: "1", reason: "Mine" });
    expect(own.status).toBe(400);
    expect(text(await own.text())).toContain(ruleMessage("operator_self_action"));
    expect(await bonusRows(lone.uid)).toEqual([]);
  });
});
