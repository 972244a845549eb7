import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadWithDocumentPolicy } from "~/lib/document-policy";
import { pageMeta } from "~/lib/meta";
import { loadWallPage } from "./page.server";
import { WallScreen } from "./WallScreen";

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data ? `${data.label} offers` : "Offer wall");

export const loader = ({ request, params }: LoaderFunctionArgs) => loadWallPage(request, params.network);

// Only this page's own document may frame the network's wall (domain/document-policy.ts).
export const clientLoader = loadWithDocumentPolicy;

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function WallRoute() {
  return <WallScreen wall={useLoaderData<typeof loader>()} />;
}
