import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireOperator } from "~/server/operator/access.server";
import { exportUnpaidCsv } from "~/server/operator/withdrawals.server";
import { jsonError, methodNotAllowed } from "~/server/http/responses.server";
import { CROSS_SITE_MESSAGE, isSameOrigin } from "~/server/http/same-origin.server";

/**
 * POST /admin/withdrawals.csv: the approved, unpaid UPI and bank withdrawals to pay by hand, as a
 * CSV file to save (what `npm run payouts -- export-upi` prints), for finance and owners; the
 * audit log records who took which (operator_export_unpaid). A POST: it writes that entry.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  if (!isSameOrigin(request)) return jsonError(403, CROSS_SITE_MESSAGE);
  const operator = await requireOperator(request, "finance");
  const { csv } = await exportUnpaidCsv(operator);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="unpaid-upi-bank-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

/** A GET (a link followed, a bookmark): 405 to an operator; the console's 404 to anyone else. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request, "support");
  return methodNotAllowed("POST");
}
