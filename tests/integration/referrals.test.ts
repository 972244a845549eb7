import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ruleViolation } from "~/server/db/core.server";
import { dbRefusal, openTestPglite, openTestPostgres, type TestDatabase } from "../support/db";
import { newUserId } from "../support/arrange";

// Referrals (supabase/migrations/20261123000000_cash_out_and_referrals.sql): a code applies when
// the profile is first made, and the referral is paid once, when the friend has a verified email
// AND has earned app_config.referral_qualifying_coins (100) coins by themselves.

interface Summary {
  id: string;
  email_verified: boolean;
  display_name: string;
  referral_code: string;
  balance: number;
  total_earned: number;
  referral_earned: number;
}

interface Referral {
  id: number;
  created_at: string;
  display_name: string;
  username: string | null;
  credited: boolean;
  amount: number;
}

interface Notice {
  id: number;
  kind: string;
  data: Record<string, unknown>;
  created_at: string;
}

interface ProvisionOptions {
  userId?: string;
  name?: string;
  code?: string | null;
  verified?: boolean;
}

// Not provisionMember: provision_user itself, repeated and with codes, is what is tested, and its summary read.
function provision(t: TestDatabase, options: ProvisionOptions = {}) {
  return t.db.rpc<Summary>("provision_user", {
    p_user_id: options.userId ?? newUserId("ref"),
    p_email: null,
    p_display_name: options.name ?? "Someone",
    ...(options.code !== undefined ? { p_referral_code: options.code } : {}),
    ...(options.verified !== undefined ? { p_email_verified: options.verified } : {}),
  });
}

/** A referrer, and a friend who signed up with the referrer's code (neither verified, no coins). */
async function referrerAndFriend(t: TestDatabase, friend: Omit<ProvisionOptions, "code"> = {}) {
  const referrer = await provision(t, { name: "Rita Referrer" });
  const referred = await provision(t, { name: "Fred Friend", ...friend, code: referrer.referral_code });
  return { referrer: referrer.id, friend: referred.id };
}

function summary(t: TestDatabase, userId: string) {
  return t.db.rpc<Summary>("get_user_summary", { p_user_id: userId });
}

function referrals(t: TestDatabase, userId: string) {
  return t.db.rpc<Referral[]>("get_referrals", { p_user_id: userId });
}

function addCoins(t: TestDatabase, userId: string, coins: number) {
  return t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: coins });
}

function verify(t: TestDatabase, userId: string) {
  return t.db.rpc<{ email_verified: boolean; credited: boolean }>("record_email_verified", { p_user_id: userId });
}

function codeExists(t: TestDatabase, code: string | null) {
  return t.db.rpc<{ exists: boolean }>("referral_code_exists", { p_code: code });
}

/** The user's referral ledger rows ('referral' for a referrer, 'referral_bonus' for a friend). */
async function referralRows(t: TestDatabase, userId: string) {
  return t.sql<{ transaction_type: string; amount: number; coins: number | null; description: string }>(
    `select transaction_type, amount::float8 as amount, coins, description
       from transaction_history
      where user_id = $1 and transaction_type in ('referral', 'referral_bonus') order by id`,
    [userId],
  );
}

async function count(t: TestDatabase, query: string, values: unknown[]) {
  const [row] = await t.sql<{ n: number }>(`select (${query})::int as n`, values);
  return row!.n;
}

async function expectLedgerAudit(t: TestDatabase) {
  expect(await t.db.rpc("verify_all_balances")).toEqual([]);
}

/** Checks that the referral of `friend` by `referrer` was paid exactly once with these amounts. */
async function expectCreditedOnce(t: TestDatabase, referrer: string, friend: string, reward = 5, bonus = 1) {
  expect(await referralRows(t, referrer)).toEqual([
    { transaction_type: "referral", amount: reward, coins: null, description: "Referral bonus: a friend joined" },
  ]);
  expect(await referralRows(t, friend)).toEqual([
    {
      transaction_type: "referral_bonus",
      amount: bonus,
      coins: null,
      description: "Welcome bonus for joining with a referral code",
    },
  ]);
  expect(
    await count(t, "select count(*) from user_notices where user_id = $1 and kind = 'referral_credited'", [referrer]),
  ).toBe(1);
  expect(
    await count(t, "select count(*) from user_notices where user_id = $1 and kind = 'welcome_bonus'", [friend]),
  ).toBe(1);
  expect(await referrals(t, referrer)).toEqual([expect.objectContaining({ credited: true, amount: reward })]);
}

