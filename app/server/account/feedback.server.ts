import type { FeedbackEntry } from "~/domain/support";
import { dbCall } from "../db/core.server";
import { getDatabase } from "../db/database.server";

/** user_feedback (docs/product.md, "Data model"): saved with the account that sent it (rules in SQL). */
export async function submitFeedback(userId: string, feedback: { name: string; email: string; message: string }) {
  const db = await getDatabase();
  return db.rpc<{ id: number }>("submit_feedback", {
    p_user_id: userId,
    p_name: feedback.name,
    p_email: feedback.email,
    p_message: feedback.message,
  });
}

/** The account's own earlier feedback, newest first (by account, not by email: docs/decisions/038). */
export function feedbackCall(userId: string) {
  return dbCall<FeedbackEntry[]>("get_user_feedback", { p_user_id: userId });
}
