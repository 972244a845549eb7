import type { TimeZone } from "~/domain/dates";
import { noticeLinkPath, noticeMessage, type ListedNotice, type UserNotice } from "~/domain/notices";
import type { Flash } from "~/domain/flash";
import { dbCall } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { readTogether, type RequestScope } from "../db/reads.server";

/**
 * The user's notices not yet shown (settled withdrawals, referral credits), as toasts, each shown
 * once; and how many are unread (the header's bell). A failure here must not break the page:
 * nothing is marked shown, they wait, and the bell shows no count. With `scope`, the claim goes in
 * one statement with the page's own reads (readTogether).
 */
export async function takeNoticeMessages(
  userId: string,
  zone: TimeZone,
  scope?: RequestScope,
): Promise<{ messages: Flash[]; unread: number }> {
  try {
    const [notices, unread] = readTogether(
      [
        dbCall<UserNotice[]>("take_user_notices", { p_user_id: userId }),
        dbCall<number>("count_unread_notices", { p_user_id: userId }),
      ],
      scope,
    );
    const messages = (await notices).map((notice) => ({
      ...noticeMessage(notice, new Date(), zone),
      id: `notice-${notice.id}`,
    }));
    return { messages, unread: Number(await unread) || 0 };
  } catch (error) {
    console.error("notices failed to load:", error instanceof Response ? `HTTP ${error.status}` : error);
    return { messages: [], unread: 0 };
  }
}

/** The person's newest notices, which are read once listed (read_notices). */
export async function readNotices(userId: string, zone: TimeZone): Promise<ListedNotice[]> {
  const db = await getDatabase();
  const notices = await db.rpc<(UserNotice & { unread: boolean })[]>("read_notices", { p_user_id: userId });
  return notices.map((notice) => ({
    ...noticeMessage(notice, new Date(), zone),
    id: `notice-${notice.id}`,
    created_at: new Date(notice.created_at).toISOString(),
    href: noticeLinkPath(notice),
    unread: notice.unread === true,
  }));
}
