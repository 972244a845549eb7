import { createCookie } from "@remix-run/node";
import type { NotificationKind, NotificationPreferences } from "~/domain/notifications";
import { dbCall } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";

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
  /** True when the token is not on file or was registered 7 days ago or more (docs/product.md, "Profile: notification settings"). */
  refresh: boolean;
}

/**
 * user_fcm_tokens (docs/product.md, "Profile: notification settings"): stores this device's token (again: renews it; held by another account:
 * moves it here). `device_id` is its row, for this browser's cookie.
 */
export async function registerPushToken(
  userId: string,
  token: string,
): Promise<PushTokenStatus & { device_id: number | null }> {
  const db = await getDatabase();
  return db.rpc("register_push_token", { p_user_id: userId, p_token: token });
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

// ---------------------------------------------------------------------------------------------
// This browser's push token
//
// Log out must forget the token of the device it happens on, with or without JavaScript, and
// the log-out form cannot know it (the Firebase SDK holds it). So registering a token also sets
// a cookie naming its row (`__push_device`: signed with SESSION_SECRET, HttpOnly, a year): log
// out, deactivation and deletion delete that row, and a sign-in by another account deletes it too
// (its previous owner never logged out). A token is one browser's, and belongs to one account at
// a time (registering it moves it), so deleting its row deletes it for everyone.

const PUSH_DEVICE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

let deviceCookie: ReturnType<typeof createCookie> | undefined;
function pushDeviceCookie() {
  const env = getEnv();
  deviceCookie ??= createCookie("__push_device", {
    httpOnly: true,
    sameSite: "lax",
    secure: env.isProduction,
    path: "/",
    secrets: [env.sessionSecret],
  });
  return deviceCookie;
}

/** The Set-Cookie that remembers this browser's push token row. */
export function rememberPushDevice(deviceId: number): Promise<string> {
  return pushDeviceCookie().serialize(deviceId, { maxAge: PUSH_DEVICE_MAX_AGE_SECONDS });
}

/** The Set-Cookie that forgets it. */
export function clearedPushDeviceCookie(): Promise<string> {
  return pushDeviceCookie().serialize("", { maxAge: 0 });
}

async function pushDeviceOf(request: Request): Promise<number | null> {
  const header = request.headers.get("cookie");
  if (!header?.includes("__push_device=")) return null;
  // A cookie whose signature does not match reads as null.
  const value: unknown = await pushDeviceCookie().parse(header);
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/**
 * Deletes this browser's push token (log out; with `exceptUserId`, a sign-in: unless it is that
 * account's). Says whether the browser had one; a failure is logged and the token stays.
 */
export async function forgetPushDevice(request: Request, exceptUserId: string | null = null): Promise<boolean> {
  const deviceId = await pushDeviceOf(request);
  if (deviceId === null) return false;
  try {
    const db = await getDatabase();
    await db.rpc("forget_push_device", { p_device_id: deviceId, p_except_user_id: exceptUserId });
  } catch (error) {
    console.error("push: this device's token could not be forgotten:", error instanceof Error ? error.message : error);
  }
  return true;
}
