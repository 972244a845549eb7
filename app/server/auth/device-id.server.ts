import { randomBytes } from "node:crypto";
import { getEnv } from "../runtime/env.server";
import { cookieValue } from "../http/cookies.server";

/**
 * A first-party device id (docs/decisions/064): a random value in an HttpOnly cookie, set on the
 * first page a browser loads and kept for as long as browsers allow. It names nobody; the app
 * records only its keyed hash, at sign-up and sign-in (account/signals.server.ts), so the risk review can
 * see accounts made on one browser. `__auth_device` (device-cookie.server.ts) is not reused: it is
 * bound to one email address, scoped to /auth and set only by a sign-in.
 */
const COOKIE_NAME = "__device";
// Browsers cap a cookie's lifetime at 400 days.
const MAX_AGE_SECONDS = 400 * 24 * 60 * 60;
const VALUE_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** This browser's device id, if it has a well-formed one. */
export function readDeviceId(request: Request): string | null {
  return cookieValue(request, COOKIE_NAME, VALUE_PATTERN);
}

/** The browser's device id, and the cookie that gives it one when it has none yet. */
export function deviceId(request: Request): { id: string; setCookie: string | null } {
  const known = readDeviceId(request);
  if (known) return { id: known, setCookie: null };
  const id = randomBytes(16).toString("base64url");
  const secure = getEnv().isProduction ? "; Secure" : "";
  return { id, setCookie: `${COOKIE_NAME}=${id}; Path=/; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure}` };
}
