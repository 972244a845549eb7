import { Link } from "@remix-run/react";

/** One entry as the page shows it (app/server/admin/audit-log.server.ts, AuditEntry). */
interface Entry {
  id: number;
  at: string;
  actor: string;
  actor_user_id: string | null;
  action: string;
  record_kind: string | null;
  record_id: string | null;
  email: string | null;
  reason: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** "2026-11-23 10:04:31 UTC": the same on the server and in every browser's time zone. */
function when(timestamp: string): string {
  return new Date(timestamp).toISOString().slice(0, 19).replace("T", " ") + " UTC";
}

/** A before or after value, as short text ("role: owner"). */
function state(value: Record<string, unknown> | null): string {
  if (value === null) return "—";
  return Object.entries(value)
    .map(([key, item]) => `${key}: ${typeof item === "string" ? item : JSON.stringify(item)}`)
    .join(", ");
}

/** The audit log, newest first; read only (there is nothing to edit). */
export function AuditLog({
  entries,
  olderBefore,
  paged,
}: {
  entries: readonly Entry[];
  olderBefore: number | null;
  paged: boolean;
}) {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Audit log</h1>
      <p className="max-w-3xl text-sm text-muted">
        Every operator action, newest first: who, when, what, on which record, before and after, and why. Entries are
        appended in the same transaction as the change and can never be edited or deleted.
      </p>
      {entries.length === 0 ? (
        <p className="rounded-2xl border border-line bg-white p-5 text-sm text-muted">
          {paged ? "No older entries." : "No operator action has been recorded yet."}
        </p>
      ) : (
        // Focusable, so a keyboard can scroll the table sideways on a narrow screen.
        <div
          className="overflow-x-auto rounded-2xl border border-line bg-white shadow-sm"
          tabIndex={0}
          role="region"
          aria-label="Operator actions"
        >
          <table className="w-full min-w-[56rem] text-left text-sm">
            <caption className="sr-only">Operator actions, newest first</caption>
            <thead className="border-b border-line bg-gray-50 text-xs font-semibold tracking-wide text-muted uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">
                  When
                </th>
                <th scope="col" className="px-4 py-3">
                  Operator
                </th>
                <th scope="col" className="px-4 py-3">
                  Action
                </th>
                <th scope="col" className="px-4 py-3">
                  Record
                </th>
                <th scope="col" className="px-4 py-3">
                  Before
                </th>
                <th scope="col" className="px-4 py-3">
                  After
                </th>
                <th scope="col" className="px-4 py-3">
                  Reason
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {entries.map((entry) => (
                <tr key={entry.id} data-testid="audit-entry" className="align-top">
                  <td className="px-4 py-3 whitespace-nowrap tabular-nums">{when(entry.at)}</td>
                  <td className="px-4 py-3 [overflow-wrap:anywhere]">
                    {entry.actor}
                    {entry.actor_user_id ? (
                      <span className="block text-xs text-muted">{entry.actor_user_id}</span>
                    ) : null}
                  </td>
                  <td className="px-4 py-3 font-medium whitespace-nowrap">{entry.action.replace("_", " ")}</td>
                  <td className="px-4 py-3 [overflow-wrap:anywhere]">
                    {entry.record_kind ? `${entry.record_kind} ` : ""}
                    {entry.email ?? entry.record_id ?? ""}
                  </td>
                  <td className="px-4 py-3">{state(entry.before)}</td>
                  <td className="px-4 py-3">{state(entry.after)}</td>
                  <td className="px-4 py-3 [overflow-wrap:anywhere]">{entry.reason ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {paged || olderBefore !== null ? (
        <nav aria-label="Audit log pages" className="flex gap-4 text-sm font-medium">
          {paged ? (
            <Link to="/admin/audit" className="inline-flex min-h-11 items-center text-brand-700 underline">
              Newest entries
            </Link>
          ) : null}
          {olderBefore !== null ? (
            <Link
              to={`/admin/audit?before=${olderBefore}`}
              className="inline-flex min-h-11 items-center text-brand-700 underline"
            >
              Older entries
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
