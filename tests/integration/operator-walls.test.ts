import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbRefusal, openTestPglite, type TestDatabase } from "../support/db";
import { provisionMember, provisionOperator } from "../support/arrange";

// The console's Walls section in SQL (supabase/migrations/20261202340000_operator_walls.sql,
// docs/operator-console.md, "Walls"): what only an owner may change, the audit entry written with
// each change, secrets that no console read returns, the announcement every server listens to, and
// the postback log's filters.

/** A sealed value in the app's form (the SQL checks its shape; only the app can open it). */
const sealed = (tag: string) => `v1.${Buffer.from(`sealed-${tag}-${randomUUID()}`).toString("base64url")}`;

interface WallRow {
  network: string;
  enabled: boolean | null;
  hold_days: number | null;
  allowed_addresses: string | null;
  settings: Record<string, string>;
  secrets: Record<string, { sealed?: string; hint: string | null }>;
  updated_by: string;
}

interface Audit {
  actor: string;
  actor_user_id: string | null;
  action: string;
  record_kind: string;
  record_id: string;
  user_id: string | null;
  reason: string | null;
  before: unknown;
  after: unknown;
  detail: unknown;
}

describe("offer walls in the console, in SQL", () => {
  let t: TestDatabase;
  const operators: Record<"owner" | "finance" | "support", string> = { owner: "", finance: "", support: "" };

  const provision = () => provisionMember(t, { prefix: "acct", name: "Walls" });

  beforeAll(async () => {
    t = await openTestPglite();
    for (const role of ["owner", "finance", "support"] as const) operators[role] = await provisionOperator(t, role);
  });
  afterAll(async () => {
    await t?.close();
  });

  const setWall = (operatorId: string, network: string, fields: Record<string, unknown> = {}) =>
    t.db.rpc<{ changed: boolean }>("operator_set_wall", {
      p_operator_id: operatorId,
      p_network: network,
      p_enabled: null,
      p_hold_days: null,
      p_allowed_addresses: null,
      p_settings: {},
      p_secrets: {},
      p_clear_secrets: [],
      p_reason: "Setting up the wall",
      ...fields,
    });
  const rowOf = async (network: string) =>
    (await t.sql<WallRow>("select * from wall_settings where network = $1", [network]))[0] ?? null;
  const auditOf = (network: string) =>
    t.sql<Audit>(
      "select actor, actor_user_id, action, record_kind, record_id, user_id, reason, before, after, detail from operator_actions where record_kind = 'wall' and record_id = $1 order by id",
      [network],
    );

  it("only an owner changes a wall: support and finance are refused, and nothing is written", async () => {
    for (const role of ["support", "finance"] as const) {
      const refusal = await dbRefusal(setWall(operators[role], "bitlabs", { p_enabled: true }));
      expect(refusal.hint).toBe("operator_role_required");
      expect(
        (
          await dbRefusal(
            t.db.rpc("operator_reset_wall", { p_operator_id: operators[role], p_network: "bitlabs", p_reason: "r" }),
          )
        ).hint,
      ).toBe("operator_role_required");
    }
    expect((await dbRefusal(setWall("no-such-operator", "bitlabs"))).hint).toBe("operator_role_required");
    expect(await rowOf("bitlabs")).toBeNull();
    expect(await auditOf("bitlabs")).toEqual([]);
  });

  it("an owner's change writes the row and its audit entry (the secrets named, never their sealed values) in one call", async () => {
    const secret = sealed("bitlabs");
    expect(
      await setWall(operators.owner, "bitlabs", {
        p_enabled: true,
        p_hold_days: 3,
        p_allowed_addresses: "any",
        p_settings: { APP_TOKEN: "token-1" },
        p_secrets: { APP_SECRET: { sealed: secret, hint: "ab12" } },
        p_reason: "Turning BitLabs on",
      }),
    ).toEqual({ network: "bitlabs", changed: true });
    expect(await rowOf("bitlabs")).toMatchObject({
      enabled: true,
      hold_days: 3,
      allowed_addresses: "any",
      settings: { APP_TOKEN: "token-1" },
      secrets: { APP_SECRET: { sealed: secret, hint: "ab12" } },
      updated_by: expect.stringMatching(/^owner-.*@example\.com$/),
    });
    const [entry] = await auditOf("bitlabs");
    expect(entry).toMatchObject({
      actor: expect.stringMatching(/^owner-.*@example\.com$/),
      actor_user_id: operators.owner,
      action: "set_wall",
      record_kind: "wall",
      record_id: "bitlabs",
      reason: "Turning BitLabs on",
      before: null,
      after: {
        enabled: true,
        hold_days: 3,
        allowed_addresses: "any",
        settings: { APP_TOKEN: "token-1" },
        secrets: ["APP_SECRET"],
      },
      detail: { secrets_replaced: ["APP_SECRET"], secrets_cleared: [] },
    });
    expect(JSON.stringify(await auditOf("bitlabs"))).not.toContain(secret);
    expect(JSON.stringify(await auditOf("bitlabs"))).not.toContain("ab12");
  });

  it("operator_walls shows every role each secret as set with its hint, never sealed; only the servers' wall_overrides has it", async () => {
    const secret = sealed("revlum");
    await setWall(operators.owner, "revlum", { p_secrets: { SECRET: { sealed: secret, hint: null } } });
    for (const role of ["support", "finance", "owner"] as const) {
      const walls = await t.db.rpc<WallRow[]>("operator_walls", { p_operator_id: operators[role] });
      expect(walls.find((wall) => wall.network === "revlum")?.secrets).toEqual({ SECRET: { hint: null } });
      expect(JSON.stringify(walls)).not.toContain("v1.");
    }
    expect((await dbRefusal(t.db.rpc("operator_walls", { p_operator_id: "no-such-operator" }))).hint).toBe(
      "operator_role_required",
    );
    const servers = await t.db.rpc<WallRow[]>("wall_overrides");
    expect(servers.find((wall) => wall.network === "revlum")?.secrets).toEqual({
      SECRET: { sealed: secret, hint: null },
    });
  });

  it("a save that changes nothing writes nothing; a secret given again is a change", async () => {
    const network = "lootably";
    const fields = { p_enabled: false, p_settings: { PLACEMENT_ID: "pl-1" } };
    expect(await setWall(operators.owner, network, fields)).toMatchObject({ changed: true });
    expect(await setWall(operators.owner, network, fields)).toMatchObject({ changed: false });
    expect(await auditOf(network)).toHaveLength(1);
    const again = { POSTBACK_SECRET: { sealed: sealed("l"), hint: null } };
    expect(await setWall(operators.owner, network, { ...fields, p_secrets: again })).toMatchObject({ changed: true });
    expect(await setWall(operators.owner, network, { ...fields, p_secrets: again })).toMatchObject({ changed: true });
    expect((await auditOf(network)).map((entry) => entry.action)).toEqual(["set_wall", "set_wall", "set_wall"]);
  });

  it("a cleared secret and settings left out go back to the environment, and an override with nothing left is removed", async () => {
    const network = "adgem";
    await setWall(operators.owner, network, {
      p_hold_days: 5,
      p_secrets: { POSTBACK_KEY: { sealed: sealed("a"), hint: null } },
    });
    await setWall(operators.owner, network, { p_hold_days: 5, p_clear_secrets: ["POSTBACK_KEY"] });
    expect((await rowOf(network))?.secrets).toEqual({});
    const cleared = (await auditOf(network)).at(-1)!;
    expect(cleared).toMatchObject({
      before: { hold_days: 5, secrets: ["POSTBACK_KEY"] },
      after: { hold_days: 5, secrets: [] },
      detail: { secrets_cleared: ["POSTBACK_KEY"] },
    });
    await setWall(operators.owner, network, {});
    expect(await rowOf(network)).toBeNull();
    expect((await auditOf(network)).at(-1)).toMatchObject({ before: { hold_days: 5 }, after: null });
  });

  it("reset removes every console value of a wall with its audit entry; resetting a wall the console never set writes nothing", async () => {
    const network = "torox";
    await setWall(operators.owner, network, { p_enabled: true, p_settings: { APP_ID: "5" } });
    const reset = (name: string) =>
      t.db.rpc("operator_reset_wall", { p_operator_id: operators.owner, p_network: name, p_reason: "Back to env" });
    expect(await reset(network)).toEqual({ network, changed: true });
    expect(await rowOf(network)).toBeNull();
    expect((await auditOf(network)).at(-1)).toMatchObject({
      action: "reset_wall",
      before: { enabled: true, settings: { APP_ID: "5" }, secrets: [] },
      after: null,
      reason: "Back to env",
    });
    expect(await reset(network)).toEqual({ network, changed: false });
    expect(await auditOf(network)).toHaveLength(2);
  });

  it("refuses malformed values with their rule and writes nothing", async () => {
    const network = "ayetstudios";
    const refused = async (fields: Record<string, unknown>) =>
      (await dbRefusal(setWall(operators.owner, network, fields))).hint;
    expect(await refused({ p_hold_days: 366 })).toBe("invalid_hold_days");
    expect(await refused({ p_hold_days: -1 })).toBe("invalid_hold_days");
    expect(await refused({ p_settings: { "app-id": "x" } })).toBe("invalid_wall_setting");
    expect(await refused({ p_settings: { ADSLOT_ID: "9\u202e23" } })).toBe("invalid_wall_setting");
    expect(await refused({ p_settings: { ADSLOT_ID: "x".repeat(501) } })).toBe("invalid_wall_setting");
    expect(await refused({ p_settings: { ADSLOT_ID: 923 } })).toBe("invalid_wall_setting");
    expect(await refused({ p_secrets: { API_KEY: { sealed: "the-key-in-clear", hint: null } } })).toBe(
      "invalid_wall_setting",
    );
    expect(await refused({ p_secrets: { API_KEY: { sealed: sealed("x"), hint: "12345" } } })).toBe(
      "invalid_wall_setting",
    );
    expect(await refused({ p_secrets: { API_KEY: { sealed: sealed("x"), extra: 1 } } })).toBe("invalid_wall_setting");
    expect(
      await refused({ p_settings: { API_KEY: "clear" }, p_secrets: { API_KEY: { sealed: sealed("x"), hint: null } } }),
    ).toBe("invalid_wall_setting");
    expect(await refused({ p_clear_secrets: { API_KEY: true } })).toBe("invalid_wall_setting");
    expect(await refused({ p_allowed_addresses: "1.2.3.4\u200b" })).toBe("invalid_wall_setting");
    expect(await refused({ p_reason: " " })).toBe("reason_required");
    expect(await refused({ p_reason: "r".repeat(501) })).toBe("invalid_reason");
    expect((await dbRefusal(setWall(operators.owner, "Not A Network"))).hint).toBe("unknown_wall");
    expect(await rowOf(network)).toBeNull();
    expect(await auditOf(network)).toEqual([]);
  });

  it("announces each change on wall_settings with the network's name, when it commits", async () => {
    const heard: string[] = [];
    const stop = await t.db.listen!("wall_settings", (payload) => heard.push(payload));
    try {
      await setWall(operators.owner, "custom", { p_hold_days: 1 });
      await t.db.rpc("operator_reset_wall", { p_operator_id: operators.owner, p_network: "custom", p_reason: "x" });
      await expect.poll(() => heard).toEqual(["custom", "custom"]);
      // A refused change announces nothing.
      await dbRefusal(setWall(operators.owner, "custom", { p_hold_days: 999 }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toEqual(["custom", "custom"]);
    } finally {
      await stop();
    }
  });

  describe("the postback log of one network", () => {
    const network = "revlum";
    let ana: string;
    let ids: number[];

    const log = (operatorId: string, filters: Record<string, unknown> = {}) =>
      t.db.rpc<
        { id: number; verdict: string; user_id: string | null; email: string | null; transaction_id: string | null }[]
      >("operator_postback_log", {
        p_operator_id: operatorId,
        p_network: network,
        p_refused_only: false,
        p_user_id: null,
        p_transaction_id: null,
        p_before: null,
        p_limit: 50,
        ...filters,
      });

    beforeAll(async () => {
      ana = await provision();
      const entry = (verdict: string, user: string | null, tx: string | null, on = network) =>
        t.db.rpc("log_postback", {
          p_network: on,
          p_client_address: null,
          p_method: "GET",
          p_query: "",
          p_body: "",
          p_verdict: verdict,
          p_reason: verdict === "refused" ? "the signature does not match" : null,
          p_user_id: user,
          p_transaction_id: tx,
          p_coins: user ? 10 : null,
        });
      await entry("credited", ana, "tx-1");
      await entry("refused", null, null);
      await entry("duplicate", ana, "tx-1");
      await entry("credited", null, "tx-2");
      await entry("refused", null, null, "bitlabs");
      await entry("refused", ana, "tx-3");
      ids = (
        await t.sql<{ id: number }>("select id from postback_log where network = $1 order by id desc", [network])
      ).map((row) => Number(row.id));
    });

    it("lists its entries newest first, with the person's email, for every role", async () => {
      for (const role of ["support", "finance", "owner"] as const) {
        const entries = await log(operators[role]);
        expect(entries.map((entry) => entry.id)).toEqual(ids);
      }
      expect((await log(operators.support)).find((entry) => entry.user_id === ana)?.email).toBe(`${ana}@example.com`);
      expect((await dbRefusal(log("no-such-operator"))).hint).toBe("operator_role_required");
    });

    it("narrows to refused ones, one person's, one transaction's, and their combinations", async () => {
      expect((await log(operators.support, { p_refused_only: true })).map((entry) => entry.verdict)).toEqual([
        "refused",
        "refused",
      ]);
      expect((await log(operators.support, { p_user_id: ana })).map((entry) => entry.transaction_id)).toEqual([
        "tx-3",
        "tx-1",
        "tx-1",
      ]);
      expect((await log(operators.support, { p_transaction_id: "tx-1" })).map((entry) => entry.verdict)).toEqual([
        "duplicate",
        "credited",
      ]);
      expect(await log(operators.support, { p_user_id: ana, p_refused_only: true })).toHaveLength(1);
      expect(await log(operators.support, { p_transaction_id: "tx-2", p_user_id: ana })).toEqual([]);
    });

    it("pages by entry: older than p_before, and nothing past an entry that is gone", async () => {
      const first = await log(operators.support, { p_limit: 2 });
      expect(first.map((entry) => entry.id)).toEqual(ids.slice(0, 2));
      const second = await log(operators.support, { p_limit: 2, p_before: first[1]!.id });
      expect(second.map((entry) => entry.id)).toEqual(ids.slice(2, 4));
      expect(await log(operators.support, { p_before: 9_000_000_000 })).toEqual([]);
      expect((await dbRefusal(log(operators.support, { p_limit: 1001 }))).hint).toBe("invalid_log_limit");
    });
  });

  describe("the audit entry of a test postback", () => {
    const record = (operatorId: string, userId: string, transactionId: string, coins = 100) =>
      t.db.rpc<{ recorded: boolean }>("operator_record_test_postback", {
        p_operator_id: operatorId,
        p_network: "bitlabs",
        p_user_id: userId,
        p_transaction_id: transactionId,
        p_coins: coins,
      });
    const entriesOf = (userId: string) =>
      t.sql<Audit>(
        "select actor, actor_user_id, action, record_kind, record_id, user_id, reason, before, after, detail from operator_actions where action = 'test_postback' and user_id = $1",
        [userId],
      );

    it("names the account it credits, the network, the transaction and the coins; the same transaction twice is recorded once", async () => {
      const person = await provision();
      const transaction = `sim-${randomUUID()}`;
      expect(await record(operators.owner, person, transaction)).toEqual({ recorded: true });
      expect(await record(operators.owner, person, transaction)).toEqual({ recorded: false });
      expect(await entriesOf(person)).toEqual([
        expect.objectContaining({
          actor_user_id: operators.owner,
          record_kind: "account",
          record_id: person,
          user_id: person,
          after: { network: "bitlabs", transaction_id: transaction, coins: 100, email: `${person}@example.com` },
          reason: `Test postback from the console: 100 coins through bitlabs to ${person}@example.com`,
        }),
      ]);
    });

    it("is an owner's only, for an account that exists, 1 to 1,000 coins, a transaction the page made", async () => {
      const person = await provision();
      const transaction = `sim-${randomUUID()}`;
      for (const role of ["support", "finance"] as const) {
        expect((await dbRefusal(record(operators[role], person, transaction))).hint).toBe("operator_role_required");
      }
      expect((await dbRefusal(record(operators.owner, "no-such-account", transaction))).hint).toBe("account_not_found");
      expect((await dbRefusal(record(operators.owner, person, transaction, 1001))).hint).toBe("invalid_coins");
      expect((await dbRefusal(record(operators.owner, person, transaction, 0))).hint).toBe("invalid_coins");
      expect((await dbRefusal(record(operators.owner, person, "real-transaction-1"))).hint).toBe(
        "invalid_test_postback",
      );
      expect(await entriesOf(person)).toEqual([]);
    });
  });
});
