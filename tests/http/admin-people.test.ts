import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newMember, newOperator } from "../support/console";
import { HttpClient, html, uniqueEmail } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// People in the operator console (docs/operator-console.md, "People"): the search and a person's
// page, as a support operator reads them on the production build with its own Postgres.
describe("the console's people search and person page", () => {
  let app: PostgresApp;
  let support: HttpClient;

  beforeAll(async () => {
    app = await startPostgresApp();
    support = (await newOperator(app, "support")).client;
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  /** The accounts a search lists, by the ids of their page links. */
  async function found(term: string): Promise<string[]> {
    const response = await support.get(`/admin/people?q=${encodeURIComponent(term)}`);
    expect(response.status).toBe(200);
    const page = await response.text();
    return [...page.matchAll(/href="\/admin\/people\/([^"]+)"/g)].map((match) => decodeURIComponent(match[1]!));
  }

  it("finds an account by its id, its email in any case, its referral code in lower case and its wall id", async () => {
    const { uid, email } = await newMember(app);
    const [row] = await app.sql<{ referral_code: string; wall_id: string }>(
      "select referral_code, wall_id from user_profiles where id = $1",
      [uid],
    );
    expect(await found(uid)).toEqual([uid]);
    expect(await found(`  ${email.toUpperCase()}  `)).toEqual([uid]);
    expect(await found(row!.referral_code.toLowerCase())).toEqual([uid]);
    expect(await found(row!.wall_id)).toEqual([uid]);
  });

  it("finds accounts by the start of an email, a name, a referral code or a wall id, exact matches first; %, _ and \\ are taken literally, and one character is no search", async () => {
    const tag = Date.now().toString(36);
    const priya = await newMember(app, { email: `priya.${tag}@example.com` });
    const other = await newMember(app, { email: `priyanka.${tag}@example.com` });
    await app.sql("update user_profiles set display_name = $2 where id = $1", [priya.uid, `Zq${tag} Sharma`]);
    const [row] = await app.sql<{ referral_code: string; wall_id: string }>(
      "select referral_code, wall_id from user_profiles where id = $1",
      [priya.uid],
    );
    expect((await found(`PRIYA.${tag}`)).sort()).toEqual([priya.uid]);
    expect((await found(`priya`)).filter((id) => [priya.uid, other.uid].includes(id)).sort()).toEqual(
      [priya.uid, other.uid].sort(),
    );
    expect(await found(`zq${tag} sh`)).toEqual([priya.uid]);
    expect(await found(row!.referral_code.slice(0, 6).toLowerCase())).toContain(priya.uid);
    expect(await found(row!.wall_id.slice(0, 10))).toContain(priya.uid);
    // Exact before prefix: the whole email first, then what merely starts with it.
    expect((await found(`priya.${tag}@example.com`))[0]).toBe(priya.uid);
    const page = await (await support.get(`/admin/people?q=${encodeURIComponent(`zq${tag}`)}`)).text();
    expect(page).toContain("start of name");
    for (const wild of ["%%", "__", "\\%", "p"]) expect(await found(wild), wild).toEqual([]);
  });

  it("finds an account by an alias of its inbox (canonical email) and says which key matched", async () => {
    const local = `farmer${Date.now().toString(36)}`;
    const { uid } = await newMember(app, { email: `${local}@gmail.com` });
    const alias = `${local.slice(0, 3)}.${local.slice(3)}+promo@gmail.com`;
    expect(await found(alias)).toEqual([uid]);
    const page = await (await support.get(`/admin/people?q=${encodeURIComponent(alias)}`)).text();
    expect(page).toContain("canonical email");
  });

  it("finds every account that cashed out to a payout address, typed in another case", async () => {
    const first = await newMember(app);
    const second = await newMember(app);
    const upi = `shared.${Date.now().toString(36)}@okaxis`;
    for (const { uid, client } of [first, second]) {
      await app.sql("select record_email_verified($1)", [uid]);
      await app.sql("select add_user_coins($1, 500)", [uid]);
      const response = await client.post("/withdraw", { intent: "withdraw", amount: "2", method: "upi", upiId: upi });
      expect(response.status).toBe(302);
    }
    expect((await found(upi.toUpperCase())).sort()).toEqual([first.uid, second.uid].sort());
  });

  it("says plainly when nothing matches, and refuses a term over 320 characters with a message", async () => {
    const none = await (await support.get("/admin/people?q=nobody-at-all%40example.com")).text();
    expect(none).toContain(html("No account matches “nobody-at-all@example.com”."));
    const long = await support.get(`/admin/people?q=${"a".repeat(321)}`);
    expect(long.status).toBe(200);
    expect(await long.text()).toContain("Search for at most 320 characters.");
    // An empty search lists nothing and says nothing.
    const empty = await (await support.get("/admin/people?q=%20")).text();
    expect(empty).not.toContain("No account matches");
  });

  it("a person's page shows the balances, the ledger filtered by kind and paged by URL, and the withdrawals", async () => {
    const { uid, client } = await newMember(app);
    await app.sql("select record_email_verified($1)", [uid]);
    for (let day = 0; day < 55; day++) await app.sql("select add_user_coins($1, 10)", [uid]);
    await client.post("/withdraw", { intent: "withdraw", amount: "1.50", method: "upi", upiId: `page.${uid}@okaxis` });

    const response = await support.get(`/admin/people/${uid}`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toMatch(/Balance<\/dt><dd[^>]*><span[^>]*>\$4\.00</);
    expect(page).toMatch(/Total earned<\/dt><dd[^>]*>\$5\.50</);
    expect(page.match(/data-testid="ledger-row"/g)).toHaveLength(50);
    expect(page.match(/data-testid="person-withdrawal"/g)).toHaveLength(1);
    expect(page).toContain("-$1.50");

    const older = new RegExp(`href="/admin/people/${uid}\\?before=(\\d+)"`).exec(page);
    expect(older).not.toBeNull();
    const second = await (await support.get(`/admin/people/${uid}?before=${older![1]}`)).text();
    expect(second.match(/data-testid="ledger-row"/g)).toHaveLength(6);
    expect(second).toContain("Newest rows");

    const withdrawals = await (await support.get(`/admin/people/${uid}?type=withdrawal`)).text();
    expect(withdrawals.match(/data-testid="ledger-row"/g)).toHaveLength(1);
    // A filter that is no kind of movement shows every kind rather than an error.
    const unknown = await support.get(`/admin/people/${uid}?type=%27%3Bdrop&before=abc`);
    expect(unknown.status).toBe(200);
    expect((await unknown.text()).match(/data-testid="ledger-row"/g)).toHaveLength(50);
  });

  it("a person's page links the accounts made on the same browser, and lists their feedback", async () => {
    const first = await newMember(app);
    const sameBrowser = new HttpClient(app.url);
    sameBrowser.cookies.set("hasSeenOnboarding", "true");
    sameBrowser.cookies.set("__device", first.client.cookies.get("__device")!);
    const email = uniqueEmail("second");
    expect(
      (await sameBrowser.post("/auth?tab=signup", { intent: "signup", email, password: "s3cret-pass" })).status,
    ).toBe(302);
    const [second] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    await first.client.post("/profile?tab=help", {
      intent: "feedback",
      name: "Ana",
      email: first.email,
      message: "Where is my survey credit?",
    });

    const page = await (await support.get(`/admin/people/${first.uid}`)).text();
    expect(page).toMatch(
      new RegExp(`data-testid="linked-account"[^]*?href="/admin/people/${second!.id}"[^]*?same device`),
    );
    expect(page).toContain("Where is my survey credit?");
    expect(page).toContain("Signed in from 1 browser");
  });

  it("an id no account has answers 404 with the console's words, not an error", async () => {
    for (const id of ["no-such-account-id", "bad%20id%3Cscript%3E", "x".repeat(200)]) {
      const response = await support.get(`/admin/people/${id}`);
      expect(response.status, id).toBe(404);
      const page = await response.text();
      expect(page).toContain("No such account");
      expect(page).toContain("Operator console");
    }
  });

  it("a plain member gets the normal 404 page for the search and for a person's page", async () => {
    const { client, uid } = await newMember(app);
    for (const path of [`/admin/people?q=${uid}`, `/admin/people/${uid}`, `/admin/people/${uid}.data`]) {
      const response = await client.get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toMatch(/Ledger|Accounts found|canonical email/);
    }
  });
});
