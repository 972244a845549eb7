import { noticeMessage, type UserNotice } from "~/domain/notices";
import type { Flash } from "~/domain/flash";
import { getDatabase } from "../db/database.server";

/**
 * The user's notices not yet shown (settled withdrawals, referral credits), as toasts; each is
 * shown once. A failure here must not break the page: nothing is marked shown, they wait.
 */
export async function takeNoticeMessages(userId: string): Promise<Flash[]> {
  try {
    const db = await getDatabase();
    const notices = await db.rpc<UserNotice[]>("take_user_notices", { p_user_id: userId });
    return notices.map((notice) => ({ ...noticeMessage(notice), id: `notice-${notice.id}` }));
  } catch (error) {
    console.error("notices failed to load:", error instanceof Response ? `HTTP ${error.status}` : error);
    return [];
  }
}
