import { ConsoleEmpty, ConsolePager, ConsoleTable } from "~/components/operator/ConsoleTable";
import { formatTimestamp } from "~/domain/dates";

/** One entry as the page shows it (app/server/operator/audit-log.server.ts, AuditEntry). */
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
        <ConsoleEmpty>{paged ? "No older entries." : "No operator action has been recorded yet."}</ConsoleEmpty>
      ) : (
        <ConsoleTable
          label="Operator actions"
          caption="Operator actions, newest first"
          columns={["When", "Operator", "Action", "Change", "Reason"]}
          minWidth="min-w-[44rem]"
        >
          {entries.map((entry) => (
            <tr key={entry.id} data-testid="audit-entry" className="align-top">
              <td className="px-4 py-3 tabular-nums">{formatTimestamp(entry.at)}</td>
              <td className="px-4 py-3 [overflow-wrap:anywhere]">
                {entry.actor}
                {entry.actor_user_id ? <span className="block text-xs text-muted">{entry.actor_user_id}</span> : null}
              </td>
              <td className="px-4 py-3 [overflow-wrap:anywhere]">
                <span className="font-medium">{entry.action.replaceAll("_", " ")}</span>
                <span className="block text-xs text-muted">
                  {entry.record_kind ? `${entry.record_kind.replaceAll("_", " ")} ` : ""}
                  {entry.email ?? entry.record_id ?? ""}
                </span>
              </td>
              <td className="px-4 py-3 [overflow-wrap:anywhere]">
                <span className="block">
                  <span className="text-xs text-muted">Before </span>
                  {state(entry.before)}
                </span>
                <span className="block">
                  <span className="text-xs text-muted">After </span>
                  {state(entry.after)}
                </span>
              </td>
              <td className="px-4 py-3 [overflow-wrap:anywhere]">{entry.reason ?? "—"}</td>
            </tr>
          ))}
        </ConsoleTable>
      )}
      <ConsolePager
        label="Audit log pages"
        newest={paged ? { to: "/admin/audit", label: "Newest entries" } : null}
        older={olderBefore !== null ? { to: `/admin/audit?before=${olderBefore}`, label: "Older entries" } : null}
      />
    </div>
  );
}
