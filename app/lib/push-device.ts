// Whether this device already receives push, read without the Firebase SDK (push.client.ts), so
// that Profile downloads it only for a device that has push to renew, or when push is turned on.

/** Where this device keeps the push token it registered. */
export const STORED_PUSH_TOKEN = "rewards:push-token";

/** Whether this device receives push now: permission given and a token stored. */
export function pushActiveOnThisDevice(): boolean {
  return (
    typeof Notification !== "undefined" &&
    Notification.permission === "granted" &&
    Boolean(localStorage.getItem(STORED_PUSH_TOKEN))
  );
}

/** Whether this browser can receive web push at all. */
export function pushSupportedHere(): boolean {
  return typeof Notification !== "undefined" && "serviceWorker" in navigator && "PushManager" in window;
}

/** Whether the person refused notifications to this site (only the browser's settings can undo it). */
export function pushBlockedHere(): boolean {
  return typeof Notification !== "undefined" && Notification.permission === "denied";
}
