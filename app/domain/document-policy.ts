import { withoutTrailingSlashes } from "./text";

/**
 * What a page needs from outside this origin, beyond the app's own scripts, styles and requests.
 * Each document's Content-Security-Policy allows only what its page needs (docs/security.md, "Headers").
 *
 * - `google-sign-in`: the Firebase Auth web SDK's popup (Google's script loader, the auth iframe,
 *   the Identity Toolkit API, or the Auth emulator when one is configured).
 * - `web-push`: Firebase Cloud Messaging (the installations and registrations APIs). The service
 *   worker itself is allowed on every page: it also serves the offline page.
 */
export type DocumentFeature = "google-sign-in" | "web-push";

const PAGE_FEATURES: Record<string, readonly DocumentFeature[]> = {
  // Signing in and up with Google.
  "/auth": ["google-sign-in"],
  // Notification Settings (push on this device) and confirming a deletion with Google.
  "/profile": ["web-push", "google-sign-in"],
  // The same two parts of Profile, on Settings (docs/decisions/071-settings-is-a-real-page.md).
  "/settings": ["web-push", "google-sign-in"],
};

/** The features the page at `pathname` needs (none for every page but the three above). */
export function pageFeatures(pathname: string): readonly DocumentFeature[] {
  return PAGE_FEATURES[withoutTrailingSlashes(pathname)] ?? [];
}

/**
 * The network of an offer wall's page (/earn/walls/{network}), else null. Its policy frames that
 * network's wall, which no other document allows, so it too is entered with a document load.
 */
export function offerWallOf(pathname: string): string | null {
  return /^\/earn\/walls\/([a-z0-9]+)\/?$/.exec(pathname)?.[1] ?? null;
}
