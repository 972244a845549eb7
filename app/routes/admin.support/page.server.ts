import { readTicketFilters, type TicketKind } from "~/domain/support";
import { requireOperator } from "~/server/operator/access.server";
import { listOpenAppeals, listTickets, type TicketCursor } from "~/server/operator/support.server";

// A timestamp as Postgres writes it in JSON, and a ticket id.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;
const ROW_ID = /^[1-9][0-9]{0,17}$/;

function readCursor(params: URLSearchParams): TicketCursor | null {
  const at = params.get("at");
  const kind = params.get("k");
  const id = params.get("id");
  if (!at || !TIMESTAMP.test(at) || Number.isNaN(Date.parse(at)) || !id || !ROW_ID.test(id)) return null;
  if (kind !== "feedback" && kind !== "missing_credit") return null;
  return { at, kind: kind as TicketKind, id: Number(id) };
}

/**
 * /admin/support (docs/operator-console.md, "Support inbox"): feedback and missing-credit reports,
 * one list a page (`?view=` open, waiting, resolved or all; `?kind=`; `?mine=1`; `?at=&k=&id=` the
 * next page). Every role works the inbox.
 */
export async function loadInbox(request: Request) {
  const operator = await requireOperator(request, "support");
  const params = new URL(request.url).searchParams;
  const filters = readTicketFilters(params);
  const cursor = readCursor(params);
  // Appeals come first (docs/decisions/090), above the list, on its first page.
  const [page, appeals] = await Promise.all([
    listTickets(operator.uid, filters, cursor),
    cursor === null ? listOpenAppeals(operator.uid) : [],
  ]);
  return { filters, page, appeals, paged: cursor !== null, now: new Date().toISOString() };
}
