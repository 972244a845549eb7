import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPglite, openTestPostgres, type TestDatabase } from "../support/db";
import { endHolds } from "../support/holds";
import { newUserId, recordPostback } from "../support/arrange";

// The referrer's bonus on the friend's cleared earned money
// (supabase/migrations/20261130010000_referral_on_cleared_earnings.sql,
// docs/decisions/067-referral-on-cleared-earnings.md): on the strict settings a referral qualifies
// when the friend's own cleared earned money reaches $1.00 (100 coins); money clears with time, so
// credit_cleared_referrals credits what has qualified since. The demo settings keep 100 coins of
// any kind.

const STRICT =
  "update app_config set postback_hold_days = 7, provider_hold_days = '{}', bonus_unlock_ratio = 1.0, referral_requires_earned = true";

// Not provisionMember: this needs the summary (the referral code to sign a friend up with).
async function provision(t: TestDatabase, prefix: string, options: { code?: string; verified?: boolean } = {}) {
  const summary = await t.db.rpc<{ id: string; referral_code: string }>("provision_user", {
    p_user_id: newUserId(prefix),
    p_email: null,
    p_display_name: prefix,
    p_email_verified: options.verified ?? true,
    ...(options.code ? { p_referral_code: options.code } : {}),
  });
  return summary;
}

/** A referrer and a verified friend who joined with the referrer's code. */
async function referrerAndFriend(t: TestDatabase, { verified = true } = {}) {
  const referrer = await provision(t, "rita");
  const friend = await provision(t, "fred", { code: referrer.referral_code, verified });
  return { referrer: referrer.id, friend: friend.id };
}

function settle(t: TestDatabase, userId: string | null = null, limit = 100) {
  return t.db.rpc<{ credited: number; skipped: number }>("credit_cleared_referrals", {
    p_limit: limit,
    ...(userId ? { p_user_id: userId } : {}),
  });
}

/** The referral money of each account: the referrer's 'referral' rows and the friend's 'referral_bonus' rows. */
async function referralMoney(t: TestDatabase, referrer: string, friend: string) {
  const rows = await t.sql<{ user_id: string; amount: number }>(
    `select user_id, amount::float8 as amount from transaction_history
      where (user_id = $1 and transaction_type = 'referral') or (user_id = $2 and transaction_type = 'referral_bonus')
      order by id`,
    [referrer, friend],
  );
  const [referral] = await t.sql<{ credited: boolean }>(
    "select credited_at is not null as credited from referrals where referred_user_id = $1",
    [friend],
  );
  return {
    referrer: rows.filter((row) => row.user_id === referrer).map((row) => row.amount),
    friend: rows.filter((row) => row.user_id === friend).map((row) => row.amount),
    credited: referral!.credited,
  };
}

const NOT_CREDITED = { referrer: [], friend: [], credited: false };
const CREDITED_ONCE = { referrer: [5], friend: [1], credited: true };

async function expectAuditClean(t: TestDatabase) {
  expect(await t.db.rpc("verify_all_balances")).toEqual([]);
}

