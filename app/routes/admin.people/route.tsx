import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { loadPeopleSearch } from "./page.server";
import { PeopleSearch } from "./PeopleSearch";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "People · Operator console");

export const loader = ({ request }: LoaderFunctionArgs) => loadPeopleSearch(request);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminPeopleRoute() {
  const page = useLoaderData<typeof loader>();
  return <PeopleSearch {...page} />;
}
