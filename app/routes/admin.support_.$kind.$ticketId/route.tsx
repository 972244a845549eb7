import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { headersWithRetryAfter } from "~/lib/retry-after";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadTicket, ticketAction } from "./page.server";
import { TicketScreen } from "./TicketScreen";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Ticket · Operator console");

export const headers = headersWithRetryAfter;

export const loader = ({ request, params }: LoaderFunctionArgs) => loadTicket(request, params.kind, params.ticketId);

export async function action({ request, params }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return ticketAction(request, params.kind, params.ticketId);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminTicketRoute() {
  const page = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <TicketScreen {...page} lastResult={lastResult} />;
}
