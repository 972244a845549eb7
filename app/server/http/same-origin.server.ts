import { data } from "@remix-run/node";
import { getEnv } from "../runtime/env.server";
import { SOCKET_ADDRESS_HEADER } from "./client-address.server";
import { addressKey } from "./ip-address.server";

/**
 * Whether this request's X-Forwarded-* headers were written by a proxy of ours: always behind a hop
 * count (TRUST_PROXY=2), and with our proxies named by address only when the connection comes from
 * one of them (a request straight to the app's port forged them).
 */
function forwardedHeadersTrusted(request: Request): boolean {
  const env = getEnv();
  if (env.trustedProxies.length === 0) return env.trustProxy;
  const socket = addressKey(request.headers.get(SOCKET_ADDRESS_HEADER) ?? "");
  return socket !== null && env.trustedProxies.includes(socket);
}

export const CROSS_SITE_MESSAGE = "This form was sent from another site and has been refused.";

/**
 * The host the browser asked for. Behind a trusted proxy (TRUST_PROXY) that is the first value of
 * X-Forwarded-Host, as Remix reads it (a proxy chain appends its own hosts after it); otherwise the
 * forwarded header is anyone's to forge and only Host counts.
 */
export function requestHost(request: Request, trustProxy = forwardedHeadersTrusted(request)): string {
  const forwarded = trustProxy ? request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return forwarded || request.headers.get("host") || new URL(request.url).host;
}

/** The origin the browser used (scheme and host), for links the app hands out (share links). */
export function requestOrigin(request: Request, trustProxy = forwardedHeadersTrusted(request)): string {
  const forwardedProto = trustProxy ? request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
  const protocol =
    forwardedProto === "https" || forwardedProto === "http"
      ? forwardedProto
      : new URL(request.url).protocol.replace(":", "");
  return `${protocol}://${requestHost(request, trustProxy)}`;
}

/**
 * Whether a state-changing request comes from this site (not login CSRF, a forced logout, ...).
 * Requests without Origin and Sec-Fetch-Site (non-browser clients, very old browsers) pass: they
 * carry no ambient cookies of a victim (SameSite=Lax); /auth asks them for a form token instead.
 */
export function isSameOrigin(request: Request, trustProxy = forwardedHeadersTrusted(request)): boolean {
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site");
  if (origin) {
    try {
      return origin !== "null" && new URL(origin).host === requestHost(request, trustProxy);
    } catch {
      return false;
    }
  }
  if (fetchSite) return fetchSite === "same-origin" || fetchSite === "none";
  return true;
}

/** Page actions: a cross-site post gets the 403 page with CROSS_SITE_MESSAGE. */
export function assertSameOrigin(request: Request, trustProxy = forwardedHeadersTrusted(request)): void {
  if (!isSameOrigin(request, trustProxy)) throw data({ message: CROSS_SITE_MESSAGE }, { status: 403 });
}

/** Whether the request carries neither Origin nor Sec-Fetch-Site, so its site is unknown. */
export function hasNoSiteHeaders(request: Request): boolean {
  return !request.headers.get("origin") && !request.headers.get("sec-fetch-site");
}