// The rules are SQL, run here on PGlite (Postgres's own engine, compiled); the HTTP suite runs them
// again through the app on the Postgres server, and races are proven on the server
// (tests/integration/concurrency.test.ts, tests/http/pooler.test.ts).
describe.each([["PGlite", () => openTestPglite("production")]])(
  "referral credit on cleared earnings on %s",
  (_name, open) => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await open();
    });
    afterAll(async () => {
      await t?.close();
    });

    it("on the strict settings, does not credit the referrer while the friend's postback is in its hold, and credits once (settled) after it clears", async () => {
      expect(await t.sql("select referral_requires_earned from app_config")).toEqual([
        { referral_requires_earned: true },
      ]);
      const { referrer, friend } = await referrerAndFriend(t);
      await recordPostback(t, friend, `${friend}-a`, 100);
      expect(await referralMoney(t, referrer, friend)).toEqual(NOT_CREDITED);
      expect(await settle(t)).toMatchObject({ credited: 0 });
      expect(await referralMoney(t, referrer, friend)).toEqual(NOT_CREDITED);

      await endHolds(t, friend);
      // Nothing runs when money clears: the settlement credits it.
      expect(await referralMoney(t, referrer, friend)).toEqual(NOT_CREDITED);
      expect(await settle(t)).toMatchObject({ credited: 1 });
      expect(await referralMoney(t, referrer, friend)).toEqual(CREDITED_ONCE);
      expect(await settle(t)).toMatchObject({ credited: 0 });
      expect(await referralMoney(t, referrer, friend)).toEqual(CREDITED_ONCE);
      expect(
        await t.sql(
          "select kind from user_notices where user_id in ($1, $2) and kind in ('referral_credited', 'welcome_bonus') order by id",
          [referrer, friend],
        ),
      ).toEqual([{ kind: "referral_credited" }, { kind: "welcome_bonus" }]);
      await expectAuditClean(t);
    });

    it("on the strict settings, never credits on the friend's bonus money alone (coins, check-in), however much", async () => {
      const { referrer, friend } = await referrerAndFriend(t);
      await t.db.rpc("add_user_coins", { user_id_param: friend, amount_param: 10_000 });
      await t.db.rpc("daily_checkin", { p_user_id: friend });
      expect(await settle(t)).toMatchObject({ credited: 0 });
      expect(await settle(t, friend)).toMatchObject({ credited: 0 });
      expect(await referralMoney(t, referrer, friend)).toEqual(NOT_CREDITED);
    });

    it("on the strict settings, counts cleared earned money net of reversals: $1.50 less a $1.00 reversal does not qualify, $0.50 more does", async () => {
      const { referrer, friend } = await referrerAndFriend(t);
      await recordPostback(t, friend, `${friend}-a`, 100);
      await recordPostback(t, friend, `${friend}-b`, 50);
      await endHolds(t, friend);
      await recordPostback(t, friend, `${friend}-a`, 100, { reversal: true });
      expect(await settle(t, friend)).toMatchObject({ credited: 0 });
      expect(await referralMoney(t, referrer, friend)).toEqual(NOT_CREDITED);
      await recordPostback(t, friend, `${friend}-c`, 50);
      expect(await settle(t, friend)).toMatchObject({ credited: 0 });
      await endHolds(t, friend);
      expect(await settle(t, friend)).toMatchObject({ credited: 1 });
      expect(await referralMoney(t, referrer, friend)).toEqual(CREDITED_ONCE);
      await expectAuditClean(t);
    });

    it("on the strict settings, credits at once a postback of a provider whose hold is 0 days (app_config.provider_hold_days)", async () => {
      await t.sql(`update app_config set provider_hold_days = '{"acme": 0}'`);
      try {
        const { referrer, friend } = await referrerAndFriend(t);
        await recordPostback(t, friend, `${friend}-a`, 99);
        expect(await referralMoney(t, referrer, friend)).toEqual(NOT_CREDITED);
        await recordPostback(t, friend, `${friend}-b`, 1);
        expect(await referralMoney(t, referrer, friend)).toEqual(CREDITED_ONCE);
      } finally {
        await t.sql(STRICT);
      }
    });

    it("on the strict settings, waits for the friend's verified email, and credits on verification once earnings cleared", async () => {
      const { referrer, friend } = await referrerAndFriend(t, { verified: false });
      await recordPostback(t, friend, `${friend}-a`, 200);
      await endHolds(t, friend);
      expect(await settle(t)).toMatchObject({ credited: 0 });
      expect(await referralMoney(t, referrer, friend)).toEqual(NOT_CREDITED);
      await t.db.rpc("record_email_verified", { p_user_id: friend });
      expect(await referralMoney(t, referrer, friend)).toEqual(CREDITED_ONCE);
    });

    it("settles one account's referrals only (p_user_id), as referrer or as friend", async () => {
      const first = await referrerAndFriend(t);
      const second = await referrerAndFriend(t);
      for (const { friend } of [first, second]) {
        await recordPostback(t, friend, `${friend}-a`, 100);
        await endHolds(t, friend);
      }
      expect(await settle(t, first.referrer)).toEqual({ credited: 1, skipped: 0 });
      expect(await referralMoney(t, first.referrer, first.friend)).toEqual(CREDITED_ONCE);
      expect(await referralMoney(t, second.referrer, second.friend)).toEqual(NOT_CREDITED);
      expect(await settle(t, second.friend)).toEqual({ credited: 1, skipped: 0 });
      expect(await referralMoney(t, second.referrer, second.friend)).toEqual(CREDITED_ONCE);
    });

    it("on the demo settings, keeps today's rule: 100 coins of the friend's own of any kind credit at once", async () => {
      await t.db.rpc("apply_demo_settings");
      try {
        expect(await t.sql("select referral_requires_earned from app_config")).toEqual([
          { referral_requires_earned: false },
        ]);
        const { referrer, friend } = await referrerAndFriend(t);
        await t.db.rpc("add_user_coins", { user_id_param: friend, amount_param: 99 });
        expect(await referralMoney(t, referrer, friend)).toEqual(NOT_CREDITED);
        await t.db.rpc("add_user_coins", { user_id_param: friend, amount_param: 1 });
        expect(await referralMoney(t, referrer, friend)).toEqual(CREDITED_ONCE);
      } finally {
        await t.sql(STRICT);
      }
    });
  },
);

