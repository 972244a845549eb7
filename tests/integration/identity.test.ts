import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleViolation } from "~/server/db/core.server";
import { openTestPostgres, type TestDatabase } from "../support/db";

// One person, one identity (docs/decisions/064) where only a Postgres server can show it: sign-ups
// of one identity racing each other (PGlite has one connection, so nothing races there).
describe("one identity per person on a Postgres server", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPostgres(12);
  });
  afterAll(async () => {
    await t?.close();
  });

  let counter = 0;
  function ids(prefix: string) {
    counter += 1;
    return { hash: `${prefix}-identity-${Date.now()}-${counter}`, user: `${prefix}-${Date.now()}-${counter}` };
  }

  function provision(userId: string, email: string, identityHash: string | null, referralCode?: string) {
    return t.db.rpc<{ referral_code: string }>("provision_user", {
      p_user_id: userId,
      p_email: email,
      p_display_name: "Racer",
      p_referral_code: referralCode ?? null,
      p_identity_hash: identityHash,
    });
  }

  it("two sign-ups of aliases of one identity at once make one account: the other is refused (email_identity_taken), and the identity is referred once", async () => {
    const referrer = ids("referrer");
    const { referral_code: code } = await provision(referrer.user, "referrer@example.com", referrer.hash);
    for (let round = 0; round < 8; round++) {
      const { hash, user } = ids("twin");
      const outcomes = await Promise.allSettled(
        ["a", "b", "c"].map((alias) => provision(`${user}-${alias}`, `twin+${alias}@example.com`, hash, code)),
      );
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === "rejected") expect(ruleViolation(outcome.reason)?.rule).toBe("email_identity_taken");
      }
      const [row] = await t.sql<{ profiles: number; referrals: number; holder: string }>(
        `select (select count(*)::int from user_profiles where identity_hash = $1) as profiles,
                (select count(*)::int from referrals r join user_profiles p on p.id = r.referred_user_id
                  where p.identity_hash = $1) as referrals,
                (select user_id from identities where identity_hash = $1) as holder`,
        [hash],
      );
      expect(row).toMatchObject({ profiles: 1, referrals: 1 });
      expect(row!.holder).toMatch(new RegExp(`^${user}-[abc]$`));
    }
  });

  it("a profile made before identities gets its identity at its next sign-in, unless another live account has it already", async () => {
    const { hash, user } = ids("legacy");
    await provision(`${user}-1`, "legacy@example.com", null);
    await provision(`${user}-2`, "legacy+2@example.com", null);
    await provision(`${user}-1`, "legacy@example.com", hash);
    // The second alias signs in too: it keeps its account, without the identity.
    await provision(`${user}-2`, "legacy+2@example.com", hash);
    expect(
      await t.sql("select id, identity_hash from user_profiles where id like $1 order by id", [`${user}-%`]),
    ).toEqual([
      { id: `${user}-1`, identity_hash: hash },
      { id: `${user}-2`, identity_hash: null },
    ]);
    expect(await t.sql("select user_id from identities where identity_hash = $1", [hash])).toEqual([
      { user_id: `${user}-1` },
    ]);
  });

  it("an identity outlives its account: deleting the account frees it for a new sign-up, which is not referred again", async () => {
    const referrer = ids("ref2");
    const { referral_code: code } = await provision(referrer.user, "ref2@example.com", referrer.hash);
    const { hash, user } = ids("gone");
    await provision(`${user}-1`, "gone@example.com", hash, code);
    await t.sql("select delete_account($1, null)", [`${user}-1`]);
    expect(await t.sql("select user_id from identities where identity_hash = $1", [hash])).toEqual([{ user_id: null }]);
    await provision(`${user}-2`, "gone+back@example.com", hash, code);
    expect(await t.sql("select 1 from referrals where referred_user_id = $1", [`${user}-2`])).toEqual([]);
    expect(await t.sql("select reward, user_id from identity_rewards where identity_hash = $1", [hash])).toEqual([
      { reward: "referred", user_id: `${user}-1` },
    ]);
  });
});
