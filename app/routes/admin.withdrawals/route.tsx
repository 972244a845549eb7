import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { headersWithRetryAfter } from "~/lib/retry-after";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadWithdrawals, withdrawalsAction } from "./page.server";
import { WithdrawalsScreen } from "./WithdrawalsScreen";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Withdrawals · Operator console");

export const headers = headersWithRetryAfter;

export const loader = ({ request }: LoaderFunctionArgs) => loadWithdrawals(request);

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return withdrawalsAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminWithdrawalsRoute() {
  const page = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <WithdrawalsScreen {...page} lastResult={lastResult} />;
}
