import { data } from "@remix-run/node";
import { getEnv } from "../env.server";

export const CROSS_SITE_MESSAGE = "This form was sent from another site and has been refused.";

/**
 * The host the browser asked for. Behind a trusted proxy (TRUST_PROXY) that is the first value of
 * X-Forwarded-Host, as Remix reads it (a proxy chain appends its own hosts after it); otherwise the
 * forwarded header is anyone's to forge and only Host counts.
 */
export function requestHost(request: Request, trustProxy = getEnv().trustProxy): string {
  const forwarded = trustProxy ? request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return forwarded || request.headers.get("host") || new URL(request.url).host;
}

/** The origin the browser used (scheme and host), for links the app hands out (share links). */
export function requestOrigin(request: Request, trustProxy = getEnv().trustProxy): string {
  const forwardedProto = trustProxy ? request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
  const protocol =
    forwardedProto === "https" || forwardedProto === "http"
      ? forwardedProto
      : new URL(request.url).protocol.replace(":", "");
  return `${protocol}://${requestHost(request, trustProxy)}`;
}

/**
 * Refuses a state-changing request that a browser sent from another origin (login CSRF,
 * forced logout, ...). Requests without Origin and Sec-Fetch-Site (non-browser clients) pass:
 * they carry no ambient cookies of a victim.
 */
export function assertSameOrigin(request: Request, trustProxy = getEnv().trustProxy): void {
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site");
  let sameOrigin = true;
  if (origin) {
    try {
      sameOrigin = origin !== "null" && new URL(origin).host === requestHost(request, trustProxy);
    } catch {
      sameOrigin = false;
    }
  } else if (fetchSite) {
    sameOrigin = fetchSite === "same-origin" || fetchSite === "none";
  }
  if (!sameOrigin) throw data({ message: CROSS_SITE_MESSAGE }, { status: 403 });
}
