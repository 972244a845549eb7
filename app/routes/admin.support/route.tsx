import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { loadInbox } from "./page.server";
import { SupportInbox } from "./SupportInbox";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Support · Operator console");

export const loader = ({ request }: LoaderFunctionArgs) => loadInbox(request);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminSupportRoute() {
  const page = useLoaderData<typeof loader>();
  return <SupportInbox {...page} />;
}
