import type { ActionFunctionArgs } from "@remix-run/node";
import { jsonError } from "~/server/http/responses.server";
import { handlePayPalWebhook } from "~/server/payouts/webhook.server";

/** PayPal posts payout item events here (README, "Paying out withdrawals"). */
export function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  return handlePayPalWebhook(request);
}

export function loader() {
  return methodNotAllowed();
}

function methodNotAllowed() {
  const response = jsonError(405, "Use POST");
  response.headers.set("Allow", "POST");
  return response;
}
