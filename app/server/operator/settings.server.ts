import {
  isSettingKey,
  type SettingChange,
  type SettingKey,
  type SettingValue,
  type SettingValues,
  type WaitingSettingChange,
} from "~/domain/settings";
import { forgetAppConfig } from "../runtime/config.server";
import { dbCall, ruleViolation, type DbError } from "../db/core.server";
import { getDatabase } from "../db/database.server";

/**
 * The console's settings (docs/operator-console.md, "Settings"): app_config read by any operator
 * (operator_settings) and changed by an owner (operator_set_settings, which checks the role, the
 * allow-list and the bounds, and audits each change in the same transaction). Every server drops
 * its cached copy of app_config when the database announces a change (runtime/config.server.ts), and the
 * server that saved drops its own at once, so people see a change on their next page.
 */

/** The settings as the database holds them, and the row's version, which a save carries back. */
export interface StoredSettings {
  /** Every app_config column but its key, settings or not (a column the console does not list yet too). */
  settings: SettingValues & Record<string, unknown>;
  version: string;
  /** Changes that loosen policy, waiting for a second owner, oldest first. */
  waiting: WaitingSettingChange[];
}

export const SETTING_CHANGES_PAGE_SIZE = 20;

export function settingsCall(operatorId: string) {
  return dbCall<StoredSettings>("operator_settings", { p_operator_id: operatorId });
}

/** The changes older than `before` (null: the newest), one more than a page to tell whether there is another. */
export function settingChangesCall(operatorId: string, before: number | null) {
  return dbCall<SettingChange[]>("list_setting_changes", {
    p_operator_id: operatorId,
    p_before: before,
    p_limit: SETTING_CHANGES_PAGE_SIZE + 1,
  });
}

/** A page of changes from what settingChangesCall read: the page, and the `before` of the older one (or null). */
export function settingChangesPage(read: SettingChange[]) {
  const changes = read.slice(0, SETTING_CHANGES_PAGE_SIZE);
  return { changes, olderBefore: read.length > SETTING_CHANGES_PAGE_SIZE ? changes.at(-1)!.id : null };
}

export interface SavedSettings {
  changed: { setting: SettingKey; before: SettingValue; after: SettingValue }[];
  /** The loosening part of the save, now waiting for a second owner; null when there was none. */
  waiting: { id: number; settings: Partial<Record<SettingKey, SettingValue>>; apply_after: string | null } | null;
  version: string;
}

/**
 * Saves `values` as the owner `operator`: only those that differ from the database's are changed
 * and audited. `version` is the one the form was shown with: if another save came in between,
 * the database refuses (settings_changed) and nothing changes.
 */
export async function saveSettings(
  operator: { uid: string; name: string },
  { values, reason, version }: { values: Partial<SettingValues>; reason: string; version: string },
): Promise<SavedSettings> {
  const database = await getDatabase();
  const saved = await database.rpc<SavedSettings>("operator_set_settings", {
    p_operator_id: operator.uid,
    // The audit log keeps a name of up to 100 characters (operator_actor); the id says exactly who.
    p_actor: operator.name.slice(0, 100),
    p_changes: values,
    p_reason: reason,
    p_version: version,
  });
  if (saved.changed.length > 0) forgetAppConfig();
  return saved;
}

/** Approves (applies) or withdraws a waiting change; SQL checks that another owner approves it. */
export async function decideSettingChange(
  operator: { uid: string; name: string },
  changeId: number,
  approve: boolean,
): Promise<{ state: "applied" | "withdrawn" | "waiting"; changed: boolean }> {
  const result = await (
    await getDatabase()
  ).rpc<{ state: "applied" | "withdrawn" | "waiting"; changed: boolean }>("operator_decide_setting_change", {
    p_operator_id: operator.uid,
    p_actor: operator.name.slice(0, 100),
    p_change_id: changeId,
    p_approve: approve,
  });
  if (result.changed && approve) forgetAppConfig();
  return result;
}

/** The setting a database refusal names (invalid_setting carries it as its detail), for its field. */
export function refusedSetting(error: unknown): SettingKey | undefined {
  if (ruleViolation(error)?.rule !== "invalid_setting") return undefined;
  const detail = (error as DbError).details;
  return isSettingKey(detail) ? detail : undefined;
}
