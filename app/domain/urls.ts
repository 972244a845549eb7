// URL builders: UI state lives in the URL so the server can render it without JavaScript.
import type { AuthTab } from "~/domain/auth";
import type { TaskFilter } from "~/domain/tasks";

/** /earn URLs that keep the search and the filter. */
export function earnHref(params: { q: string; type: TaskFilter; task?: string; started?: boolean }) {
  const search = new URLSearchParams();
  if (params.q) search.set("q", params.q);
  if (params.type !== "all") search.set("type", params.type);
  if (params.task) search.set("task", params.task);
  if (params.started) search.set("started", "1");
  return withQuery("/earn", search);
}

/** /auth URLs for a tab, keeping where to go after signing in. */
export function authHref(tab: AuthTab, redirectTo = "/", referralCode: string | null = null) {
  const search = new URLSearchParams();
  // Sign In is the default tab; with a code in the link it must be named to win over Sign Up.
  if (tab === "signup" || referralCode) search.set("tab", tab);
  if (redirectTo !== "/") search.set("redirectTo", redirectTo);
  if (referralCode) search.set("ref", referralCode);
  return withQuery("/auth", search);
}

function withQuery(path: string, search: URLSearchParams) {
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * Home's address that asks the identity provider whether the email is verified: where the
 * verification email's link returns to, and where Home's "Check again" goes.
 */
export const VERIFIED_CHECK_PARAM = "verified";
export const VERIFIED_CHECK_PATH = `/?${VERIFIED_CHECK_PARAM}=1`;
