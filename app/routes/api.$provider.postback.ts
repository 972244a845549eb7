import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handlePostback } from "~/server/postbacks.server";
import { plainText as text } from "~/server/http/responses.server";
import { configuredProvider } from "~/server/offers.server";

async function respond(provider: string | undefined, params: URLSearchParams) {
  const config = configuredProvider(provider);
  if (!config) return text(404, "Unknown provider");
  if (!config.postbackSecret) return text(503, "Postbacks are not configured");
  const result = await handlePostback(config.name, params, config.postbackSecret);
  return text(result.status, result.body);
}

/** Providers call GET /api/{provider}/postback?...&sig=... (signed, idempotent on transaction_id). */
export function loader({ request, params }: LoaderFunctionArgs) {
  return respond(params.provider, new URL(request.url).searchParams);
}

/** ... or POST the same parameters as a form or in the query string. */
export async function action({ request, params }: ActionFunctionArgs) {
  const query = new URL(request.url).searchParams;
  const body = await request.text().catch(() => "");
  const merged = new URLSearchParams(query);
  for (const [key, value] of new URLSearchParams(body)) merged.set(key, value);
  return respond(params.provider, merged);
}
