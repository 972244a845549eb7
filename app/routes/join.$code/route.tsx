import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { BARE_SCREEN } from "~/lib/shell";
import { JoinScreen } from "./JoinScreen";
import { loadJoin } from "./page.server";

// The share link's page (issue 39, point 6; docs/decisions/096).
export const meta: MetaFunction = () => pageMeta("You're invited");
export const handle = BARE_SCREEN;

export const loader = ({ request, params }: LoaderFunctionArgs) => loadJoin(request, params.code);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function JoinRoute() {
  return <JoinScreen {...useLoaderData<typeof loader>()} />;
}
