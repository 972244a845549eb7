import { data } from "@remix-run/node";
import { getSessionUser } from "../auth/session.server";
import { requireDatabaseReady } from "../db/database.server";
import type { RequestScope } from "../db/reads.server";
import { requestTimeZone } from "../http/cookies.server";
import { takeFlash } from "../http/flash.server";
import { takeNoticeMessages } from "../notifications/notices.server";

/**
 * The shell's data on every page: whether someone is signed in, and the messages to show once.
 * `scope`: the request's load context, so that the notices are read with the page's own reads.
 */
export async function loadRoot(request: Request, scope?: RequestScope) {
  await requireDatabaseReady();
  // The shell only needs to know whether to show the profile button; a page that needs the
  // user checks again and answers 503 itself if the sign-in service cannot be reached.
  const user = await getSessionUser(request, scope).catch(() => null);
  const timeZone = requestTimeZone(request);
  const [{ flash, setCookie }, notices] = await Promise.all([
    takeFlash(request),
    user ? takeNoticeMessages(user.uid, timeZone, scope) : { messages: [], unread: 0 },
  ]);
  const messages = flash ? [flash, ...notices.messages] : notices.messages;
  return data(
    { signedIn: user !== null, messages, unreadNotices: notices.unread, timeZone },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}
