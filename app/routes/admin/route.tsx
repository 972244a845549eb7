import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { CONSOLE_SCREEN } from "~/lib/shell";
import { AdminScreen } from "./AdminScreen";
import { loadConsole } from "./page.server";

// Anyone who may not enter gets the app's 404, titled as every 404 is: nothing names the console.
export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Operator console");

export const handle = CONSOLE_SCREEN;

export const loader = ({ request }: LoaderFunctionArgs) => loadConsole(request);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminRoute() {
  const { operator } = useLoaderData<typeof loader>();
  return (
    <AdminScreen operator={operator}>
      <Outlet />
    </AdminScreen>
  );
}
