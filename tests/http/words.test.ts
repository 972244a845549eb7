import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// Words that fit the person (docs/decisions/070): the greeting and the leaderboard, over plain
// HTTP, on an app with its own Postgres so the tests can arrange an account's age and earnings.
describe("words that fit the person over plain HTTP", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp();
  }, 120_000);
  afterAll(() => app?.stop());

  async function account() {
    const { client, email, response } = await app.signUp();
    expect(response.status).toBe(302);
    const [row] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    return { client, id: row!.id };
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
});
