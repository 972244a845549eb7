/** A new account is greeted for its first day; "Welcome back" is for people who come back after it. */
const NEW_ACCOUNT_MS = 24 * 60 * 60 * 1000;

/** docs/product.md, "Home": "Welcome" in the first 24 hours after sign-up, "Welcome back" afterwards. */
export function homeGreeting(accountCreatedAt: string, now: Date): "Welcome" | "Welcome back" {
  const created = Date.parse(accountCreatedAt);
  // An unreadable date is treated as an old account: "Welcome back" was the greeting before.
  return Number.isFinite(created) && now.getTime() - created < NEW_ACCOUNT_MS ? "Welcome" : "Welcome back";
}
