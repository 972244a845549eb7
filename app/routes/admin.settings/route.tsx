import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadSettingsPage, settingsAction } from "./page.server";
import { SettingsPage } from "./SettingsPage";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Settings · Operator console");

export const loader = ({ request }: LoaderFunctionArgs) => loadSettingsPage(request);

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return settingsAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminSettingsRoute() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <SettingsPage data={data} lastResult={lastResult} />;
}
