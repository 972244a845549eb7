import type { LoaderFunctionArgs } from "@remix-run/node";
import { configuredProvider, jsonError } from "~/server/providers.server";
import { getSessionUser } from "~/server/session.server";
import { listTasks } from "~/server/tasks.server";

/** Spec §7 GET /api/{provider}/offers: the provider's offers (cached 5 minutes, one retry). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!configuredProvider(params.provider)) return jsonError(404, "Unknown offer provider");
  if (!(await getSessionUser(request))) return jsonError(401, "Authentication required");
  const list = await listTasks();
  if (list.source !== "provider") return jsonError(502, "The offer provider is not available");
  return Response.json({ offers: list.offers }, { headers: { "Cache-Control": "private, max-age=60" } });
}
