import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { AUTH_MESSAGES } from "~/domain/auth";
import { clearedSessionCookie, endSession } from "~/server/auth/session.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { assertSameOrigin } from "~/server/http/same-origin.server";

export const loader = () => redirect("/");

/**
 * Spec §4 log out. This device is always signed out (the cookie is cleared); when revoking the
 * sessions of the user's other devices fails, the message says so.
 */
export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  let revoked = true;
  try {
    await endSession(request);
  } catch (error) {
    console.error("logout: revoking sessions failed:", error);
    revoked = false;
  }
  return redirectWithFlash(
    "/auth",
    revoked
      ? { kind: "success", title: AUTH_MESSAGES.loggedOut }
      : { kind: "error", title: AUTH_MESSAGES.logoutFailed },
    { "Set-Cookie": await clearedSessionCookie() },
  );
}

// A page module (its loader always redirects), so that a refused post, such as one from another
// site, is answered with the app's error page rather than Remix's anonymous resource-route error.
export { RouteErrorBoundary as ErrorBoundary } from "~/components/RouteError";

export default function Logout() {
  return null;
}
