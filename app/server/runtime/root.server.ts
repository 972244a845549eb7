import { data } from "@remix-run/node";
import { getSessionUser } from "../auth/session.server";
import { requireDatabaseReady } from "../db/database.server";
import { takeFlash } from "../http/flash.server";
import { takeNoticeMessages } from "../notifications/notices.server";

/** The shell's data on every page: whether someone is signed in, and the messages to show once. */
export async function loadRoot(request: Request) {
  await requireDatabaseReady();
  // The shell only needs to know whether to show the profile button; a page that needs the
  // user checks again and answers 503 itself if the sign-in service cannot be reached.
  const user = await getSessionUser(request).catch(() => null);
  const [{ flash, setCookie }, notices] = await Promise.all([
    takeFlash(request),
    user ? takeNoticeMessages(user.uid) : [],
  ]);
  const messages = flash ? [flash, ...notices] : notices;
  return data({ signedIn: user !== null, messages }, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}
