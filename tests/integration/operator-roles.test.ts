import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbRefusal, openTestPglite, type TestDatabase } from "../support/db";
import { provisionMember } from "../support/arrange";

// The operator console's roles and audit log in SQL (supabase/migrations/20261202210000_operator_roles.sql,
// docs/operator-console.md): grant and revoke change `operators` and append to operator_actions in
// one transaction, the log stays append-only, and require_operator_role ranks support < finance < owner.

interface AuditEntry {
  id: number;
  actor: string;
  actor_user_id: string | null;
  action: string;
  record_kind: string | null;
  record_id: string | null;
  user_id: string | null;
  reason: string | null;
  before: unknown;
  after: unknown;
}

describe("operator roles and the audit log in SQL", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await openTestPglite();
  });
  afterAll(async () => {
    await t?.close();
  });

  // Plain accounts, not provisionOperator: granting the role is what these tests try.
  const provision = () => provisionMember(t, { prefix: "op", name: "Operator" });

  const grant = (userId: string, role: string, actorUserId: string | null = null) =>
    t.db.rpc<{ changed: boolean; role: string; previous_role: string | null }>("grant_operator_role", {
      p_actor: "ops-anna",
      p_user_id: userId,
      p_role: role,
      p_actor_user_id: actorUserId,
    });
  const revoke = (userId: string) =>
    t.db.rpc<{ changed: boolean; previous_role: string | null }>("revoke_operator_role", {
      p_actor: "ops-anna",
      p_user_id: userId,
      p_actor_user_id: null,
    });
  const roleOf = (userId: string) => t.db.rpc<string | null>("operator_role", { p_user_id: userId });
  const auditOf = (userId: string) =>
    t.sql<AuditEntry>(
      "select id, actor, actor_user_id, action, record_kind, record_id, user_id, reason, before, after from operator_actions where user_id = $1 order by id",
      [userId],
    );
  // text[] is called from SQL (operator functions), not through the app's rpc, which sends JSON.
  const requireRole = async (operatorId: string, minimum: string[]) =>
    (await t.sql<{ role: string }>("select require_operator_role($1, $2::text[]) as role", [operatorId, minimum]))[0]!
      .role;
  /** The rule a raw SQL statement broke (its hint). */
  const hintOf = (promise: Promise<unknown>) =>
    promise.then(
      () => "(no refusal)",
      (error: { hint?: string }) => error.hint,
    );

  it("grant, change and revoke each write the role row and one audit entry with the role before and after", async () => {
    const userId = await provision();
    expect(await grant(userId, "support")).toMatchObject({ changed: true, role: "support", previous_role: null });
    expect(await roleOf(userId)).toBe("support");
    expect(await grant(userId, "support")).toMatchObject({ changed: false });
    expect(await grant(userId, "owner")).toMatchObject({ changed: true, role: "owner", previous_role: "support" });
    expect(await revoke(userId)).toMatchObject({ changed: true, previous_role: "owner" });
    expect(await revoke(userId)).toMatchObject({ changed: false, previous_role: null });
    expect(await roleOf(userId)).toBeNull();

    const audit = await auditOf(userId);
    const common = {
      actor: "ops-anna",
      actor_user_id: null,
      record_kind: "operator",
      record_id: userId,
      user_id: userId,
    };
    expect(audit).toEqual([
      expect.objectContaining({ ...common, action: "grant_role", before: null, after: { role: "support" } }),
      expect.objectContaining({
        ...common,
        action: "grant_role",
        before: { role: "support" },
        after: { role: "owner" },
      }),
      expect.objectContaining({ ...common, action: "revoke_role", before: { role: "owner" }, after: null }),
    ]);
  });

  it("a grant whose audit entry cannot be written leaves no role behind (one transaction)", async () => {
    const userId = await provision();
    await t.sql(`create function pg_temp.refuse_audit() returns trigger language plpgsql as $$
                 begin raise exception 'audit refused' using hint = 'audit_append_only'; end $$`);
    await t.sql(
      "create trigger refuse_audit before insert on operator_actions for each row execute function pg_temp.refuse_audit()",
    );
    try {
      await dbRefusal(grant(userId, "finance"));
    } finally {
      await t.sql("drop trigger refuse_audit on operator_actions");
    }
    expect(await roleOf(userId)).toBeNull();
    expect(await auditOf(userId)).toEqual([]);

    // And a revoke likewise: the role stays when its audit entry fails.
    await grant(userId, "finance");
    await t.sql(
      "create trigger refuse_audit before insert on operator_actions for each row execute function pg_temp.refuse_audit()",
    );
    try {
      await dbRefusal(revoke(userId));
    } finally {
      await t.sql("drop trigger refuse_audit on operator_actions");
    }
    expect(await roleOf(userId)).toBe("finance");
  });

  it("refuses an unknown role and an unknown account, writing nothing", async () => {
    const userId = await provision();
    expect((await dbRefusal(grant(userId, "admin"))).hint).toBe("invalid_operator_role");
    expect((await dbRefusal(grant("no-such-account", "owner"))).hint).toBe("account_not_found");
    expect(await auditOf(userId)).toEqual([]);
    expect(await auditOf("no-such-account")).toEqual([]);
  });

  it("operator_actions stays append-only: role entries can be neither changed nor deleted", async () => {
    const userId = await provision();
    await grant(userId, "support");
    expect(await hintOf(t.sql("update operator_actions set after = '{}' where user_id = $1", [userId]))).toBe(
      "audit_append_only",
    );
    expect(await hintOf(t.sql("delete from operator_actions where user_id = $1", [userId]))).toBe("audit_append_only");
    expect(await auditOf(userId)).toHaveLength(1);
  });

  it("require_operator_role ranks support < finance < owner and refuses people without a role", async () => {
    const [support, finance, owner, member] = [
      await provision(),
      await provision(),
      await provision(),
      await provision(),
    ];
    await grant(support, "support");
    await grant(finance, "finance");
    await grant(owner, "owner");

    expect(await requireRole(support, ["support"])).toBe("support");
    expect(await requireRole(finance, ["support"])).toBe("finance");
    expect(await requireRole(owner, ["finance"])).toBe("owner");
    expect(await hintOf(requireRole(support, ["finance"]))).toBe("operator_role_required");
    expect(await hintOf(requireRole(finance, ["owner"]))).toBe("operator_role_required");
    expect(await hintOf(requireRole(member, ["support"]))).toBe("operator_role_required");
    // Several roles: the lowest of them is enough.
    expect(await requireRole(finance, ["owner", "finance"])).toBe("finance");
    expect(await hintOf(requireRole(owner, ["root"]))).toBe("invalid_operator_role");
    expect(await hintOf(requireRole(owner, []))).toBe("invalid_operator_role");
  });

  it("a grant from the console needs an owner: a finance operator's grant is refused", async () => {
    const [finance, owner, person] = [await provision(), await provision(), await provision()];
    await grant(finance, "finance");
    await grant(owner, "owner");
    expect((await dbRefusal(grant(person, "support", finance))).hint).toBe("operator_role_required");
    expect(await roleOf(person)).toBeNull();
    expect(await grant(person, "support", owner)).toMatchObject({ changed: true });
    expect((await auditOf(person)).at(-1)).toMatchObject({ action: "grant_role", actor_user_id: owner });
  });

  it("list_operator_actions reads the log newest first a page at a time, for operators only", async () => {
    const [reader, member] = [await provision(), await provision()];
    await grant(reader, "support");
    const people = [await provision(), await provision(), await provision()];
    for (const person of people) await grant(person, "support");
    const list = (before: number | null, limit: number, operatorId = reader) =>
      t.db.rpc<AuditEntry[]>("list_operator_actions", { p_operator_id: operatorId, p_before: before, p_limit: limit });

    const first = await list(null, 2);
    expect(first.map((entry) => entry.record_id)).toEqual([people[2], people[1]]);
    const next = await list(first.at(-1)!.id, 2);
    expect(next.map((entry) => entry.record_id)).toEqual([people[0], reader]);
    expect(next[0]!.id).toBeLessThan(first.at(-1)!.id);
    expect((await dbRefusal(list(null, 2, member))).hint).toBe("operator_role_required");
  });

  it("list_operator_actions names the record of entries written before record_kind existed (a withdrawal, else an account)", async () => {
    const [reader, person] = [await provision(), await provision()];
    await grant(reader, "support");
    const withdrawalId = "6f1d7a52-3c0e-4a8e-9a55-0d4c1a2b3c4d";
    await t.sql(
      "insert into operator_actions (actor, action, user_id, reason) values ('ops', 'pause', $1, 'checking')",
      [person],
    );
    await t.sql(
      "insert into operator_actions (actor, action, user_id, withdrawal_id) values ('ops', 'approve', $1, $2)",
      [person, withdrawalId],
    );
    const [approve, pause] = await t.db.rpc<AuditEntry[]>("list_operator_actions", {
      p_operator_id: reader,
      p_before: null,
      p_limit: 2,
    });
    expect(approve).toMatchObject({ action: "approve", record_kind: "withdrawal", record_id: withdrawalId });
    expect(pause).toMatchObject({ action: "pause", record_kind: "account", record_id: person, reason: "checking" });
  });

  it("deleting an operator's account takes the role away and keeps the audit entries", async () => {
    const userId = await provision();
    await grant(userId, "owner");
    await t.sql("delete from user_profiles where id = $1", [userId]);
    expect(await t.sql("select 1 from operators where user_id = $1", [userId])).toEqual([]);
    expect(await auditOf(userId)).toHaveLength(1);
  });
});
