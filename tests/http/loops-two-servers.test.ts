import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../support/app-server";
import { newMember, newOperator } from "../support/console";
import { HttpClient, landing } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// The bonus loops under races across two production servers on one Postgres database, as behind a
// load balancer (issue 39; docs/decisions/094, 095): a goal claimed at once on both is paid once, a
// code's last use once, and a loop's cap holds for the two together.
describe("bonus loops raced across two app servers (A and B) on one Postgres database", () => {
  let a: PostgresApp;
  let b: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    a = await startPostgresApp({}, { settings: "production" });
    b = await startTestApp({ DATABASE_URL: a.scratchUrl });
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
});
