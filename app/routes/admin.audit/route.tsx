import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuditLog } from "./AuditLog";
import { loadAuditLog } from "./page.server";

export const loader = ({ request }: LoaderFunctionArgs) => loadAuditLog(request);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminAuditRoute() {
  const page = useLoaderData<typeof loader>();
  return <AuditLog {...page} />;
}