async function expectNotCredited(t: TestDatabase, referrer: string, friend: string) {
  expect(await referralRows(t, referrer)).toEqual([]);
  expect(await referralRows(t, friend)).toEqual([]);
  expect(await referrals(t, referrer)).toEqual([expect.objectContaining({ credited: false })]);
  // Other credits (a postback) write notices of their own; no referral notice is written.
  expect(
    await count(
      t,
      "select count(*) from user_notices where user_id in ($1, $2) and kind in ('referral_credited', 'welcome_bonus')",
      [referrer, friend],
    ),
  ).toBe(0);
}

// The rules are SQL, run here on PGlite (Postgres's own engine, compiled); the HTTP suite runs them
// again through the app on the Postgres server, and races are proven on the server
// (tests/integration/concurrency.test.ts, tests/http/pooler.test.ts).
describe.each([["PGlite", openTestPglite]])("referrals on %s", (_name, open) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("get_app_config reports the referral reward ($5), welcome bonus ($1) and qualifying coins (100)", async () => {
    expect(await t.db.rpc("get_app_config")).toMatchObject({
      referral: { reward: 5, welcome_bonus: 1, qualifying_coins: 100 },
    });
  });

  it("referral_code_exists is true for an existing code in any letter case and with spaces, false for an unknown, blank or null code", async () => {
    const { referral_code: code } = await provision(t);
    expect(await codeExists(t, code)).toEqual({ exists: true });
    expect(await codeExists(t, code.toLowerCase())).toEqual({ exists: true });
    expect(await codeExists(t, `  ${code.toLowerCase()} `)).toEqual({ exists: true });
    // Codes never contain 1, so this one belongs to nobody.
    expect(await codeExists(t, "1111111")).toEqual({ exists: false });
    expect(await codeExists(t, "")).toEqual({ exists: false });
    expect(await codeExists(t, null)).toEqual({ exists: false });
  });

  it("provisioning with another user's code (any case) links a referral that get_referrals shows with display_name, username, credited false and the configured reward", async () => {
    const referrer = await provision(t, { name: "Rita Referrer" });
    expect(await referrals(t, referrer.id)).toEqual([]);
    const first = await provision(t, { name: "First Friend", code: referrer.referral_code.toLowerCase() });
    const second = await provision(t, { name: "Second Friend", code: ` ${referrer.referral_code} ` });
    await t.sql("update user_profiles set username = 'second_friend' where id = $1", [second.id]);
    // Newest first.
    expect(await referrals(t, referrer.id)).toEqual([
      {
        id: expect.any(Number),
        created_at: expect.any(String),
        display_name: "Second Friend",
        username: "second_friend",
        credited: false,
        amount: 5,
      },
      {
        id: expect.any(Number),
        created_at: expect.any(String),
        display_name: "First Friend",
        username: null,
        credited: false,
        amount: 5,
      },
    ]);
    // The friends refer nobody; the link moved no money.
    expect(await referrals(t, first.id)).toEqual([]);
    expect(await summary(t, referrer.id)).toMatchObject({ balance: 0, referral_earned: 0 });
    expect(await summary(t, first.id)).toMatchObject({ balance: 0, referral_earned: 0, email_verified: false });
    // An unpaid referral shows the reward currently configured.
    try {
      await t.sql("update app_config set referral_reward = 7.5");
      expect((await referrals(t, referrer.id)).map((referral) => referral.amount)).toEqual([7.5, 7.5]);
    } finally {
      await t.sql("update app_config set referral_reward = 5");
    }
  });

  it("an unknown referral code raises invalid_referral_code and creates no profile, balance or preferences", async () => {
    const userId = newUserId("ref");
    expect(ruleViolation(await dbRefusal(provision(t, { userId, code: "ZZZZZZZ" })))).toEqual({
      rule: "invalid_referral_code",
      message: "This referral code is not valid",
    });
    expect(await summary(t, userId)).toBeNull();
    for (const table of [
      "user_profiles where id",
      "user_balance where user_id",
      "notification_preferences where user_id",
    ]) {
      expect(await count(t, `select count(*) from ${table} = $1`, [userId]), table).toBe(0);
    }
    // Without the code the same user signs up normally, referred by nobody.
    expect(await provision(t, { userId, code: "" })).toMatchObject({ id: userId, balance: 0 });
    expect(await count(t, "select count(*) from referrals where referred_user_id = $1", [userId])).toBe(0);
  });

  it("ignores a referral code when the profile already exists: an existing user cannot attach a referrer later", async () => {
    const referrer = await provision(t, { name: "Rita Referrer" });
    const existing = await provision(t, { name: "Early Bird" });
    expect(await provision(t, { userId: existing.id, code: referrer.referral_code })).toMatchObject({
      id: existing.id,
      referral_code: existing.referral_code,
    });
    // Not even an unknown code is looked at any more.
    expect(await provision(t, { userId: existing.id, code: "ZZZZZZZ" })).toMatchObject({ id: existing.id });
    expect(await referrals(t, referrer.id)).toEqual([]);
    expect(await count(t, "select count(*) from referrals where referred_user_id = $1", [existing.id])).toBe(0);
  });

  it("provisioning twice with a code creates one referral, and one's own code never applies", async () => {
    // One's own code cannot apply, structurally: a new user has no code until their profile is
    // made, and once it exists any code is ignored (previous test). So the test is that repeated
    // sign-ins with a code never add a second referral, nor a referral of the referrer itself.
    const { referrer, friend } = await referrerAndFriend(t);
    const { referral_code: code } = await summary(t, referrer);
    await provision(t, { userId: friend, name: "Fred Friend", code });
    await provision(t, { userId: friend, name: "Fred Friend", code, verified: true });
    await provision(t, { userId: referrer, code });
    expect(await count(t, "select count(*) from referrals where referred_user_id = $1", [friend])).toBe(1);
    expect(await count(t, "select count(*) from referrals where referred_user_id = $1", [referrer])).toBe(0);
    expect(await referrals(t, referrer)).toHaveLength(1);
    expect(await referrals(t, friend)).toEqual([]);
  });

  it("credits the referral when the friend verifies the email first and then earns 100 own coins, not at 99", async () => {
    const { referrer, friend } = await referrerAndFriend(t);
    expect(await verify(t, friend)).toEqual({ email_verified: true, credited: false, own_coins: 0 });
    await addCoins(t, friend, 99);
    await expectNotCredited(t, referrer, friend);
    // The check-in's 10 coins make 109.
    expect(await t.db.rpc("daily_checkin", { p_user_id: friend })).toMatchObject({ coins: 10, balance: 2.09 });
    await expectCreditedOnce(t, referrer, friend);
    expect(await summary(t, referrer)).toMatchObject({ balance: 5, total_earned: 5, referral_earned: 5 });
    expect(await summary(t, friend)).toMatchObject({ balance: 2.09, total_earned: 2.09, referral_earned: 0 });
    await expectLedgerAudit(t);
  });

  it("credits the referral when the friend earns 100 own coins first and then verifies the email", async () => {
    const { referrer, friend } = await referrerAndFriend(t);
    await addCoins(t, friend, 60);
    await addCoins(t, friend, 40);
    await expectNotCredited(t, referrer, friend);
    expect(await verify(t, friend)).toEqual({
      email_verified: true,
      credited: true,
      referrer_amount: 5,
      referred_amount: 1,
    });
    await expectCreditedOnce(t, referrer, friend);
    expect(await summary(t, referrer)).toMatchObject({ balance: 5, referral_earned: 5 });
    expect(await summary(t, friend)).toMatchObject({ balance: 2, total_earned: 2, referral_earned: 0 });
    await expectLedgerAudit(t);
  });

  it("on credit the referrer gets a referral_credited notice and the friend a welcome_bonus notice, each taken once", async () => {
    const { referrer, friend } = await referrerAndFriend(t);
    await addCoins(t, friend, 100);
    await verify(t, friend);
    expect(await t.db.rpc<Notice[]>("take_user_notices", { p_user_id: referrer })).toEqual([
      // Demo settings: no bonus is locked (decision 080).
      expect.objectContaining({ kind: "referral_credited", data: { amount: 5, locked: false } }),
    ]);
    expect(await t.db.rpc<Notice[]>("take_user_notices", { p_user_id: friend })).toEqual([
      expect.objectContaining({ kind: "welcome_bonus", data: { amount: 1, locked: false } }),
    ]);
    expect(await t.db.rpc("take_user_notices", { p_user_id: referrer })).toEqual([]);
    expect(await t.db.rpc("take_user_notices", { p_user_id: friend })).toEqual([]);
    await expectLedgerAudit(t);
  });

  it("never pays a referral twice: later earnings, verifications and sign-ins of the friend change nothing", async () => {
    const { referrer, friend } = await referrerAndFriend(t);
    await verify(t, friend);
    await addCoins(t, friend, 100);
    await expectCreditedOnce(t, referrer, friend);
    await addCoins(t, friend, 500);
    await t.db.rpc("daily_checkin", { p_user_id: friend });
    expect(await verify(t, friend)).toEqual({ email_verified: true, credited: false });
    await provision(t, { userId: friend, name: "Fred Friend", verified: true });
    await expectCreditedOnce(t, referrer, friend);
    expect(await summary(t, referrer)).toMatchObject({ balance: 5, referral_earned: 5 });
    expect(await summary(t, friend)).toMatchObject({ balance: 7.1, referral_earned: 0 });
    await expectLedgerAudit(t);
  });

  it("the welcome bonus and referral rewards do not count as the friend's own coins", async () => {
    // Middle was referred by Top and referred Fred; Fred qualifying pays Middle a $5 'referral' row.
    const top = await provision(t, { name: "Top" });
    const middle = await provision(t, { name: "Middle", code: top.referral_code, verified: true });
    const fred = await provision(t, { name: "Fred Friend", code: middle.referral_code, verified: true });
    await addCoins(t, fred.id, 100);
    expect(await summary(t, middle.id)).toMatchObject({ balance: 5, referral_earned: 5 });
    expect(await verify(t, middle.id)).toEqual({ email_verified: true, credited: false, own_coins: 0 });
    // A welcome-bonus row, even one that carried coins, is not the user's own earning either.
    await t.sql(
      `insert into transaction_history (user_id, description, transaction_type, amount, status, coins)
       values ($1, 'Test welcome bonus', 'referral_bonus', 1, 'completed', 100)`,
      [middle.id],
    );
    await t.sql("update user_balance set balance = balance + 1, total_earned = total_earned + 1 where user_id = $1", [
      middle.id,
    ]);
    expect(await verify(t, middle.id)).toEqual({ email_verified: true, credited: false, own_coins: 0 });
    expect(await referrals(t, top.id)).toEqual([expect.objectContaining({ credited: false })]);
    // 100 coins of Middle's own do it.
    await addCoins(t, middle.id, 100);
    expect(await referrals(t, top.id)).toEqual([expect.objectContaining({ credited: true, amount: 5 })]);
    expect(await summary(t, top.id)).toMatchObject({ balance: 5, referral_earned: 5 });
    await expectLedgerAudit(t);
  });

  it("own coins are counted net of postback reversals", async () => {
    const { referrer, friend } = await referrerAndFriend(t);
    const postback = (reversal: boolean) =>
      t.db.rpc("record_postback", {
        p_provider: "acme",
        p_transaction_id: `tx-${friend}`,
        p_user_id: friend,
        p_coins: 150,
        p_reversal: reversal,
        p_description: "Offer",
      });
    // Unverified, so nothing qualifies yet: 50 coins, a 150-coin offer, then its reversal.
    await addCoins(t, friend, 50);
    await postback(false);
    expect(await postback(true)).toMatchObject({ duplicate: false, amount: -1.5, coins: -150 });
    expect(await verify(t, friend)).toEqual({ email_verified: true, credited: false, own_coins: 50 });
    await expectNotCredited(t, referrer, friend);
    await addCoins(t, friend, 50);
    await expectCreditedOnce(t, referrer, friend);
    await expectLedgerAudit(t);
  });

  it("pays the app_config amounts in force when the friend qualifies, and keeps them after the config changes back", async () => {
    const { referrer, friend } = await referrerAndFriend(t, { verified: true });
    try {
      await t.sql(
        "update app_config set referral_reward = 7.25, referral_welcome_bonus = 0.5, referral_qualifying_coins = 50",
      );
      expect(await t.db.rpc("get_app_config")).toMatchObject({
        referral: { reward: 7.25, welcome_bonus: 0.5, qualifying_coins: 50 },
      });
      await addCoins(t, friend, 49);
      await expectNotCredited(t, referrer, friend);
      await addCoins(t, friend, 1);
    } finally {
      await t.sql(
        "update app_config set referral_reward = 5, referral_welcome_bonus = 1, referral_qualifying_coins = 100",
      );
    }
    await expectCreditedOnce(t, referrer, friend, 7.25, 0.5);
    expect(await summary(t, referrer)).toMatchObject({ balance: 7.25, referral_earned: 7.25 });
    expect(await summary(t, friend)).toMatchObject({ balance: 1, referral_earned: 0 });
    await expectLedgerAudit(t);
  });

  it("with a zero welcome bonus the referrer is still paid and the friend gets no row and no notice", async () => {
    const { referrer, friend } = await referrerAndFriend(t, { verified: true });
    try {
      await t.sql("update app_config set referral_welcome_bonus = 0");
      await addCoins(t, friend, 100);
    } finally {
      await t.sql("update app_config set referral_welcome_bonus = 1");
    }
    expect(await referralRows(t, referrer)).toHaveLength(1);
    expect(await referralRows(t, friend)).toEqual([]);
    expect(await count(t, "select count(*) from user_notices where user_id = $1", [friend])).toBe(0);
    expect(await referrals(t, referrer)).toEqual([expect.objectContaining({ credited: true, amount: 5 })]);
    await expectLedgerAudit(t);
  });

  it("provision_user with p_email_verified => true records the verification, for a new and for an existing profile", async () => {
    const fresh = await provision(t, { verified: true });
    expect(fresh.email_verified).toBe(true);
    const existing = await provision(t);
    expect(existing.email_verified).toBe(false);
    // A later sign-in without the flag does not undo it; one with the flag records it.
    expect((await provision(t, { userId: existing.id, verified: false })).email_verified).toBe(false);
    expect((await provision(t, { userId: existing.id, verified: true })).email_verified).toBe(true);
    expect((await provision(t, { userId: existing.id, verified: false })).email_verified).toBe(true);
    // A friend verified at sign-up is credited by their first 100 coins.
    const { referrer, friend } = await referrerAndFriend(t, { verified: true });
    expect((await summary(t, friend)).email_verified).toBe(true);
    await addCoins(t, friend, 100);
    await expectCreditedOnce(t, referrer, friend);
    await expectLedgerAudit(t);
  });

  it("record_email_verified refuses an unknown user with account_not_found", async () => {
    expect(ruleViolation(await dbRefusal(verify(t, newUserId("nobody"))))).toEqual({
      rule: "account_not_found",
      message: "Account not found",
    });
  });
});

