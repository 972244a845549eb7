import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleMessage } from "~/domain/rules";
import { invalidSettingMessage, NOT_SETTINGS, SETTINGS, type Setting, type SettingValue } from "~/domain/settings";
import { ruleViolation } from "~/server/db/core.server";
import { dbRefusal, openTestPglite, type TestDatabase } from "../support/db";
import { provisionMember, provisionOperator } from "../support/arrange";
import {
  INVALID_GOAL_LISTS,
  INVALID_LEVEL_LISTS,
  INVALID_PRIZE_LISTS,
  VALID_GOAL_LISTS,
  VALID_LEVEL_LISTS,
  VALID_PRIZE_LISTS,
} from "../support/loop-samples";

// The console's settings in SQL (supabase/migrations/20261202300000_operator_settings.sql,
// docs/operator-console.md, "Settings"): who may read and change them, the allow-list and the
// bounds (the same as app/domain/settings.ts), one audit entry per changed setting in the same
// transaction, and nothing written on a refusal.

interface SettingsRead {
  settings: Record<string, SettingValue>;
  version: string;
}
interface SettingsSaved {
  changed: { setting: string; before: SettingValue; after: SettingValue }[];
  waiting: { id: number; settings: Record<string, SettingValue>; apply_after: string | null } | null;
  version: string;
}
interface AuditRow {
  actor: string;
  actor_user_id: string | null;
  action: string;
  record_kind: string;
  record_id: string;
  user_id: string | null;
  reason: string | null;
  before: unknown;
  after: unknown;
}

