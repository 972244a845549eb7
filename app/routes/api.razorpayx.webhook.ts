import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/http/responses.server";
import { handleRazorpayXWebhook } from "~/server/withdrawals/payouts/razorpayx-webhook.server";

/** RazorpayX posts payout events here (docs/rails/razorpayx.md, "Webhooks"). */
export function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleRazorpayXWebhook(request);
}

export const loader = () => methodNotAllowed("POST");
