import type { LoaderFunctionArgs } from "@remix-run/node";
import { jsonError, methodNotAllowed } from "~/server/http/responses.server";
import { configuredProvider, listTasks } from "~/server/earning/provider-offers.server";
import { getSessionUser } from "~/server/auth/session.server";

/** GET /api/{provider}/offers (docs/product.md, "Endpoints"): the provider's offers (cached 5 minutes, one retry). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!configuredProvider(params.provider)) return jsonError(404, "Unknown offer provider");
  if (!(await getSessionUser(request))) return jsonError(401, "Authentication required");
  const list = await listTasks();
  if (list.source !== "provider") return jsonError(502, "The offer provider is not available");
  return Response.json({ offers: list.offers }, { headers: { "Cache-Control": "private, max-age=60" } });
}

// Any other method: a 405 that says which to use (without an action, Remix answers "Unexpected Server Error" and logs a stack).
export const action = () => methodNotAllowed("GET");
