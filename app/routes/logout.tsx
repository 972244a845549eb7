import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { AUTH_MESSAGES } from "~/domain/auth";
import { setFlash } from "~/server/flash.server";
import { assertSameOrigin } from "~/server/security.server";
import { clearedSessionCookie, endSession } from "~/server/session.server";

export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const headers = new Headers();
  try {
    await endSession(request);
  } catch (error) {
    console.error("logout failed:", error);
    headers.append("Set-Cookie", await setFlash({ kind: "error", title: AUTH_MESSAGES.logoutFailed }));
    return redirect("/", { headers });
  }
  headers.append("Set-Cookie", await clearedSessionCookie());
  headers.append("Set-Cookie", await setFlash({ kind: "success", title: AUTH_MESSAGES.loggedOut }));
  return redirect("/auth", { headers });
}