// PGlite has one connection, so races can only be shown on a real Postgres server.
describe("referral races on a Postgres server", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPostgres(60);
  });
  afterEach(async () => {
    // Whatever raced, every balance still equals its ledger.
    await expectLedgerAudit(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("50 simultaneous qualifying events (25 add_user_coins, 25 record_email_verified) for a friend who already qualifies pay the referral exactly once, without deadlock", async () => {
    const { referrer, friend } = await referrerAndFriend(t);
    // 100 own coins while unverified (no credit), then verified behind the functions' back, so
    // that every one of the 50 calls below would pay the referral on its own.
    await addCoins(t, friend, 100);
    await t.sql("update user_profiles set email_verified = true where id = $1", [friend]);
    await expectNotCredited(t, referrer, friend);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? addCoins(t, friend, 100) : verify(t, friend))),
    );
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
    const verifications = results
      .filter((_, i) => i % 2 === 1)
      .map((result) => (result as PromiseFulfilledResult<{ credited: boolean }>).value);
    expect(verifications.filter((value) => value.credited).length).toBeLessThanOrEqual(1);
    await expectCreditedOnce(t, referrer, friend);
    expect(await summary(t, referrer)).toMatchObject({ balance: 5 });
    expect(await summary(t, friend)).toMatchObject({ balance: 27, referral_earned: 0 });
  });

  it("50 simultaneous events from scratch (25 × 100 coins, 25 verifications) for an unverified friend with 0 coins pay the referral exactly once, without deadlock", async () => {
    const { referrer, friend } = await referrerAndFriend(t);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? addCoins(t, friend, 100) : verify(t, friend))),
    );
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
    await expectCreditedOnce(t, referrer, friend);
    expect(await summary(t, referrer)).toMatchObject({ balance: 5 });
    expect(await summary(t, friend)).toMatchObject({ balance: 26, email_verified: true, referral_earned: 0 });
  });
});
