import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { loadPerson } from "./page.server";
import { PersonPage } from "./PersonPage";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Person · Operator console");

export const loader = ({ request, params }: LoaderFunctionArgs) => loadPerson(request, params.userId);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminPersonRoute() {
  const page = useLoaderData<typeof loader>();
  return <PersonPage {...page} />;
}
