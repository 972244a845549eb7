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

/** A same-site path to return to after sign-in, or "/" (never an open redirect). */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) {
    return fallback;
  }
  return value;
}

export const UNREADABLE_FORM_MESSAGE = "The form could not be read. Please try again.";

/** The posted form, or a 400 answer (never a 500) when the body is not a readable form. */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ message: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  }
}