describe("the console's settings in SQL", () => {
  let t: TestDatabase;
  let owner: string;
  let secondOwner: string;
  let finance: string;
  let support: string;
  let member: string;

  const person = (role: "owner" | "finance" | "support" | null) =>
    role ? provisionOperator(t, role, "settings") : provisionMember(t, { prefix: "settings", name: "Settings" });

  beforeAll(async () => {
    t = await openTestPglite();
    [owner, secondOwner, finance, support, member] = [
      await person("owner"),
      await person("owner"),
      await person("finance"),
      await person("support"),
      await person(null),
    ];
  });
  afterAll(async () => {
    await t?.close();
  });

  const read = (operatorId = owner) => t.db.rpc<SettingsRead>("operator_settings", { p_operator_id: operatorId });
  const ask = (
    changes: unknown,
    { operatorId = owner, reason = "Testing the settings", version = null as string | null } = {},
  ) =>
    t.db.rpc<SettingsSaved>("operator_set_settings", {
      p_operator_id: operatorId,
      p_actor: "Ana Owner",
      p_changes: changes,
      p_reason: reason,
      p_version: version,
    });
  const decide = (changeId: number, approve: boolean, operatorId = secondOwner) =>
    t.db.rpc<{ state: string; changed: boolean }>("operator_decide_setting_change", {
      p_operator_id: operatorId,
      p_actor: "Bo Owner",
      p_change_id: changeId,
      p_approve: approve,
    });
  /** A save as it ends up once a second owner approved what waits for one (the loosening part). */
  const save = async (changes: unknown, options: Parameters<typeof ask>[1] = {}) => {
    const saved = await ask(changes, options);
    if (saved.waiting) await decide(saved.waiting.id, true);
    return saved;
  };
  const settingAudit = () =>
    t.sql<AuditRow>(
      `select actor, actor_user_id, action, record_kind, record_id, user_id, reason, before, after
         from operator_actions where record_kind = 'setting' order by id`,
    );
  /** The row as it is, and its transaction id (xmin): unchanged when nothing touched it. */
  const snapshot = async () =>
    (
      await t.sql<{ row: Record<string, unknown>; xmin: string }>("select to_jsonb(c) as row, xmin from app_config c")
    )[0]!;

  /** The refusal, as the app reads it (its rule key and detail). */
  async function refusal(promise: Promise<unknown>) {
    const error = await dbRefusal(promise);
    return { hint: error.hint, detail: error.details ?? null };
  }

  it("every operator role reads every app_config column but its key, with the row's version; a member cannot", async () => {
    const columns = await t.sql<{ name: string }>(
      `select column_name as name from information_schema.columns
        where table_schema = 'public' and table_name = 'app_config' and column_name <> 'id'`,
    );
    for (const operatorId of [owner, finance, support]) {
      const { settings, version } = await read(operatorId);
      expect(Object.keys(settings).sort()).toEqual(columns.map(({ name }) => name).sort());
      expect(version).toMatch(/^[0-9a-f]{32}$/);
    }
    expect((await refusal(read(member))).hint).toBe("operator_role_required");
  });

  it("the settings the console lists are exactly the columns the database lets it change", async () => {
    const { settings } = await read();
    const columns = Object.keys(settings).filter((column) => !(column in NOT_SETTINGS));
    expect(SETTINGS.map(({ key }) => key).sort()).toEqual(columns.sort());
    // The key is not returned; the rupee rate's date and anchor are the database's own.
    expect(Object.keys(NOT_SETTINGS).sort()).toEqual(["id", "usd_inr_rate_anchor", "usd_inr_rate_set_at"]);
    expect(Object.keys(settings)).toEqual(expect.arrayContaining(["usd_inr_rate_anchor", "usd_inr_rate_set_at"]));
  });

  /** Valid values a setting can be changed to, and values its bounds refuse (app/domain/settings.ts). */
  function valuesOf(setting: Setting): { valid: SettingValue[]; invalid: unknown[] } {
    switch (setting.unit) {
      case "boolean":
        return { valid: [true, false], invalid: ["yes", 1, null, [true]] };
      case "flags":
        return {
          valid: [["vpn", "proxy", "tor", "relay", "hosting"], ["hosting"], []],
          invalid: [null, "vpn", ["VPN"], ["vpn", "vpn"], ["mobile"], [true], { vpn: true }],
        };
      case "json":
        return {
          valid: [{ bitlabs: 14, "ad-gem2": 0 }, { "ok-net": 365 }, {}],
          invalid: [
            [],
            null,
            "{}",
            { Bitlabs: 14 },
            { b: 14 },
            { ["n".repeat(41)]: 1 },
            { "ok-net": 366 },
            { "ok-net": -1 },
            { "ok-net": 1.5 },
            { "ok-net": "14" },
            Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`net-${i}`, 1])),
          ],
        };
      case "levels":
        return { valid: VALID_LEVEL_LISTS as SettingValue[], invalid: INVALID_LEVEL_LISTS };
      case "prizes":
        return { valid: VALID_PRIZE_LISTS, invalid: INVALID_PRIZE_LISTS };
      case "goals":
        return { valid: VALID_GOAL_LISTS as SettingValue[], invalid: INVALID_GOAL_LISTS };
      default: {
        const step =
          setting.unit === "rupees" ? 0.0001 : setting.unit === "dollars" || setting.unit === "ratio" ? 0.01 : 1;
        const below = Math.round((setting.min - step) * 10_000) / 10_000;
        const above = Math.round((setting.max + step) * 10_000) / 10_000;
        return {
          valid: [setting.max, setting.min, ...(setting.empty ? [null] : [])],
          invalid: [
            below,
            above,
            String(setting.min),
            true,
            ...(setting.empty ? [] : [null]),
            // Finer than the unit: a third decimal of money (a fifth of a rate), a fraction of a whole number.
            step === 1 ? setting.min + 0.5 : setting.min + step / 10,
          ],
        };
      }
    }
  }

  for (const setting of SETTINGS) {
    it(`${setting.key}: takes its bounds' values and refuses the others with invalid_setting, as the form words it`, async () => {
      const { valid, invalid } = valuesOf(setting);
      const original = (await read()).settings[setting.key];
      for (const value of invalid) {
        const before = await snapshot();
        const error = await dbRefusal(save({ [setting.key]: value }));
        expect({ hint: error.hint, detail: error.details }, JSON.stringify(value)).toEqual({
          hint: "invalid_setting",
          detail: setting.key,
        });
        expect(ruleViolation(error)?.message).toBe(invalidSettingMessage(setting));
        expect(await snapshot()).toEqual(before);
      }
      for (const value of valid) {
        await save({ [setting.key]: value });
        const stored = (await read()).settings[setting.key];
        expect(stored, JSON.stringify(value)).toEqual(value);
      }
      await save({ [setting.key]: original });
    });
  }

  it("a loosening change with one owner waits policy_change_delay_hours: its owner cannot apply it before, can after; a notice reaches the owner", async () => {
    await t.sql("select revoke_operator_role('settings-test', $1)", [secondOwner]);
    try {
      const before = (await read()).settings.risk_review_threshold;
      const saved = await ask({ risk_review_threshold: 101 });
      expect(saved.changed).toEqual([]);
      expect(saved.waiting?.settings).toEqual({ risk_review_threshold: 101 });
      const hours = (Date.parse(saved.waiting!.apply_after!) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThanOrEqual(24);
      expect((await refusal(decide(saved.waiting!.id, true, owner))).hint).toBe("second_owner_required");
      expect((await read()).settings.risk_review_threshold).toBe(before);
      expect(
        await t.sql("select kind from user_notices where user_id = $1 and kind = 'policy_change_waiting'", [owner]),
      ).toHaveLength(1);
      // Delivered by push and email too, as an operator's notice under the support switch (with
      // no category, the delivery worker sent it nowhere).
      const claimed = await t.db.rpc<{ kind: string; user_id: string; preferences: { category: string | null } }[]>(
        "claim_due_notices",
        { p_limit: 100, p_lease_seconds: 300 },
      );
      const waiting = claimed.find((notice) => notice.kind === "policy_change_waiting" && notice.user_id === owner);
      expect(waiting?.preferences.category).toBe("support");
      await t.sql("update setting_changes set apply_after = now() - interval '1 minute' where id = $1", [
        saved.waiting!.id,
      ]);
      expect(await decide(saved.waiting!.id, true, owner)).toMatchObject({ state: "applied", changed: true });
      expect((await read()).settings.risk_review_threshold).toBe(101);
      await ask({ risk_review_threshold: before });
    } finally {
      await t.sql("select grant_operator_role('settings-test', $1, 'owner')", [secondOwner]);
    }
  });

  it("tightening applies at once and loosening waits: lower limits and thresholds, a review turned on, a longer window", async () => {
    await save({ adjustment_approval_above: 50, risk_review_threshold: 50, review_first_withdrawal: false });
    const tightened = await ask({
      adjustment_approval_above: 10,
      risk_review_threshold: 30,
      review_first_withdrawal: true,
    });
    expect(tightened.waiting).toBeNull();
    expect(tightened.changed.map((change) => change.setting).sort()).toEqual([
      "adjustment_approval_above",
      "review_first_withdrawal",
      "risk_review_threshold",
    ]);
    const loosened = await ask({
      adjustment_approval_above: 11,
      risk_review_threshold: 31,
      review_first_withdrawal: false,
    });
    expect(loosened.changed).toEqual([]);
    expect(loosened.waiting?.settings).toEqual({
      adjustment_approval_above: 11,
      risk_review_threshold: 31,
      review_first_withdrawal: false,
    });
    expect(await decide(loosened.waiting!.id, false, owner)).toMatchObject({ state: "withdrawn", changed: true });
    await save({ adjustment_approval_above: 50, risk_review_threshold: 50, review_first_withdrawal: true });
  });

  it("refuses a name that is no setting (the key, a column that does not exist, SQL) with unknown_setting, writing nothing", async () => {
    for (const name of ["id", "nonsense", "checkin_coins; drop table app_config", "CHECKIN_COINS", ""]) {
      const before = await snapshot();
      const audit = await settingAudit();
      // With a valid change beside it: all or nothing.
      expect((await refusal(save({ checkin_coins: 77, [name]: 1 }))).hint, name).toBe("unknown_setting");
      expect(await snapshot()).toEqual(before);
      expect(await settingAudit()).toEqual(audit);
    }
    expect((await refusal(save([["checkin_coins", 5]]))).hint).toBe("invalid_settings");
    expect((await refusal(save(null))).hint).toBe("invalid_settings");
  });

  it("only an owner changes settings: finance, support and a member are refused and nothing is written", async () => {
    const before = await snapshot();
    const audit = await settingAudit();
    for (const operatorId of [finance, support, member, "no-such-account"]) {
      expect((await refusal(save({ checkin_coins: 42 }, { operatorId }))).hint, operatorId).toBe(
        "operator_role_required",
      );
    }
    expect(await snapshot()).toEqual(before);
    expect(await settingAudit()).toEqual(audit);
  });

  it("writes one audit entry per changed setting, with before, after and the reason; an unchanged value writes none", async () => {
    await save({ checkin_coins: 10, min_withdrawal_upi: 1, review_first_withdrawal: false });
    const audit = await settingAudit();
    const saved = await save(
      // 1.00 is the UPI minimum as it is: unchanged, though written another way.
      { checkin_coins: 25, min_withdrawal_upi: 1.0, review_first_withdrawal: true, provider_hold_days: {} },
      { reason: "  Spring promotion  " },
    );
    expect(saved.changed).toEqual([
      { setting: "checkin_coins", before: 10, after: 25 },
      { setting: "review_first_withdrawal", before: false, after: true },
    ]);
    const added = (await settingAudit()).slice(audit.length);
    const common = {
      actor: "Ana Owner",
      actor_user_id: owner,
      action: "set_setting",
      record_kind: "setting",
      user_id: null,
      reason: "Spring promotion",
    };
    expect(added).toEqual([
      { ...common, record_id: "checkin_coins", before: { value: 10 }, after: { value: 25 } },
      { ...common, record_id: "review_first_withdrawal", before: { value: false }, after: { value: true } },
    ]);
    // The people's side reads the new value.
    expect(await t.db.rpc("get_app_config")).toMatchObject({ checkin_coins: 25 });
  });

  it("a save that changes nothing writes no audit entry and does not touch the row", async () => {
    const { settings } = await read();
    const before = await snapshot();
    const audit = await settingAudit();
    // Every setting as it stands (the console's form sends them all).
    const saved = await save(Object.fromEntries(SETTINGS.map(({ key }) => [key, settings[key]])));
    expect(saved.changed).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(await settingAudit()).toEqual(audit);
  });

  it("a refusal among valid changes writes nothing: no value, no audit entry", async () => {
    const before = await snapshot();
    const audit = await settingAudit();
    const error = await dbRefusal(save({ checkin_coins: 55, postback_hold_days: 366, withdrawals_per_hour: 9 }));
    expect({ hint: error.hint, detail: error.details }).toEqual({
      hint: "invalid_setting",
      detail: "postback_hold_days",
    });
    expect(await snapshot()).toEqual(before);
    expect(await settingAudit()).toEqual(audit);
  });

  it("refuses a missing, blank or hidden-character reason and a missing actor, writing nothing", async () => {
    const before = await snapshot();
    for (const [reason, hint] of [
      ["", "reason_required"],
      ["   ", "reason_required"],
      ["r".repeat(501), "invalid_reason"],
      ["why\u202E", "invalid_reason"],
    ] as const) {
      expect((await refusal(save({ checkin_coins: 33 }, { reason }))).hint, reason).toBe(hint);
    }
    const noActor = t.db.rpc("operator_set_settings", {
      p_operator_id: owner,
      p_actor: " ",
      p_changes: { checkin_coins: 33 },
      p_reason: "why",
    });
    expect((await refusal(noActor)).hint).toBe("operator_required");
    expect(await snapshot()).toEqual(before);
    expect(ruleMessage("reason_required")).toBe("A reason is required");
  });

  it("refuses a save made from an older version of the settings (another owner saved since), writing nothing", async () => {
    const { version: shown } = await read();
    const saved = await save({ checkin_coins: 61 }, { version: shown });
    expect(saved.version).toBe((await read()).version);
    expect(saved.version).not.toBe(shown);
    const before = await snapshot();
    const audit = await settingAudit();
    expect((await refusal(save({ checkin_coins: 62 }, { version: shown }))).hint).toBe("settings_changed");
    expect(await snapshot()).toEqual(before);
    expect(await settingAudit()).toEqual(audit);
    // The version of the page as it is now is accepted.
    expect((await save({ checkin_coins: 62 }, { version: saved.version })).changed).toHaveLength(1);
  });

  it("list_setting_changes reads only setting changes, newest first a page at a time, for every operator role", async () => {
    await save({ withdrawals_per_hour: 6 });
    await save({ withdrawals_per_hour: 7 });
    await save({ withdrawals_per_hour: 8 });
    const list = (before: number | null, limit: number, operatorId = support) =>
      t.db.rpc<{ id: number; setting: string; before: SettingValue; after: SettingValue; reason: string }[]>(
        "list_setting_changes",
        { p_operator_id: operatorId, p_before: before, p_limit: limit },
      );
    const first = await list(null, 2);
    expect(first.map(({ setting, before, after }) => ({ setting, before, after }))).toEqual([
      { setting: "withdrawals_per_hour", before: 7, after: 8 },
      { setting: "withdrawals_per_hour", before: 6, after: 7 },
    ]);
    const next = await list(first.at(-1)!.id, 1, finance);
    expect(next).toHaveLength(1);
    expect(next[0]!.id).toBeLessThan(first.at(-1)!.id);
    const everything = await list(null, 1000);
    expect(everything.every((change) => change.setting !== null)).toBe(true);
    expect(everything).toHaveLength((await settingAudit()).length);
    expect((await refusal(list(null, 2, member))).hint).toBe("operator_role_required");
    expect((await refusal(list(null, 0))).hint).toBe("invalid_log_limit");
  });
});
