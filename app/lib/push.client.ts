// Web push on this device (docs/product.md, "Profile: notification settings": permission, then a device token, refreshed after 7 days).
// Loaded only when the person turns push on (or has it on and opens Profile): the Firebase
// messaging SDK comes with it, never with the page.

import { pushActiveOnThisDevice, STORED_PUSH_TOKEN } from "./push-device";

export interface PushConfig {
  apiKey: string;
  projectId: string;
  appId: string;
  messagingSenderId: string;
  vapidKey: string;
}

export class PushUnavailableError extends Error {
  name = "PushUnavailableError";
}

async function tokens(intent: "register" | "status" | "delete", token: string) {
  const response = await fetch("/api/push-tokens", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ intent, token }),
  });
  if (!response.ok) throw new PushUnavailableError(`push token ${intent} answered ${response.status}`);
  return (await response.json()) as { registered?: boolean; refresh?: boolean };
}

async function messaging(config: PushConfig) {
  const [{ getApps, initializeApp }, sdk] = await Promise.all([import("firebase/app"), import("firebase/messaging")]);
  const app =
    getApps().find((existing) => existing.name === "push") ??
    initializeApp(
      {
        apiKey: config.apiKey,
        projectId: config.projectId,
        appId: config.appId,
        messagingSenderId: config.messagingSenderId,
      },
      "push",
    );
  return { sdk, instance: sdk.getMessaging(app) };
}

async function newToken(config: PushConfig, registration: ServiceWorkerRegistration) {
  const { sdk, instance } = await messaging(config);
  const token = await sdk.getToken(instance, { vapidKey: config.vapidKey, serviceWorkerRegistration: registration });
  await tokens("register", token);
  localStorage.setItem(STORED_PUSH_TOKEN, token);
  return token;
}

/**
 * Asks for permission, registers /service-worker.js, gets this device's FCM token and stores it.
 * Throws when any step fails (permission denied, no push in this browser, FCM unreachable).
 */
export async function enablePush(config: PushConfig | null): Promise<void> {
  if (!("Notification" in window) || !("serviceWorker" in navigator) || !("PushManager" in window)) {
    throw new PushUnavailableError("this browser has no web push");
  }
  if ((await Notification.requestPermission()) !== "granted") throw new PushUnavailableError("permission denied");
  const registration = await navigator.serviceWorker.register("/service-worker.js", { scope: "/" });
  if (!config) throw new PushUnavailableError("web push is not configured on the server");
  await newToken(config, registration);
}

/** Forgets this device's token, on the server and in FCM. */
export async function disablePush(config: PushConfig | null): Promise<void> {
  const token = localStorage.getItem(STORED_PUSH_TOKEN);
  localStorage.removeItem(STORED_PUSH_TOKEN);
  if (!token) return;
  await tokens("delete", token);
  if (config)
    await messaging(config)
      .then(({ sdk, instance }) => sdk.deleteToken(instance))
      .catch(() => {});
}

/**
 * docs/product.md, "Profile: notification settings": a token is refreshed after 7 days (the server says when it is due). A token the server
 * no longer holds for this account (a log out, another account on this browser, FCM dropped it)
 * is forgotten here instead of registered again: the person turns push on for this device anew.
 * Resolves to whether this device still receives push.
 */
export async function refreshPushTokenIfDue(config: PushConfig | null): Promise<boolean> {
  const token = localStorage.getItem(STORED_PUSH_TOKEN);
  if (!token || !pushActiveOnThisDevice()) return false;
  const status = await tokens("status", token);
  if (!status.registered) {
    localStorage.removeItem(STORED_PUSH_TOKEN);
    return false;
  }
  if (!status.refresh || !config) return true;
  const registration = await navigator.serviceWorker.register("/service-worker.js", { scope: "/" });
  await newToken(config, registration);
  return true;
}
