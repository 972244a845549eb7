import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { AUTH_FORM_TOKEN_FIELD } from "~/domain/auth";
import { getEnv } from "../runtime/env.server";
import { cookieValue } from "./cookies.server";

/**
 * A token for the /auth form (login CSRF from browsers that send neither Origin nor Sec-Fetch-Site,
 * where the same-origin guard cannot tell a cross-site post). The page sets a random value in a
 * cookie only /auth receives and puts its HMAC in the form; a post must bring both. Another site
 * can neither read the cookie nor compute the HMAC without the server's secret.
 */
const COOKIE_NAME = "__auth_form";
const NONCE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function readNonce(request: Request): string | null {
  return cookieValue(request, COOKIE_NAME, NONCE_PATTERN);
}

function tokenFor(nonce: string): string {
  return createHmac("sha256", getEnv().sessionSecret).update(`auth-form:${nonce}`).digest("base64url");
}

/** The token for the page, and the cookie to set when the visitor has none yet. */
export function issueFormToken(request: Request): { token: string; setCookie: string | null } {
  const existing = readNonce(request);
  if (existing) return { token: tokenFor(existing), setCookie: null };
  const nonce = randomBytes(32).toString("base64url");
  const secure = getEnv().isProduction ? "; Secure" : "";
  // A browser-session cookie: the form it protects lives no longer than the open page.
  return { token: tokenFor(nonce), setCookie: `${COOKIE_NAME}=${nonce}; Path=/auth; HttpOnly; SameSite=Lax${secure}` };
}

/** Whether the posted token matches the visitor's cookie. */
export function hasValidFormToken(request: Request, form: FormData): boolean {
  const nonce = readNonce(request);
  const given = form.get(AUTH_FORM_TOKEN_FIELD);
  if (!nonce || typeof given !== "string") return false;
  const expected = Buffer.from(tokenFor(nonce));
  const received = Buffer.from(given);
  return received.length === expected.length && timingSafeEqual(received, expected);
}
