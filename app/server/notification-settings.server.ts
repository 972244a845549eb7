import type { NotificationKind, NotificationPreferences } from "~/domain/notifications";
import { dbCall } from "./db/core.server";
import { getDatabase } from "./db/database.server";

export function notificationPreferencesCall(userId: string) {
  return dbCall<NotificationPreferences>("get_notification_preferences", { p_user_id: userId });
}

export async function setNotificationPreference(userId: string, kind: NotificationKind, enabled: boolean) {
  const db = await getDatabase();
  return db.rpc<NotificationPreferences>("set_notification_preference", {
    p_user_id: userId,
    p_kind: kind,
    p_enabled: enabled,
  });
}

export interface PushTokenStatus {
  registered: boolean;
  /** True when the token is not on file or was registered 7 days ago or more (spec §9). */
  refresh: boolean;
}

/** Spec §7 user_fcm_tokens: stores this device's token (again: renews it). */
export async function registerPushToken(userId: string, token: string): Promise<PushTokenStatus> {
  const db = await getDatabase();
  return db.rpc<PushTokenStatus>("register_push_token", { p_user_id: userId, p_token: token });
}

export async function pushTokenStatus(userId: string, token: string): Promise<PushTokenStatus> {
  const db = await getDatabase();
  return db.rpc<PushTokenStatus>("push_token_status", { p_user_id: userId, p_token: token });
}

/** Turning push off forgets this device's token. */
export async function deletePushToken(userId: string, token: string) {
  const db = await getDatabase();
  return db.rpc<{ deleted: number }>("delete_push_token", { p_user_id: userId, p_token: token });
}
