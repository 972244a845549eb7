import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { CodesPage } from "./CodesPage";
import { codesAction, loadCodes } from "./page.server";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Codes · Operator console");

export const loader = ({ request }: LoaderFunctionArgs) => loadCodes(request);

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return codesAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminCodesRoute() {
  const page = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <CodesPage {...page} lastResult={lastResult} />;
}
