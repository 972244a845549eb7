import { redirect } from "@remix-run/node";
import { AUTH_MESSAGES } from "~/domain/auth";
import { clearedSessionCookie, endSession } from "~/server/auth/session.server";
import { clearedPassedCookie } from "~/server/operator/two-factor.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { clearedPushDeviceCookie, forgetPushDevice } from "~/server/notifications/settings.server";

/** /logout is only posted to; a visit goes Home. */
export const logoutRedirect = () => redirect("/");

/**
 * docs/product.md, "Profile: log out". This device is always signed out (the cookie is cleared) and its push token
 * deleted; when revoking the sessions of the user's other devices fails, the message says so.
 */
export async function logOut(request: Request) {
  // This device stops receiving the account's pushes: its token goes (docs/notifications.md).
  const hadPushDevice = await forgetPushDevice(request);
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
    [
      ["Set-Cookie", await clearedSessionCookie()],
      // The console's authenticator is asked again at the next sign-in (docs/decisions/093).
      ["Set-Cookie", clearedPassedCookie()],
      ...(hadPushDevice ? [["Set-Cookie", await clearedPushDeviceCookie()] as [string, string]] : []),
    ],
  );
}
