import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { OPERATOR_ROLE_LABELS } from "~/domain/operator-roles";
import { loadConsoleHome } from "./page.server";

// Its own loader checks the role too: a page's data can be asked for without its frame's.
export const loader = ({ request }: LoaderFunctionArgs) => loadConsoleHome(request);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AdminHomeRoute() {
  const { operator } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-bold tracking-tight">Operator console</h1>
      <section className="rounded-2xl border border-line bg-white p-5 shadow-sm">
        <h2 className="text-base font-bold">Signed in</h2>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-muted">Name</dt>
          <dd className="[overflow-wrap:anywhere]" data-testid="operator-name">
            {operator.name}
          </dd>
          {operator.email ? (
            <>
              <dt className="text-muted">Email</dt>
              <dd className="[overflow-wrap:anywhere]">{operator.email}</dd>
            </>
          ) : null}
          <dt className="text-muted">Role</dt>
          <dd data-testid="operator-role">{OPERATOR_ROLE_LABELS[operator.role]}</dd>
        </dl>
      </section>
      <p className="text-sm text-muted">
        Every operator action is recorded in the audit log, in the same transaction as the change; nobody can edit it.
      </p>
      <Link
        to="/admin/audit"
        className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline underline-offset-2"
      >
        Open the audit log
      </Link>
    </div>
  );
}
