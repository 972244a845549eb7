// Support (docs/operator-console.md, "Support inbox"): the person's feedback and missing-credit
// reports are tickets that operators answer. Shared by the people's screens, the console and the
// server modules that read them.

export type TicketStatus = "open" | "waiting" | "resolved";
export type TicketKind = "feedback" | "missing_credit";

/** What support wrote back, as the person sees it. */
export interface SupportReply {
  created_at: string;
  body: string;
}

/** One of the person's earlier messages (Help & Support), with its status and the replies. */
export interface FeedbackEntry {
  id: number;
  created_at: string;
  message: string;
  status: TicketStatus;
  replies: SupportReply[];
}

export const TICKET_STATUS_LABELS: Record<TicketStatus, string> = {
  open: "Open",
  waiting: "Waiting for them",
  resolved: "Resolved",
};

export const TICKET_KIND_LABELS: Record<TicketKind, string> = {
  feedback: "Feedback",
  missing_credit: "Missing credit",
};

/** A ticket as the inbox lists it. */
export interface InboxTicket {
  kind: TicketKind;
  id: number;
  user_id: string | null;
  email: string | null;
  created_at: string;
  status: TicketStatus;
  assigned_to: string | null;
  assigned_name: string | null;
  updated_at: string;
  subject: string;
  messages: number;
}

/** One ticket with the person, what they wrote and the operators' messages. */
export interface TicketPage {
  kind: TicketKind;
  id: number;
  user_id: string | null;
  status: TicketStatus;
  assigned_to: string | null;
  assigned_name: string | null;
  created_at: string;
  subject: string;
  detail:
    { name: string; email: string } | { network: string; offer_name: string; completed_on: string; details: string };
  person: { id: string; email: string | null; email_verified: boolean; display_name: string } | null;
  messages: { id: number; created_at: string; operator_name: string; body: string; internal: boolean }[];
  adjustments: { id: number; amount: number; state: string; requested_by: string }[] | null;
}

/** The inbox's lists: open and waiting worked oldest first; resolved and all newest first. */
export const TICKET_VIEWS = [
  { value: "open", label: "Open" },
  { value: "waiting", label: "Waiting for them" },
  { value: "resolved", label: "Resolved" },
  { value: "all", label: "All" },
] as const;
export type TicketView = (typeof TICKET_VIEWS)[number]["value"];

export interface TicketFilters {
  view: TicketView;
  kind: TicketKind | null;
  /** Only the tickets assigned to the operator looking. */
  mine: boolean;
}

export function readTicketFilters(params: URLSearchParams): TicketFilters {
  const view = TICKET_VIEWS.find((candidate) => candidate.value === params.get("view"))?.value ?? "open";
  const kind = params.get("kind");
  return {
    view,
    kind: kind === "feedback" || kind === "missing_credit" ? kind : null,
    mine: params.get("mine") === "1",
  };
}

export function ticketFiltersQuery(filters: TicketFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.view !== "open") query.set("view", filters.view);
  if (filters.kind) query.set("kind", filters.kind);
  if (filters.mine) query.set("mine", "1");
  return query;
}

/** A ticket's page: /admin/support/feedback/12, /admin/support/missing-credit/7. */
export function ticketPath(kind: TicketKind, id: number): string {
  return `/admin/support/${kind === "feedback" ? "feedback" : "missing-credit"}/${id}`;
}
