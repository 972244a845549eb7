import { Link } from "@remix-run/react";
import { FilterForm, FilterSelect, ShowButton } from "~/components/operator/FilterForm";
import { ViewTabs, viewTabsOf } from "~/components/operator/ViewTabs";
import { ConsoleEmpty, ConsoleTable } from "~/components/operator/ConsoleTable";
import { formatTimestamp, waitedFor } from "~/domain/dates";

import {
  APPEAL_CAUSE_LABELS,
  TICKET_KIND_LABELS,
  TICKET_STATUS_LABELS,
  TICKET_VIEWS,
  ticketFiltersQuery,
  ticketPath,
  type InboxTicket,
  type TicketFilters,
} from "~/domain/support";
import { CONSOLE_LINK } from "~/components/operator/console-link";

const CELL = "px-4 py-3";

function Tabs({ filters }: { filters: TicketFilters }) {
  const tabs = viewTabsOf(TICKET_VIEWS, filters.view, "/admin/support", (view) =>
    ticketFiltersQuery({ ...filters, view }),
  );
  return <ViewTabs label="Ticket lists" tabs={tabs} />;
}

const KIND_OPTIONS = [
  ["feedback", TICKET_KIND_LABELS.feedback],
  ["missing_credit", TICKET_KIND_LABELS.missing_credit],
] as const;

function Filters({ filters }: { filters: TicketFilters }) {
  return (
    <FilterForm className="flex flex-wrap items-end gap-3">
      {filters.view !== "open" ? <input type="hidden" name="view" value={filters.view} /> : null}
      <FilterSelect
        id="ticket-kind"
        name="kind"
        label="Kind"
        defaultValue={filters.kind}
        every="Every kind"
        options={KIND_OPTIONS}
      />
      <label className="flex h-11 items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          name="mine"
          value="1"
          defaultChecked={filters.mine}
          className="size-5 accent-brand-600"
        />
        Assigned to me
      </label>
      <ShowButton />
    </FilterForm>
  );
}

/** A ticket's row: called, not rendered as a component, so that ConsoleTable sees its cells and labels them. */
function ticketRow({ ticket, now }: { ticket: InboxTicket; now: string }) {
  return (
    <tr key={`${ticket.kind}-${ticket.id}`} data-testid="ticket-row" className="align-top">
      <td className={`${CELL} min-w-28 tabular-nums`}>
        {formatTimestamp(ticket.created_at)}
        <span className="block text-xs text-muted">{waitedFor(ticket.created_at, now)} ago</span>
      </td>
      <td className={CELL}>{ticket.appeal ? APPEAL_CAUSE_LABELS[ticket.appeal] : TICKET_KIND_LABELS[ticket.kind]}</td>
      <td className={`${CELL} min-w-56 [overflow-wrap:anywhere]`}>
        <Link to={ticketPath(ticket.kind, ticket.id)} className={CONSOLE_LINK}>
          {ticket.subject}
        </Link>
        {ticket.messages > 0 ? (
          <span className="block text-xs text-muted">
            {ticket.messages} message{ticket.messages === 1 ? "" : "s"} from operators
          </span>
        ) : null}
      </td>
      <td className={`${CELL} min-w-52 [overflow-wrap:anywhere]`}>{ticket.email ?? "a deleted account"}</td>
      <td className={CELL}>{TICKET_STATUS_LABELS[ticket.status]}</td>
      <td className={`${CELL} [overflow-wrap:anywhere]`}>{ticket.assigned_name ?? "—"}</td>
    </tr>
  );
}

export function SupportInbox({
  filters,
  page,
  appeals,
  paged,
  now,
}: {
  filters: TicketFilters;
  page: { tickets: InboxTicket[]; next: { at: string; kind: string; id: number } | null };
  /** Open and waiting appeals, oldest first (docs/decisions/090): listed before everything else. */
  appeals: InboxTicket[];
  paged: boolean;
  now: string;
}) {
  const query = ticketFiltersQuery(filters);
  return (
    <div className="space-y-5">
      <header>
        <h1 className="text-2xl font-bold tracking-tight">Support</h1>
        <p className="mt-1 text-sm text-muted">
          Feedback and missing-credit reports. A reply reaches the person in the app and by email; a note stays with
          operators.
        </p>
      </header>
      {appeals.length > 0 ? (
        <section aria-labelledby="appeals-title" className="space-y-2">
          <h2 id="appeals-title" className="text-lg font-semibold">
            Appeals first
          </h2>
          <p className="text-sm text-muted">
            People whose cash-outs are paused or were refused, asking for a review. Answer these before anything else.
          </p>
          <ConsoleTable
            label="Appeals"
            caption="Open and waiting appeals, oldest first"
            columns={["Sent", "Kind", "About", "From", "Status", "Assigned"]}
            minWidth="min-w-[52rem]"
          >
            {appeals.map((ticket) => ticketRow({ ticket, now }))}
          </ConsoleTable>
        </section>
      ) : null}
      <Tabs filters={filters} />
      <Filters filters={filters} />
      {page.tickets.length === 0 ? (
        <ConsoleEmpty>{paged ? "No more tickets in this list." : "No ticket in this list."}</ConsoleEmpty>
      ) : (
        <ConsoleTable
          label="Tickets"
          caption={
            filters.view === "open" || filters.view === "waiting" ? "Tickets, oldest first" : "Tickets, newest first"
          }
          columns={["Sent", "Kind", "About", "From", "Status", "Assigned"]}
          minWidth="min-w-[52rem]"
        >
          {page.tickets.map((ticket) => ticketRow({ ticket, now }))}
        </ConsoleTable>
      )}
      {paged || page.next ? (
        <nav aria-label="Ticket pages" className="flex gap-4 text-sm font-medium">
          {paged ? (
            <Link
              to={`/admin/support${query.size ? `?${query}` : ""}`}
              className="text-brand-700 underline underline-offset-2"
            >
              First page
            </Link>
          ) : null}
          {page.next ? (
            <Link
              to={`/admin/support?${new URLSearchParams([
                ...query,
                ["at", page.next.at],
                ["k", page.next.kind],
                ["id", String(page.next.id)],
              ])}`}
              className="text-brand-700 underline underline-offset-2"
            >
              Next page
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
