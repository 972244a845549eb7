import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ReferralScreen } from "./ReferralScreen";
import { pageMeta } from "~/lib/meta";
import { loadReferral } from "./page.server";

export const meta: MetaFunction = () => pageMeta("Refer & Earn");

export const loader = ({ request, context }: LoaderFunctionArgs) => loadReferral(request, context);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function ReferralRoute() {
  return <ReferralScreen data={useLoaderData<typeof loader>()} />;
}
