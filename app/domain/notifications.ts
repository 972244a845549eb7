// Notification settings (docs/product.md, "Profile: notification settings"): the five switches, all on by default.

export const NOTIFICATION_KINDS = ["email", "push", "marketing", "withdrawal", "reward"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export type NotificationPreferences = Record<NotificationKind, boolean>;

export const NOTIFICATION_SETTINGS: readonly { kind: NotificationKind; label: string; detail: string }[] = [
  { kind: "email", label: "Email notifications", detail: "Updates sent to your email address" },
  // The switch is the account's; each device's own state is the line under it (docs/decisions/071).
  { kind: "push", label: "Push notifications", detail: "Alerts on the devices where you enable them" },
  { kind: "marketing", label: "Marketing", detail: "News and special offers" },
  { kind: "withdrawal", label: "Withdrawal updates", detail: "When a withdrawal is paid or fails" },
  { kind: "reward", label: "Reward alerts", detail: "When you earn coins or a referral bonus" },
];

export const NOTIFICATION_MESSAGES = {
  // docs/product.md, "Profile: notification settings", word for word.
  updated: "Notification preferences updated",
  updateFailed: "Failed to update notification preferences",
  pushFailed: "Could not enable notifications",
  pushFailedDetail: "Please check your browser settings and try again.",
  pushNeedsJavaScript: "This device needs JavaScript to receive push notifications.",
} as const;

/** What push is on this device, under the account's switch (docs/decisions/071-settings-is-a-real-page.md). */
export type PushDeviceState = "enabled" | "not-enabled" | "blocked" | "unsupported" | "off";

export const PUSH_DEVICE_LINES: Record<PushDeviceState, string> = {
  enabled: "On this device: enabled.",
  "not-enabled": "On this device: not enabled yet.",
  blocked: "On this device: blocked in browser settings.",
  unsupported: "On this device: not available in this browser.",
  // The account's switch is off: no device receives push.
  off: "On this device: off.",
};
