import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { DashboardScreen } from "./DashboardScreen";
import { loadConsoleHome } from "./page.server";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Dashboard · Operator console");

// Its own loader checks the role too: a page's data can be asked for without its frame's.
export const loader = ({ request }: LoaderFunctionArgs) => loadConsoleHome(request);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminHomeRoute() {
  const page = useLoaderData<typeof loader>();
  return <DashboardScreen {...page} />;
}
