import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { headersWithRetryAfter } from "~/lib/retry-after";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadPerson, personAction } from "./page.server";
import { PersonPage } from "./PersonPage";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Person · Operator console");

export const headers = headersWithRetryAfter;

export const loader = ({ request, params }: LoaderFunctionArgs) => loadPerson(request, params.userId);

export async function action({ request, params }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return personAction(request, params.userId);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminPersonRoute() {
  const page = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <PersonPage {...page} lastResult={lastResult} />;
}
