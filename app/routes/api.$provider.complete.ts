import type { ActionFunctionArgs } from "@remix-run/node";
import { completeTaskRequestSchema } from "~/domain/task-forms";
import { getSessionUser } from "~/server/auth/session.server";
import { ruleViolation } from "~/server/db/core.server";
import { parseApiFields } from "~/server/http/forms.server";
import { jsonError, methodNotAllowed } from "~/server/http/responses.server";
import { CROSS_SITE_MESSAGE, isSameOrigin } from "~/server/http/same-origin.server";
import { configuredProvider } from "~/server/earning/provider-offers.server";
import { completeTask, findTask } from "~/server/earning/tasks.server";
import { ruleMessage } from "~/domain/rules";

/**
 * POST /api/{provider}/complete with taskId (docs/product.md, "Endpoints"): the user comes from the session (a userId in
 * the body is ignored) and the reward from the server's own offer data. A provider offer is only
 * recorded (`pending: true`, reward 0): the provider's postback pays it (docs/decisions/040).
 */
// A GET gets a 405 that says to POST (without a loader, Remix answers 400 "Unexpected Server Error").
export const loader = () => methodNotAllowed("POST");

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  if (!configuredProvider(params.provider)) return jsonError(404, "Unknown offer provider");
  if (!isSameOrigin(request)) return jsonError(403, CROSS_SITE_MESSAGE);
  const user = await getSessionUser(request);
  if (!user) return jsonError(401, "Authentication required");
  const submission = await parseApiFields(request, completeTaskRequestSchema);
  const task = submission?.status === "success" ? await findTask(submission.value.taskId) : null;
  if (!task) return jsonError(404, ruleMessage("task_unavailable"));
  try {
    const result = await completeTask(user.uid, task.id);
    return Response.json({ success: true, reward: result.reward, pending: result.pending });
  } catch (error) {
    const violation = ruleViolation(error);
    if (violation) return jsonError(400, violation.message);
    throw error;
  }
}
