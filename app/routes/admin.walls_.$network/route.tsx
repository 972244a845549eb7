import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadWall, wallAction } from "./page.server";
import { NoSuchWall, WallPage } from "./WallPage";

export const meta: MetaFunction<typeof loader> = ({ data, error }) =>
  pageMeta(error ? undefined : `${data?.found ? data.view.label : "No such wall"} · Walls · Operator console`);

export const loader = ({ request, params }: LoaderFunctionArgs) => loadWall(request, params.network);

export async function action({ request, params }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return wallAction(request, params.network);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminWallRoute() {
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  if (!page.found) return <NoSuchWall name={page.name} />;
  return <WallPage {...page} reply={reply && "status" in reply ? reply : undefined} />;
}
