// Notification settings (docs/product.md, "Profile: notification settings"): the five switches, all on by default.

export const NOTIFICATION_KINDS = ["email", "push", "marketing", "withdrawal", "reward"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export type NotificationPreferences = Record<NotificationKind, boolean>;

export const NOTIFICATION_SETTINGS: readonly { kind: NotificationKind; label: string; detail: string }[] = [
  { kind: "email", label: "Email notifications", detail: "Updates sent to your email address" },
  { kind: "push", label: "Push notifications", detail: "Alerts on this device" },
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
