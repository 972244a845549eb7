import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/http/responses.server";
import { handleTremendousWebhook } from "~/server/withdrawals/payouts/tremendous-webhook.server";

/** Tremendous posts reward and order events here (docs/rails/tremendous.md, "Webhooks"). */
export function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleTremendousWebhook(request);
}

export const loader = () => methodNotAllowed("POST");
