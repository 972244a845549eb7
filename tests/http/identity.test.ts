import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASK_ALREADY_REWARDED } from "~/domain/identity";
import { ruleMessage } from "~/domain/rules";
import { emulatorHost, googleIdToken, signUpDirect } from "../support/emulator";
import { HttpClient, html, landing } from "../support/http";
import { startTestApp } from "../support/app-server";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { eventually } from "../support/wait";

// Issue 17, part 1 (docs/decisions/064): one person, one identity. The attacks replayed over
// plain HTTP on the production build with its own Postgres and the real Auth emulator.
const SECRET = "identity-test-account-hash-secret-0123456789";
const PASSWORD = "s3cret-pass";
const TAKEN = ruleMessage("email_identity_taken");
const OWN_TASKS = Array.from({ length: 11 }, (_, index) => `task-${String(index + 1).padStart(3, "0")}`);
// What the 11 fallback tasks pay together (app/domain/tasks.ts): $16.15.
const OWN_TASKS_COINS = 1615;

let stamp = 0;
/** A fresh inbox name for each test: `local` + a unique suffix. */
function inbox(local: string): string {
  stamp += 1;
  return `${local}${Date.now().toString(36)}${stamp}`;
}

function hmac(value: string): string {
  return createHmac("sha256", SECRET).update(value).digest("hex");
}

/** Whether the Auth emulator has an account for `email` (a probe sign-up that fails only when it exists). */
async function accountExists(email: string) {
  try {
    await signUpDirect(email, "probe-password");
  } catch (error) {
    if (String(error).includes("EMAIL_EXISTS")) return true;
    throw error;
  }
  return false;
}

async function emulatorAccountGone(idToken: string) {
  const lookup = await fetch(
    `http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/accounts:lookup?key=demo-api-key`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ idToken }),
    },
  );
  return !lookup.ok;
}

