import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { loadWithDocumentPolicy } from "~/lib/document-policy";
import { pageMeta } from "~/lib/meta";
import { headersWithRetryAfter } from "~/lib/retry-after";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadSettings, settingsAction } from "./page.server";
import { SettingsScreen } from "./SettingsScreen";

// docs/decisions/071-settings-is-a-real-page.md: the spec's gear led to a missing page.
export const meta: MetaFunction = () => pageMeta("Settings");

export const headers = headersWithRetryAfter;

export const loader = ({ request, context }: LoaderFunctionArgs) => loadSettings(request, context);
// Web push and Google sign-in (to confirm a deletion) are allowed on this page's documents (domain/document-policy.ts).
export const clientLoader = loadWithDocumentPolicy;

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return settingsAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function SettingsRoute() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  // The notification switches read their own replies (with JavaScript); every other form shows its reply here.
  const lastResult = reply && "status" in reply ? reply : undefined;
  return <SettingsScreen data={data} lastResult={lastResult} />;
}
