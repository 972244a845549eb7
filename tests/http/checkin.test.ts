import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedInDaysAgo, lastDays } from "../support/checkins";
import { newMember } from "../support/console";
import { landing } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// The check-in card's streak and its day 7 bonus over plain form posts (docs/decisions/072), on an
// app server with its own Postgres database so the tests can write the check-ins of past days.
describe("check-in streak over plain HTTP", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp();
  }, 120_000);
  afterAll(() => app?.stop());

  /** A signed-in account that checked in on the days `daysAgo` before today. */
  async function account(daysAgo: number[]) {
    const { client, uid } = await newMember(app);
    await checkedInDaysAgo(app, uid, daysAgo);
    return { client, id: uid };
  }

  it("shows a new account Day 1 of 7 and the 50-coin bonus ($0.50) that seven days in a row pay, with D7 saying so in words", async () => {
    const { client } = await account([]);
    const { html } = await client.visit("/");
    expect(html).toContain("Day 1 of 7 · check in today and 6 more days in a row for a 50-coin bonus ($0.50).");
    expect(html).toContain("Day 1, today");
    expect(html).toContain("Day 7, ahead, pays a 50-coin bonus");
    expect(html).toContain("Check In Now (+10 coins)");
  });

  it("shows Day 3 of 7 after two days in a row, and after today's check-in the days left for the bonus", async () => {
    const { client } = await account([1, 2]);
    const before = (await client.visit("/")).html;
    expect(before).toContain("Day 3 of 7 · check in today and 4 more days in a row for a 50-coin bonus ($0.50).");
    expect(before).toContain("Day 2, checked in");
    const after = await landing(client, await client.post("/?index", { intent: "checkin" }));
    expect(after.html).toContain("You earned 10 coins ($0.10) — available to withdraw.");
    expect(after.html).toContain("Day 3 of 7 · check in 4 more days in a row for a 50-coin bonus ($0.50).");
    expect(after.html).toContain("Day 3, checked in");
    expect(after.html).toMatch(/<button[^>]*disabled=""[^>]*>Checked In Today<\/button>/);
  });

  it("starts again at Day 1 when yesterday was missed", async () => {
    const { client } = await account([2, 3, 4, 5]);
    expect((await client.visit("/")).html).toContain("Day 1 of 7 · check in today and 6 more days in a row");
  });

  it("credits the 50-coin bonus with the check-in on day 7, says it was paid, and a second post pays nothing", async () => {
    const { client, id } = await account(lastDays(6));
    expect((await client.visit("/")).html).toContain("Day 7 of 7 · check in today for a 50-coin bonus ($0.50).");
    const after = await landing(client, await client.post("/?index", { intent: "checkin" }));
    expect(after.html).toContain("You earned 10 coins and your 50-coin day 7 bonus ($0.60) — available to withdraw.");
    expect(after.html).toContain(
      "Day 7 of 7 · your 50-coin bonus ($0.50) was paid today. Tomorrow starts a new week at Day 1.",
    );
    const ledger = () =>
      app.sql<{ transaction_type: string; kind: string; coins: number }>(
        "select transaction_type, kind, coins from transaction_history where user_id = $1 order by id",
        [id],
      );
    expect(await ledger()).toEqual([
      { transaction_type: "checkin", kind: "bonus", coins: 10 },
      { transaction_type: "bonus", kind: "bonus", coins: 50 },
    ]);
    expect((await client.post("/?index", { intent: "checkin" })).status).toBe(400);
    expect(await ledger()).toHaveLength(2);
    const [balance] = await app.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [id]);
    expect(Number(balance!.balance)).toBe(0.6);
  });
});
