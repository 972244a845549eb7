import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { textResponse } from "~/server/http/responses.server";
import { postbackAnswer } from "~/server/walls/postback-route.server";

/** Providers call GET /api/{provider}/postback?...&sig=... (signed, idempotent on transaction_id). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return textResponse(await postbackAnswer(request, params.provider));
}

/** ... or POST the same parameters as a form (and in the query string: each name once in all). */
export async function action({ request, params }: ActionFunctionArgs) {
  return textResponse(await postbackAnswer(request, params.provider));
}
