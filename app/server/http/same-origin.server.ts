import { data } from "@remix-run/node";

export const CROSS_SITE_MESSAGE = "This form was sent from another site and has been refused.";

/**
 * Refuses a state-changing request that a browser sent from another origin (login CSRF,
 * forced logout, ...). Requests without Origin and Sec-Fetch-Site (non-browser clients) pass:
 * they carry no ambient cookies of a victim.
 */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? new URL(request.url).host;
  let sameOrigin = true;
  if (origin) {
    try {
      sameOrigin = origin !== "null" && new URL(origin).host === host;
    } catch {
      sameOrigin = false;
    }
  } else if (fetchSite) {
    sameOrigin = fetchSite === "same-origin" || fetchSite === "none";
  }
  if (!sameOrigin) throw data({ message: CROSS_SITE_MESSAGE }, { status: 403 });
}
