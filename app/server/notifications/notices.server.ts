import { noticeMessage, type UserNotice } from "~/domain/notices";
import type { Flash } from "~/domain/flash";
import { dbCall } from "../db/core.server";
import { readTogether, type RequestScope } from "../db/reads.server";

/**
 * The user's notices not yet shown (settled withdrawals, referral credits), as toasts; each is
 * shown once. A failure here must not break the page: nothing is marked shown, they wait.
 * With `scope`, the claim goes in one statement with the page's own reads (readTogether).
 */
export async function takeNoticeMessages(userId: string, scope?: RequestScope): Promise<Flash[]> {
  try {
    const [notices] = readTogether([dbCall<UserNotice[]>("take_user_notices", { p_user_id: userId })], scope);
    return (await notices).map((notice) => ({ ...noticeMessage(notice), id: `notice-${notice.id}` }));
  } catch (error) {
    console.error("notices failed to load:", error instanceof Response ? `HTTP ${error.status}` : error);
    return [];
  }
}
