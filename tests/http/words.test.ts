import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newMember } from "../support/console";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// Words that fit the person (docs/decisions/070, the leaderboard 075): the greeting and the leaderboard, over plain
// HTTP, on an app with its own Postgres so the tests can arrange an account's age and earnings.
describe("words that fit the person over plain HTTP", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp();
  }, 120_000);
  afterAll(() => app?.stop());

  // newMember fails the test unless the sign-up redirects (302).
  async function account() {
    const { client, uid } = await newMember(app);
    return { client, id: uid };
  }

  const greeting = (page: string) => page.match(/<p class="text-sm text-muted">([^<]*)<\/p>\s*<h1/)?.[1];

  it("greets a new account with Welcome on its first day and Welcome back after it", async () => {
    const { client, id } = await account();
    const first = (await client.visit("/")).html;
    expect(greeting(first)).toBe("Welcome");
    expect(first).not.toContain("Welcome back");
    await app.sql("update user_profiles set created_at = now() - interval '25 hours' where id = $1", [id]);
    expect(greeting((await client.visit("/")).html)).toBe("Welcome back");
  });

  it("says what the leaderboard shows instead of names, when it was updated, and the person's own rank below the top 50", async () => {
    // Fifty people who earned more this month than a check-in pays.
    await app.sql(`
      insert into user_profiles (id, display_name, referral_code)
        select 'words-top-' || i, 'Top ' || i,
               'ZZZZ' || substr('ABCDEFGHJK', i / 10 + 1, 1) || substr('ABCDEFGHJK', i % 10 + 1, 1) || 'Z'
          from generate_series(0, 49) as i;
      insert into monthly_earnings (user_id, month, amount)
        select 'words-top-' || i, current_month(), 100 + i from generate_series(0, 49) as i;`);
    const { client, id } = await account();

    const before = (await client.visit("/leaderboard")).html;
    expect(before).not.toContain("Earn more to see your name here");
    expect(before).toContain(
      "Names stay private: everyone shows as &quot;User&quot; and four characters of their account",
    );
    expect(before).toMatch(/data-testid="leaderboard-updated">Updated just now</);
    expect(before).toContain("You&#x27;re not on the leaderboard yet this month");
    expect(before).not.toContain('aria-current="true"');

    expect((await client.post("/?index", { intent: "checkin" })).status).toBe(302);
    const after = (await client.visit("/leaderboard")).html;
    const own = after.match(/<tr[^>]*aria-current="true"[^>]*>(.*?)<\/tr>/s)?.[1] ?? "";
    expect(own).toMatch(/>51</);
    expect(own).toContain(`User${id.slice(0, 4)}`);
    expect(own).toContain(">You<");
    expect(own).toContain("$0.10");
    expect(after).not.toContain("not on the leaderboard yet");
  });

  it("shows a person below the top 1,000 their own row as 1,000+ and says places below it are not numbered", async () => {
    // A thousand more people ahead of anyone who checked in once (the fifty above stay too).
    await app.sql(`
      insert into user_profiles (id, display_name, referral_code)
        select 'words-many-' || i, 'Many ' || i,
               'YYY' || substr('ABCDEFGHJK', i / 100 + 1, 1) || substr('ABCDEFGHJK', i / 10 % 10 + 1, 1)
                     || substr('ABCDEFGHJK', i % 10 + 1, 1) || 'Y'
          from generate_series(0, 999) as i;
      insert into monthly_earnings (user_id, month, amount)
        select 'words-many-' || i, current_month(), 1 + i / 100.0 from generate_series(0, 999) as i;`);
    const { client, id } = await account();
    expect((await client.post("/?index", { intent: "checkin" })).status).toBe(302);

    const page = (await client.visit("/leaderboard")).html;
    const own = page.match(/<tr[^>]*aria-current="true"[^>]*>(.*?)<\/tr>/s)?.[1] ?? "";
    expect(own).toMatch(/>1,000\+</);
    expect(own).toContain(`User${id.slice(0, 4)}`);
    expect(own).toContain("$0.10");
    expect(page).toMatch(
      /data-testid="outside-counted">You&#x27;re outside the top 1,000 this month; places below it are not numbered.</,
    );
    expect(page).not.toContain("not on the leaderboard yet");
  });
});