describe("referral settlement under races on Postgres", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPostgres(20, "production");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("20 parallel credit_cleared_referrals calls credit a cleared referral exactly once", async () => {
    const { referrer, friend } = await referrerAndFriend(t);
    await recordPostback(t, friend, `${friend}-a`, 100);
    await endHolds(t, friend);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => settle(t, index % 3 === 0 ? null : index % 3 === 1 ? referrer : friend)),
    );
    expect(results.reduce((sum, result) => sum + result.credited, 0)).toBe(1);
    expect(await referralMoney(t, referrer, friend)).toEqual(CREDITED_ONCE);
    await expectAuditClean(t);
  });

  it("parallel settlements, postbacks and check-ins of a chain of referrals (A refers B refers C ...) credit each referral once, without a deadlock", async () => {
    // Each friend refers the next: a credit locks the friend, then the referrer, and settlements
    // hold several candidates at once.
    const chain = [await provision(t, "chain")];
    for (let index = 0; index < 8; index++) {
      chain.push(await provision(t, "chain", { code: chain[index]!.referral_code }));
    }
    const friends = chain.slice(1);
    for (const friend of friends) {
      await recordPostback(t, friend.id, `${friend.id}-a`, 100);
      await endHolds(t, friend.id);
    }
    const work: Promise<unknown>[] = [];
    for (let round = 0; round < 4; round++) {
      work.push(settle(t));
      for (const [index, member] of chain.entries()) {
        work.push(settle(t, member.id));
        work.push(recordPostback(t, member.id, `${member.id}-round-${round}`, 10));
        if (round === 0 && index % 2 === 0) work.push(t.db.rpc("daily_checkin", { p_user_id: member.id }));
      }
    }
    const outcomes = await Promise.allSettled(work);
    expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);
    // Whatever the races skipped is credited by the next run.
    await settle(t);
    for (const [index, friend] of friends.entries()) {
      expect(await referralMoney(t, chain[index]!.id, friend.id)).toMatchObject({ friend: [1], credited: true });
    }
    const referralRows = await t.sql<{ user_id: string; n: number }>(
      `select user_id, count(*)::int as n from transaction_history
        where transaction_type = 'referral' and user_id = any($1) group by user_id`,
      [chain.map((member) => member.id)],
    );
    expect(referralRows.map((row) => row.n)).toEqual(Array(8).fill(1));
    await expectAuditClean(t);
  }, 60_000);
});
