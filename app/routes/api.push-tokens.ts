import type { ActionFunctionArgs } from "@remix-run/node";
import { pushTokenRequestSchema } from "~/domain/push";
import { getSessionUser } from "~/server/auth/session.server";
import { ruleViolation } from "~/server/db/core.server";
import { parseApiFields } from "~/server/http/forms.server";
import { jsonError, methodNotAllowed } from "~/server/http/responses.server";
import { CROSS_SITE_MESSAGE, isSameOrigin } from "~/server/http/same-origin.server";
import {
  clearedPushDeviceCookie,
  deletePushToken,
  pushTokenStatus,
  registerPushToken,
  rememberPushDevice,
} from "~/server/notifications/settings.server";

/**
 * The signed-in device's push token (JavaScript only): `register` stores or renews it (or moves it
 * from the account that had it) and remembers it in this browser's `__push_device` cookie,
 * `status` says whether it is due for its 7-day refresh (docs/product.md, "Profile: notification settings"), `delete` forgets it (push
 * turned off).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  if (!isSameOrigin(request)) return jsonError(403, CROSS_SITE_MESSAGE);
  const user = await getSessionUser(request);
  if (!user) return jsonError(401, "Authentication required");
  const submission = await parseApiFields(request, pushTokenRequestSchema);
  if (submission?.status !== "success") return jsonError(400, "Invalid push token request");
  const { intent, token } = submission.value;
  const headers = new Headers({ "Cache-Control": "no-store" });
  try {
    if (intent === "delete") {
      const { deleted } = await deletePushToken(user.uid, token);
      headers.append("Set-Cookie", await clearedPushDeviceCookie());
      return Response.json({ success: true, deleted }, { headers });
    }
    if (intent === "register") {
      // This browser remembers its token's row, so that log out can delete it.
      const { registered, refresh, device_id: deviceId } = await registerPushToken(user.uid, token);
      if (deviceId) headers.append("Set-Cookie", await rememberPushDevice(deviceId));
      return Response.json({ success: true, registered, refresh }, { headers });
    }
    const { registered, refresh } = await pushTokenStatus(user.uid, token);
    return Response.json({ success: true, registered, refresh }, { headers });
  } catch (error) {
    const violation = ruleViolation(error);
    if (violation) return jsonError(400, violation.message);
    throw error;
  }
}

export const loader = () => methodNotAllowed("POST");
