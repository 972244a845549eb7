import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { loadWalls } from "./page.server";
import { WallsList } from "./WallsList";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Walls · Operator console");

export const loader = ({ request }: LoaderFunctionArgs) => loadWalls(request);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminWallsRoute() {
  const page = useLoaderData<typeof loader>();
  return <WallsList {...page} />;
}
