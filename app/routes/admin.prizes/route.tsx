import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { PrizesPage } from "./PrizesPage";
import { loadPrizes, prizesAction } from "./page.server";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Prizes · Operator console");

export const loader = ({ request }: LoaderFunctionArgs) => loadPrizes(request);

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return prizesAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminPrizesRoute() {
  const page = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <PrizesPage {...page} lastResult={lastResult} />;
}
