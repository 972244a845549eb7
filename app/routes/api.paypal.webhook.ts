import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/http/responses.server";
import { handlePayPalWebhook } from "~/server/withdrawals/payouts/webhook.server";

/** PayPal posts payout item events here (docs/operations.md, "Paying out withdrawals"). */
export function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handlePayPalWebhook(request);
}

export const loader = () => methodNotAllowed("POST");
