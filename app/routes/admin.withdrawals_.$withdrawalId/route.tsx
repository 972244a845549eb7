import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { headersWithRetryAfter } from "~/lib/retry-after";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadWithdrawal, withdrawalAction } from "./page.server";
import { WithdrawalPage } from "./WithdrawalPage";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Withdrawal · Operator console");

export const headers = headersWithRetryAfter;

export const loader = ({ request, params }: LoaderFunctionArgs) => loadWithdrawal(request, params.withdrawalId);

export async function action({ request, params }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return withdrawalAction(request, params.withdrawalId);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminWithdrawalRoute() {
  const page = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <WithdrawalPage {...page} lastResult={lastResult} />;
}
