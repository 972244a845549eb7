// Support (docs/operator-console.md, "Support inbox"): the person's feedback and missing-credit
// reports are tickets that operators answer. Shared by the people's screens, the console and the
// server modules that read them.
import { formatDate, type TimeZone } from "./dates";
import { formatDollars } from "./money";

export type TicketStatus = "open" | "waiting" | "resolved";
export type TicketKind = "feedback" | "missing_credit";

/**
 * One message of a ticket's conversation as the person sees it, after what they first wrote: their
 * own answers and what support replied, oldest first (no internal note).
 */
export interface ConversationMessage {
  id: number;
  created_at: string;
  body: string;
  from: "person" | "support";
}

/** One of the person's earlier messages (Help & Support), with its status and the conversation. */
export interface FeedbackEntry {
  id: number;
  created_at: string;
  message: string;
  status: TicketStatus;
  messages: ConversationMessage[];
  /** An appeal (docs/decisions/090): what it appeals, and the reasons an operator let the person read. */
  appeal?: Appeal | null;
}

/** What an appeal is about, as the person reads it. */
export interface Appeal {
  cause: "payouts_paused" | "withdrawal_refused";
  withdrawal: { amount: number; created_at: string } | null;
  reasons: string[];
}

/** A ticket's status in the console (the operator's side: "them" is the person). */
export const TICKET_STATUS_LABELS: Record<TicketStatus, string> = {
  open: "Open",
  waiting: "Waiting for them",
  resolved: "Resolved",
};

/**
 * A ticket's status in the person's words (docs/product.md, "Profile: help and support"), and
 * what it means for them, said under the conversation.
 */
export const PERSON_TICKET_STATUS: Record<TicketStatus, { label: string; meaning: string }> = {
  open: { label: "Open", meaning: "Support will answer here, and we will let you know." },
  waiting: { label: "Waiting for you", meaning: "Support answered. If you need more help, answer below." },
  resolved: { label: "Resolved", meaning: "This conversation is resolved. To ask something new, send us feedback." },
};

/** Who wrote a message of the conversation, as the person reads it. */
export const CONVERSATION_AUTHORS: Record<ConversationMessage["from"], string> = {
  person: "You",
  support: "Support",
};

/** The person's answer form, under a conversation that is not resolved (answer_ticket). */
export const ANSWER_FORM = {
  label: "Your answer",
  hint: "Up to 2,000 characters.",
  button: "Send answer",
  pending: "Sending...",
  failed: "Your answer could not be sent.",
  sent: "Answer sent",
  sentDescription: "Support will answer in this conversation, and we will let you know.",
  notFound: "This conversation could not be found. Please reload the page.",
} as const;

/** The title of a feedback conversation: "Feedback sent Nov 27, 2026". */
export function feedbackConversationTitle(createdAt: string, zone?: TimeZone): string {
  return `Feedback sent ${formatDate(createdAt, zone)}`;
}

/**
 * An appeal's title on Help & Support (docs/decisions/090): "Review of your $5.00 cash-out of
 * Nov 30, 2026", or "Review of your paused cash-outs, asked Dec 1, 2026".
 */
export function appealConversationTitle(appeal: Appeal, createdAt: string, zone?: TimeZone): string {
  return appeal.withdrawal
    ? `Review of your ${formatDollars(appeal.withdrawal.amount)} cash-out of ${formatDate(appeal.withdrawal.created_at, zone)}`
    : `Review of your paused cash-outs, asked ${formatDate(createdAt, zone)}`;
}

/** The id of a ticket's conversation on the person's page (its answer form is `answer-` + it). */
export function conversationId(kind: TicketKind, id: number): string {
  return `${kind === "feedback" ? "feedback" : "report"}-${id}`;
}

/** Where the person reads a ticket of this kind: Help & Support, or My offers for a report. */
export function personTicketPage(kind: TicketKind): string {
  return kind === "feedback" ? "/profile?tab=help" : "/earn/offers";
}

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
  /** An appeal (docs/decisions/090): what it appeals; null for ordinary feedback and reports. */
  appeal?: Appeal["cause"] | null;
}

/** An appeal's context on its console page: the refused withdrawal and every risk reason, shared or not. */
export interface ConsoleAppeal {
  cause: Appeal["cause"];
  withdrawal: {
    id: string;
    amount: number;
    payment_method: string;
    created_at: string;
    failure_reason: string | null;
    risk_score: number | null;
  } | null;
  reasons: { code: string; detail: string; points: number; shown: boolean }[];
}

/** The console's words for what an appeal is about. */
export const APPEAL_CAUSE_LABELS: Record<Appeal["cause"], string> = {
  payouts_paused: "Appeal: cash-outs paused",
  withdrawal_refused: "Appeal: cash-out refused",
};

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
  /** Operators' replies and notes, and the person's answers (`from`), oldest first. */
  messages: {
    id: number;
    created_at: string;
    from: "operator" | "person";
    /** Null for the person's answers. */
    operator_name: string | null;
    body: string;
    internal: boolean;
  }[];
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
