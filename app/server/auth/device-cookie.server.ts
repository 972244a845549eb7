import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getEnv } from "../runtime/env.server";
import { cookieValue } from "../http/cookies.server";

/**
 * A browser that has signed in as an e-mail address before (OWASP's "device cookie"). Its sign-ins
 * for that address are counted on their own, so an attacker hammering the address from elsewhere,
 * who slows everyone else down, cannot slow its owner down on their own devices
 * (attempt-limits.server.ts). The cookie holds a random nonce and an HMAC of it with the address,
 * keyed with SESSION_SECRET: it names no address, and nobody can make one for an address they have
 * not signed in as. One address per browser: the last one signed in with.
 */
const COOKIE_NAME = "__auth_device";
const MAX_AGE_SECONDS = 180 * 24 * 60 * 60;
const VALUE_PATTERN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

function normalized(email: string): string {
  return email.trim().toLowerCase();
}

function macFor(nonce: string, email: string): string {
  return createHmac("sha256", getEnv().sessionSecret)
    .update(`auth-device:${nonce}:${normalized(email)}`)
    .digest("base64url");
}

function readCookie(request: Request): { nonce: string; mac: string } | null {
  const match = VALUE_PATTERN.exec(cookieValue(request, COOKIE_NAME, VALUE_PATTERN) ?? "");
  return match ? { nonce: match[1]!, mac: match[2]! } : null;
}

/** The device's id when this browser has signed in as `email` before, else null. */
export function recognisedDevice(request: Request, email: string): string | null {
  const cookie = readCookie(request);
  if (!cookie) return null;
  const expected = Buffer.from(macFor(cookie.nonce, email));
  const received = Buffer.from(cookie.mac);
  return received.length === expected.length && timingSafeEqual(received, expected) ? cookie.nonce : null;
}

/** The cookie a successful sign-in as `email` sets (the browser keeps its nonce). */
export function deviceCookie(request: Request, email: string): string {
  const nonce = readCookie(request)?.nonce ?? randomBytes(16).toString("base64url");
  const secure = getEnv().isProduction ? "; Secure" : "";
  return `${COOKIE_NAME}=${nonce}.${macFor(nonce, email)}; Path=/auth; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
}
