import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../support/app-server";
import { newMember, newOperator } from "../support/console";
import { HttpClient, landing } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { eventually } from "../support/wait";

// The bonus loops under races across two production servers on one Postgres database, as behind a
// load balancer (issue 39; docs/decisions/094, 095, 097): a goal claimed at once on both is paid once,
// a code's last use once, a loop's cap holds for the two together, and a month's prizes are settled
// once while both servers' interval jobs (every second here) try to settle it.
describe("bonus loops raced across two app servers (A and B) on one Postgres database", () => {
  let a: PostgresApp;
  let b: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    a = await startPostgresApp({ PRIZE_CLOSE_INTERVAL_SECONDS: "1" }, { settings: "production" });
    b = await startTestApp({ DATABASE_URL: a.scratchUrl, PRIZE_CLOSE_INTERVAL_SECONDS: "1" });
    await a.sql("update app_config set daily_goals = $1", [
      JSON.stringify([{ id: "check-in", kind: "checkin", target: 1, bonus_coins: 5 }]),
    ]);
  }, 180_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  /** The same browser session, on server B. */
  function onB(client: HttpClient) {
    const other = new HttpClient(b.url);
    for (const [name, value] of client.cookies) other.cookies.set(name, value);
    return other;
  }
  const bonusRows = (id: string) =>
    a.sql("select 1 from transaction_history where user_id = $1 and transaction_type = 'bonus'", [id]);

  it("pays a goal once when ten claims reach A and B together", async () => {
    const { client, uid } = await newMember(a);
    await landing(client, await client.post("/?index", { intent: "checkin" }));
    const other = onB(client);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, k) =>
        (k % 2 ? other : client).post("/?index", { intent: "claim-goal", goalId: "check-in" }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(1);
    expect(await bonusRows(uid)).toHaveLength(1);
  });

  it("pays a code's last use once when ten people redeem it on A and B together", async () => {
    const finance = await newOperator(a, "finance");
    const code = `TWO${Date.now().toString(36).toUpperCase()}`;
    const today = new Date().toISOString().slice(0, 10);
    const made = await finance.client.post("/admin/codes", {
      intent: "create-code",
      code,
      coins: "30",
      uses: "1",
      starts: today,
      ends: today,
      countries: "",
      reason: "Two servers",
    });
    expect(made.status).toBe(302);
    const people = await Promise.all(Array.from({ length: 10 }, () => newMember(a)));
    const answers = await Promise.all(
      people.map(({ client }, k) => (k % 2 ? onB(client) : client).post("/earn", { intent: "redeem-code", code })),
    );
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(1);
    const [row] = await a.sql<{ uses: number }>("select uses from promo_codes where code = $1", [code]);
    expect(row!.uses).toBe(1);
  });

  it("keeps the goals' monthly cap for A and B together: only what fits is paid", async () => {
    const people = await Promise.all(Array.from({ length: 8 }, () => newMember(a)));
    for (const { client } of people) await landing(client, await client.post("/?index", { intent: "checkin" }));
    await a.sql(
      `update app_config set goals_monthly_cap =
         (select coalesce(max(paid), 0) from loop_months where loop = 'goals' and month = current_month()) + 0.20`,
    );
    try {
      const answers = await Promise.all(
        people.map(({ client }, k) =>
          (k % 2 ? onB(client) : client).post("/?index", { intent: "claim-goal", goalId: "check-in" }),
        ),
      );
      expect(answers.filter((answer) => answer.status === 302)).toHaveLength(4);
      const [month] = await a.sql<{ over: boolean }>(
        `select m.paid > c.goals_monthly_cap as over from loop_months m, app_config c
          where m.loop = 'goals' and m.month = current_month()`,
      );
      expect(month!.over).toBe(false);
    } finally {
      await a.sql("update app_config set goals_monthly_cap = default");
    }
  });

  it("settles last month's prizes once while both servers' jobs and ten direct calls race to close it", async () => {
    const winners = [await newMember(a), await newMember(a), await newMember(a)];
    // Nothing held for review here: the race is about paying once.
    const [{ threshold }] = (await a.sql<{ threshold: number }>(
      "select risk_review_threshold as threshold from app_config",
    )) as [{ threshold: number }];
    await a.sql("update app_config set risk_review_threshold = 101");
    try {
      for (const [index, winner] of winners.entries())
        await a.sql(
          `insert into monthly_earnings (user_id, month, amount, cleared)
           values ($1, (current_month() - interval '1 month')::date, $2, $2)`,
          [winner.uid, 30 - index * 10],
        );
      // Last month as if prizes had run through it (the migration marked it as before prizes).
      await a.sql("delete from prize_months where month = (current_month() - interval '1 month')::date");
      const direct = await Promise.all(
        Array.from({ length: 10 }, () =>
          a.sql<{ answer: { closed: boolean } }>("select close_prize_month() as answer"),
        ),
      );
      await eventually(
        async () =>
          (await a.sql("select 1 from prize_months where month = (current_month() - interval '1 month')::date"))
            .length === 1,
        { what: "last month's prizes settled", timeoutMs: 30_000 },
      );
      expect(direct.filter(([row]) => row!.answer.closed).length).toBeLessThanOrEqual(1);
      const awards = await a.sql<{ user_id: string; status: string }>(
        "select user_id, status from prize_awards where month = (current_month() - interval '1 month')::date order by place",
      );
      expect(awards).toEqual(winners.map((winner) => ({ user_id: winner.uid, status: "paid" })));
      for (const winner of winners) expect(await bonusRows(winner.uid)).toHaveLength(1);
    } finally {
      await a.sql("update app_config set risk_review_threshold = $1", [threshold]);
    }
  });
});
