import type { ActionFunctionArgs } from "@remix-run/node";
import { pushTokenRequestSchema } from "~/domain/push";
import { getSessionUser } from "~/server/auth/session.server";
import { ruleViolation } from "~/server/db/core.server";
import { parseApiFields } from "~/server/http/forms.server";
import { jsonError, methodNotAllowed } from "~/server/http/responses.server";
import { CROSS_SITE_MESSAGE, isSameOrigin } from "~/server/http/same-origin.server";
import { deletePushToken, pushTokenStatus, registerPushToken } from "~/server/notification-settings.server";

/**
 * The signed-in device's push token (JavaScript only): `register` stores or renews it, `status`
 * says whether it is due for its 7-day refresh (spec §9), `delete` forgets it (push turned off).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  if (!isSameOrigin(request)) return jsonError(403, CROSS_SITE_MESSAGE);
  const user = await getSessionUser(request);
  if (!user) return jsonError(401, "Authentication required");
  const submission = await parseApiFields(request, pushTokenRequestSchema);
  if (submission?.status !== "success") return jsonError(400, "Invalid push token request");
  const { intent, token } = submission.value;
  try {
    if (intent === "delete") return Response.json({ success: true, ...(await deletePushToken(user.uid, token)) });
    const status =
      intent === "register" ? await registerPushToken(user.uid, token) : await pushTokenStatus(user.uid, token);
    return Response.json({ success: true, ...status }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    const violation = ruleViolation(error);
    if (violation) return jsonError(400, violation.message);
    throw error;
  }
}

export const loader = () => methodNotAllowed("POST");
