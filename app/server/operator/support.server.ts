import type { ConsoleAppeal, InboxTicket, TicketFilters, TicketKind, TicketPage, TicketStatus } from "~/domain/support";
import { getDatabase } from "../db/database.server";
import type { Operator } from "./access.server";

/**
 * The support inbox (docs/operator-console.md, "Support inbox"): feedback and missing-credit
 * reports as tickets, read and answered through SQL functions that check the operator's role and
 * audit each change. A reply reaches the person as a `support_reply` notice (toast, email, push),
 * delivered like every other notice.
 */

export const TICKET_PAGE_SIZE = 50;

export interface TicketCursor {
  at: string;
  kind: TicketKind;
  id: number;
}

export async function listTickets(
  operatorId: string,
  filters: TicketFilters,
  cursor: TicketCursor | null,
): Promise<{ tickets: InboxTicket[]; next: TicketCursor | null }> {
  const db = await getDatabase();
  const rows = await db.rpc<InboxTicket[]>("operator_tickets", {
    p_operator_id: operatorId,
    p_view: filters.view,
    p_kind: filters.kind,
    p_mine: filters.mine,
    p_cursor_created_at: cursor?.at ?? null,
    p_cursor_kind: cursor?.kind ?? null,
    p_cursor_id: cursor?.id ?? null,
    p_limit: TICKET_PAGE_SIZE + 1,
  });
  const tickets = rows.slice(0, TICKET_PAGE_SIZE);
  const last = tickets.at(-1);
  return {
    tickets,
    next: rows.length > TICKET_PAGE_SIZE && last ? { at: last.created_at, kind: last.kind, id: last.id } : null,
  };
}

/** The appeals still open or waiting, oldest first: the inbox lists them before everything else. */
export async function listOpenAppeals(operatorId: string): Promise<InboxTicket[]> {
  const db = await getDatabase();
  return db.rpc<InboxTicket[]>("operator_open_appeals", { p_operator_id: operatorId });
}

/** What an appeal is about (null: the ticket is no appeal). */
export async function readAppeal(operatorId: string, ticketId: number): Promise<ConsoleAppeal | null> {
  const db = await getDatabase();
  return db.rpc<ConsoleAppeal | null>("operator_appeal", { p_operator_id: operatorId, p_ticket_id: ticketId });
}

/** Which of the refused withdrawal's risk reasons the person may read (audited). */
export async function showAppealReasons(operator: Operator, ticketId: number, codes: string[]) {
  const db = await getDatabase();
  return db.rpc<{ shown: string[]; changed: boolean }>("operator_show_appeal_reasons", {
    p_operator_id: operator.uid,
    p_actor: operator.name,
    p_ticket_id: ticketId,
    p_codes: codes,
  });
}

export async function readTicket(operatorId: string, kind: TicketKind, id: number): Promise<TicketPage | null> {
  const db = await getDatabase();
  return db.rpc<TicketPage | null>("operator_ticket", { p_operator_id: operatorId, p_kind: kind, p_id: id });
}

/** A reply the person sees (and is emailed), or an internal note only operators see. */
export async function writeOnTicket(operator: Operator, kind: TicketKind, id: number, body: string, internal: boolean) {
  const db = await getDatabase();
  return db.rpc<{ message_id: number; status: TicketStatus }>("operator_reply_ticket", {
    p_operator_id: operator.uid,
    p_actor: operator.name,
    p_kind: kind,
    p_id: id,
    p_body: body,
    p_internal: internal,
  });
}

/** A new status, and/or the ticket taken ("me") or handed back ("nobody"). */
export async function updateTicket(
  operator: Operator,
  kind: TicketKind,
  id: number,
  change: { status?: TicketStatus; assign?: "me" | "nobody" },
) {
  const db = await getDatabase();
  return db.rpc<{ status: TicketStatus; assigned_to: string | null }>("operator_update_ticket", {
    p_operator_id: operator.uid,
    p_actor: operator.name,
    p_kind: kind,
    p_id: id,
    p_status: change.status ?? null,
    p_assign: change.assign ?? null,
  });
}
