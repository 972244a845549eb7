import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { LevelsScreen } from "./LevelsScreen";
import { levelsAction, loadLevels } from "./page.server";

// Levels (issue 39, point 1; docs/decisions/094): every level and what it pays.
export const meta: MetaFunction = () => pageMeta("Levels");

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadLevels(request, context);
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return levelsAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function LevelsRoute() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <LevelsScreen data={data} lastResult={lastResult} />;
}