describe("one person, one identity (issue 17, part 1) over HTTP on Postgres", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp({ ACCOUNT_HASH_SECRET: SECRET });
  }, 120_000);
  afterAll(() => app?.stop());

  async function profileOf(email: string) {
    const rows = await app.sql<{ id: string; referral_code: string }>(
      "select id, referral_code from user_profiles where email = $1",
      [email],
    );
    return rows[0] ?? null;
  }

  /** The balance in dollars, and the coins the app's own tasks paid. */
  async function balance(userId: string) {
    const [row] = await app.sql<{ coins: number; dollars: string }>(
      `select (select coalesce(sum(coins), 0)::int from transaction_history
                where user_id = $1 and transaction_type = 'task') as coins,
              balance::text as dollars
         from user_balance where user_id = $1`,
      [userId],
    );
    return row!;
  }

  /** Starts every fallback task, lets five seconds pass (in the database), completes them all; the flashes shown. */
  async function completeOwnTasks(client: HttpClient, userId: string) {
    for (const taskId of OWN_TASKS) await client.post(`/earn?task=${taskId}`, { intent: "start", taskId });
    await app.sql("update task_starts set started_at = now() - interval '10 seconds' where user_id = $1", [userId]);
    const pages = [];
    for (const taskId of OWN_TASKS) {
      const done = await landing(
        client,
        await client.post(`/earn?task=${taskId}&started=1`, { intent: "complete", taskId }),
      );
      pages.push(done.html);
    }
    return pages;
  }

  it("an alias farm of one inbox (x+1@, x+2@, X@; x.y@gmail vs xy@gmail and googlemail, Google too) gets one identity: a second sign-up of a live canonical email is refused with the one-account message and leaves no account", async () => {
    const referrer = await app.signUp();
    const code = (await profileOf(referrer.email))!.referral_code;
    const farmer = inbox("farmer");
    const main = await app.signUp({ email: `${farmer}@example.com`, referralCode: code });
    expect(main.response.status).toBe(302);

    for (const alias of [
      `${farmer}+1@example.com`,
      `${farmer}+2@example.com`,
      ` ${farmer.toUpperCase()}+3@Example.com`,
    ]) {
      const { response } = await app.signUp({ email: alias, referralCode: code });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(html(TAKEN));
      expect(await profileOf(alias.trim())).toBeNull();
      expect(await accountExists(alias.trim())).toBe(false);
    }

    // Nor can an alias take the main account's own code (referring itself).
    const ownCode = (await profileOf(`${farmer}@example.com`))!.referral_code;
    const self = await app.signUp({ email: `${farmer}+self@example.com`, referralCode: ownCode });
    expect(self.response.status).toBe(400);
    expect(await self.response.text()).toContain(html(TAKEN));

    const gmail = inbox("x.y");
    expect((await app.signUp({ email: `${gmail}@gmail.com` })).response.status).toBe(302);
    for (const alias of [`${gmail.replace(".", "")}@gmail.com`, `${gmail.toUpperCase()}+farm@googlemail.com`]) {
      const { response } = await app.signUp({ email: alias });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(html(TAKEN));
      expect(await accountExists(alias)).toBe(false);
    }
    // A dot elsewhere than Gmail is another person's address.
    expect((await app.signUp({ email: `${farmer.slice(0, 3)}.${farmer.slice(3)}@example.com` })).response.status).toBe(
      302,
    );

    // A Google sign-in of an alias: the account Google's popup made is deleted again.
    const google = await googleIdToken({
      sub: `g-farm-${Date.now()}`,
      email: `${farmer}+g@example.com`,
      name: "Farm G",
    });
    const refused = await new HttpClient(app.url).post("/auth", {
      intent: "google",
      idToken: google.idToken,
      referralCode: code,
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(html(TAKEN));
    expect(await emulatorAccountGone(google.idToken)).toBe(true);
    expect(await app.sql("select 1 from user_profiles where id = $1", [google.localId])).toEqual([]);

    const referrerId = (await profileOf(referrer.email))!.id;
    expect(await app.sql("select count(*)::int as n from referrals where referrer_user_id = $1", [referrerId])).toEqual(
      [{ n: 1 }],
    );
  });

  it("delete and return gets no one-time reward twice: the fallback tasks pay 0, no welcome bonus, cannot be referred again", async () => {
    const referrer = await app.signUp();
    const { id: referrerId, referral_code: code } = (await profileOf(referrer.email))!;
    const email = `${inbox("returner")}@example.com`;
    const first = await app.signUp({ email, referralCode: code });
    expect(first.response.status).toBe(302);
    const firstId = (await profileOf(email))!.id;
    await app.sql("select record_email_verified($1)", [firstId]);
    await completeOwnTasks(first.client, firstId);
    // 1615 coins of tasks plus the $1.00 welcome bonus; the referrer has its $5.00.
    expect(await balance(firstId)).toEqual({ coins: OWN_TASKS_COINS, dollars: "17.15" });
    expect(await balance(referrerId)).toMatchObject({ dollars: "5.00" });

    expect(
      (await first.client.post("/profile", { intent: "delete-account", password: PASSWORD, giveUp: "17.15" })).status,
    ).toBe(302);
    expect(await profileOf(email)).toBeNull();

    // Back with the same address, and the same code.
    const again = await app.signUp({ email, referralCode: code });
    expect(again.response.status).toBe(302);
    const againId = (await profileOf(email))!.id;
    await app.sql("select record_email_verified($1)", [againId]);
    const pages = await completeOwnTasks(again.client, againId);
    for (const page of pages) expect(page).toContain(html(TASK_ALREADY_REWARDED));
    expect(await balance(againId)).toEqual({ coins: 0, dollars: "0.00" });
    // Shown as completed: starting one again says so.
    const restart = await landing(
      again.client,
      await again.client.post("/earn?task=task-001", { intent: "start", taskId: "task-001" }),
    );
    expect(restart.html).toContain("You have already completed this task");
    expect(await app.sql("select 1 from referrals where referred_user_id = $1", [againId])).toEqual([]);
    await app.sql("select add_user_coins($1, 100)", [againId]);
    expect(await balance(againId)).toEqual({ coins: 0, dollars: "1.00" }); // the 100 coins only: no welcome bonus

    // Deleted again, and back through an alias of the same inbox: still not referred, nothing paid twice.
    expect(
      (await again.client.post("/profile", { intent: "delete-account", password: PASSWORD, giveUp: "1.00" })).status,
    ).toBe(302);
    const alias = email.replace("@", "+back@");
    const third = await app.signUp({ email: alias, referralCode: code });
    expect(third.response.status).toBe(302);
    const thirdId = (await profileOf(alias))!.id;
    expect(await app.sql("select 1 from referrals where referred_user_id = $1", [thirdId])).toEqual([]);
    await app.sql("select record_email_verified($1)", [thirdId]);
    await completeOwnTasks(third.client, thirdId);
    expect(await balance(thirdId)).toEqual({ coins: 0, dollars: "0.00" });
    expect(await balance(referrerId)).toMatchObject({ dollars: "5.00" });
    // The first referral went with the deleted friend; none came after it.
    expect(await app.sql("select count(*)::int as n from referrals where referrer_user_id = $1", [referrerId])).toEqual(
      [{ n: 0 }],
    );
    expect(
      await app.sql(
        "select count(*)::int as n from transaction_history where user_id = $1 and transaction_type = 'referral'",
        [referrerId],
      ),
    ).toEqual([{ n: 1 }]);
  });

  it("two sign-ups of aliases of one identity at once make one account, and the refused one leaves no account behind", async () => {
    const name = inbox("twin");
    const emails = [`${name}+a@example.com`, `${name}+b@example.com`];
    const results = await Promise.all(emails.map((email) => app.signUp({ email })));
    expect(results.map((result) => result.response.status).sort()).toEqual([302, 400]);
    const loser = results.find((result) => result.response.status === 400)!;
    expect(await loser.response.text()).toContain(html(TAKEN));
    expect(await app.sql("select count(*)::int as n from user_profiles where email = any($1)", [emails])).toEqual([
      { n: 1 },
    ]);
    expect(await accountExists(loser.email)).toBe(false);
  });

  it("an account made before identities gets its identity when the server starts, and its aliases are then refused", async () => {
    const legacy = inbox("legacy");
    const userId = `legacy-${legacy}`;
    // As provision_user made profiles before identities: no identity hash. Its alias, made then too.
    await app.sql("select provision_user($1, $2, 'Legacy')", [userId, `${legacy}@example.com`]);
    await app.sql("select provision_user($1, $2, 'Legacy alias')", [`${userId}-alias`, `${legacy}+old@example.com`]);
    const restarted = await startTestApp({ DATABASE_URL: app.scratchUrl, ACCOUNT_HASH_SECRET: SECRET });
    try {
      await eventually(
        async () =>
          (await app.sql("select 1 from user_profiles where id = $1 and identity_hash is not null", [userId])).length >
          0,
        { what: "the legacy profile's identity" },
      );
      expect(
        await app.sql("select id, identity_hash from user_profiles where id like $1 order by id", [`${userId}%`]),
      ).toEqual([
        { id: userId, identity_hash: hmac(`${legacy}@example.com`) },
        { id: `${userId}-alias`, identity_hash: null }, // the older pair keeps both accounts
      ]);
      const client = new HttpClient(restarted.url);
      const response = await client.post("/auth?tab=signup", {
        intent: "signup",
        email: `${legacy}+new@example.com`,
        password: PASSWORD,
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(html(TAKEN));
    } finally {
      await restarted.stop();
    }
  });

  it("records the device id (a first-visit HttpOnly cookie) at sign-up and sign-in, and no address range without a trusted proxy", async () => {
    const client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    const first = await client.get("/auth");
    const cookie = first.headers.getSetCookie().find((value) => value.startsWith("__device="));
    expect(cookie).toMatch(/^__device=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
    const device = client.cookies.get("__device")!;
    // Already given: not set again.
    expect((await client.get("/auth")).headers.getSetCookie().some((value) => value.startsWith("__device="))).toBe(
      false,
    );

    const email = `${inbox("device")}@example.com`;
    const signUp = await client.post(
      "/auth?tab=signup",
      { intent: "signup", email, password: PASSWORD },
      { "x-forwarded-for": "198.51.100.23" },
    );
    expect(signUp.status).toBe(302);
    const id = (await profileOf(email))!.id;
    expect(await app.sql("select kind, hash from account_signals where user_id = $1", [id])).toEqual([
      { kind: "device", hash: hmac(`device:${device}`) },
    ]);
  });
});

describe("address ranges behind a trusted proxy (TRUST_PROXY=1)", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp({ ACCOUNT_HASH_SECRET: SECRET, TRUST_PROXY: "1" });
  }, 120_000);
  afterAll(() => app?.stop());

  it("sign-up and sign-in record the device and the address range hashes (/24 for IPv4, /64 for IPv6), first and last seen", async () => {
    const email = `${inbox("range")}@example.com`;
    const client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    // Posted without a first visit: the sign-up gives the browser its device id.
    const signUp = await client.post(
      "/auth?tab=signup",
      { intent: "signup", email, password: PASSWORD },
      { "x-forwarded-for": "203.0.113.9, 198.51.100.23" },
    );
    expect(signUp.status).toBe(302);
    expect(signUp.headers.getSetCookie().some((value) => /^__device=[A-Za-z0-9_-]{22};.*HttpOnly/.test(value))).toBe(
      true,
    );
    const device = client.cookies.get("__device")!;
    const [{ id }] = (await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email])) as [
      { id: string },
    ];
    const signals = () =>
      app.sql<{ kind: string; hash: string; again: boolean }>(
        "select kind, hash, last_seen_at > first_seen_at as again from account_signals where user_id = $1",
        [id],
      );
    const sorted = (rows: { kind: string; hash: string; again: boolean }[]) =>
      [...rows].sort((a, b) => (a.kind + a.hash).localeCompare(b.kind + b.hash));
    expect(sorted(await signals())).toEqual(
      sorted([
        { kind: "address", hash: hmac("address:198.51.100.0/24"), again: false },
        { kind: "device", hash: hmac(`device:${device}`), again: false },
      ]),
    );

    // Another address of the same /24 is the same range; an IPv6 address counts by its /64.
    const again = new HttpClient(app.url);
    again.cookies.set("__device", device);
    expect(
      (
        await again.post(
          "/auth",
          { intent: "signin", email, password: PASSWORD },
          { "x-forwarded-for": "198.51.100.200" },
        )
      ).status,
    ).toBe(302);
    expect(
      (
        await again.post(
          "/auth",
          { intent: "signin", email, password: PASSWORD },
          { "x-forwarded-for": "2001:db8:aa:bb:1:2:3:4" },
        )
      ).status,
    ).toBe(302);
    expect(sorted(await signals())).toEqual(
      sorted([
        { kind: "address", hash: hmac("address:198.51.100.0/24"), again: true },
        { kind: "address", hash: hmac("address:2001:db8:aa:bb::/64"), again: false },
        { kind: "device", hash: hmac(`device:${device}`), again: true },
      ]),
    );
  });
});
