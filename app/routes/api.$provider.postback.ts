import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { postbackResponse } from "~/server/walls/postback-route.server";

/** Providers call GET /api/{provider}/postback?...&sig=... (signed, idempotent on transaction_id). */
export function loader({ request, params }: LoaderFunctionArgs) {
  return postbackResponse(request, params.provider);
}

/** ... or POST the same parameters as a form (and in the query string: each name once in all). */
export function action({ request, params }: ActionFunctionArgs) {
  return postbackResponse(request, params.provider);
}
