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
