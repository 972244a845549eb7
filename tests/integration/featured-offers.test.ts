import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbError } from "~/server/db/core.server";
import { openTestPglite, openTestPostgres, type TestDatabase } from "../support/db";
import { newUserId, provisionMember, recordPostback } from "../support/arrange";

// What featured offers read in SQL (supabase/migrations/20261217000000_featured_offers.sql,
// docs/decisions/100): when the app first saw each listed offer, and each wall's typical payout.

type Seen = Record<string, string | null>;
interface Typical {
  network: string;
  typical_coins: number;
  credits: number;
}

describe.each([
  ["PGlite", openTestPglite],
  ["Postgres", () => openTestPostgres()],
])("featured offers' functions on %s", (_name, open) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const note = (network: string, ids: unknown[]) =>
    t.db.rpc<Seen>("note_wall_offers_seen", { p_network: network, p_offer_ids: ids });
  const uniqueNetwork = () => `net${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;

  it("a network's first listing is never new; an offer listed later is, from when it was first noted, however often it is noted again", async () => {
    const network = uniqueNetwork();
    expect(await note(network, ["a", "b"])).toEqual({ a: null, b: null });
    const second = await note(network, ["a", "b", "c"]);
    expect(second.a).toBeNull();
    expect(second.b).toBeNull();
    expect(Date.parse(second.c!)).toBeGreaterThan(Date.now() - 60_000);
    const third = await note(network, ["c", "d"]);
    expect(third.c).toBe(second.c);
    expect(Object.keys(third).sort()).toEqual(["c", "d"]);
    // Another network's listing is its own first.
    expect(await note(uniqueNetwork(), ["c"])).toEqual({ c: null });
  });

  it("ids that are empty, over 200 characters or repeated are left out; a bad network name or ids not in a list are refused", async () => {
    const network = uniqueNetwork();
    expect(await note(network, ["ok", "", "x".repeat(201), "ok", null])).toEqual({ ok: null });
    const error = await note("Bad Network!", ["a"]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DbError);
    expect((error as DbError).hint).toBe("invalid_network");
    expect(await t.sql("select 1 from wall_offers_seen where network = 'Bad Network!'")).toEqual([]);
    const notAList = await t.db
      .rpc("note_wall_offers_seen", { p_network: network, p_offer_ids: { a: 1 } })
      .catch((caught: unknown) => caught);
    expect((notAList as DbError).hint).toBe("invalid_offer_ids");
  });

  it("an offer first seen over 90 days ago and no longer listed is forgotten (listed again, it is new); one still listed is kept", async () => {
    const network = uniqueNetwork();
    await note(network, ["old-gone", "old-kept"]);
    await t.sql("update wall_offers_seen set first_seen_at = now() - interval '91 days' where network = $1", [network]);
    await note(network, ["old-kept"]);
    const rows = await t.sql<{ offer_id: string }>("select offer_id from wall_offers_seen where network = $1", [
      network,
    ]);
    expect(rows.map((row) => row.offer_id)).toEqual(["old-kept"]);
    const back = await note(network, ["old-gone", "old-kept"]);
    expect(back["old-gone"]).not.toBeNull();
    expect(back["old-kept"]).toBeNull();
  });

  it("a wall's typical payout is the median coins of its credits of the last 30 days, reversals and older credits and other walls aside", async () => {
    const network = uniqueNetwork();
    const other = uniqueNetwork();
    const userId = newUserId("typical");
    await provisionMember(t, { userId, identity: `identity-${userId}` });
    for (const [index, coins] of [10, 20, 30, 40, 500].entries()) {
      await recordPostback(t, userId, `${network}-${index}`, coins, { provider: network });
    }
    await recordPostback(t, userId, `${network}-0`, 10, { provider: network, reversal: true });
    await recordPostback(t, userId, `${network}-old`, 9000, { provider: network });
    await t.sql("update provider_postbacks set created_at = now() - interval '31 days' where transaction_id = $1", [
      `${network}-old`,
    ]);
    await recordPostback(t, userId, `${other}-1`, 7, { provider: other });
    const typical = await t.db.rpc<Typical[]>("wall_typical_payouts", { p_networks: [network, other, "none"] });
    expect(typical).toEqual(
      [
        { network, typical_coins: 30, credits: 5 },
        { network: other, typical_coins: 7, credits: 1 },
      ].sort((a, b) => a.network.localeCompare(b.network)),
    );
  });
});
