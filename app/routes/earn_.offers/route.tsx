import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadMyOffers, myOffersAction } from "./page.server";
import { MyOffersScreen } from "./MyOffersScreen";

export const meta: MetaFunction = () => pageMeta("My offers");

export const loader = ({ request, context }: LoaderFunctionArgs) => loadMyOffers(request, context);

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return myOffersAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function MyOffersRoute() {
  return <MyOffersScreen data={useLoaderData<typeof loader>()} lastResult={useActionData<typeof action>()} />;
}
