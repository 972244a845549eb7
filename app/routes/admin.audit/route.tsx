import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { AuditLog } from "./AuditLog";
import { loadAuditLog } from "./page.server";

export const meta: MetaFunction = ({ error }) => pageMeta(error ? undefined : "Audit log · Operator console");

export const loader = ({ request }: LoaderFunctionArgs) => loadAuditLog(request);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminAuditRoute() {
  const page = useLoaderData<typeof loader>();
  return <AuditLog {...page} />;
}
