import type { ActionFunctionArgs } from "@remix-run/node";
import { ruleViolationMessage } from "~/server/db/core.server";
import { jsonError } from "~/server/http/responses.server";
import { configuredProvider } from "~/server/offers.server";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { readFormData } from "~/server/http/forms.server";
import { getSessionUser } from "~/server/auth/session.server";
import { completeTask, findTask } from "~/server/tasks.server";

/**
 * Spec §7 POST /api/{provider}/complete with taskId: the user comes from the session (a userId in
 * the body is ignored) and the reward from the server's own offer data.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (!configuredProvider(params.provider)) return jsonError(404, "Unknown offer provider");
  assertSameOrigin(request);
  const user = await getSessionUser(request);
  if (!user) return jsonError(401, "Authentication required");
  const taskId = request.headers.get("content-type")?.includes("application/json")
    ? String(((await request.json().catch(() => ({}))) as { taskId?: unknown }).taskId ?? "")
    : String((await readFormData(request)).get("taskId") ?? "");
  const task = await findTask(taskId);
  if (!task) return jsonError(404, "This task is no longer available");
  try {
    const result = await completeTask(user.uid, task.id);
    return Response.json({ success: true, reward: result.reward });
  } catch (error) {
    const rule = ruleViolationMessage(error);
    if (rule) return jsonError(400, rule);
    throw error;
  }
}
