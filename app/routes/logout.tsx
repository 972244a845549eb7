import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { AUTH_MESSAGES } from "~/domain/auth";
import { redirectWithFlash } from "~/server/http/flash.server";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { clearedSessionCookie, endSession } from "~/server/auth/session.server";

export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  try {
    await endSession(request);
  } catch (error) {
    console.error("logout failed:", error);
    return redirectWithFlash("/", { kind: "error", title: AUTH_MESSAGES.logoutFailed });
  }
  return redirectWithFlash(
    "/auth",
    { kind: "success", title: AUTH_MESSAGES.loggedOut },
    { "Set-Cookie": await clearedSessionCookie() },
  );
}
