import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { ActionField, ActionForm, replyTo } from "~/components/operator/ActionForm";
import { ConsoleSection } from "~/components/operator/ConsoleTable";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { formatDate, formatTimestamp } from "~/domain/dates";
import { formatDollars } from "~/domain/money";
import { formatNumber } from "~/domain/numbers";
import {
  APPEAL_CAUSE_LABELS,
  TICKET_KIND_LABELS,
  TICKET_STATUS_LABELS,
  type ConsoleAppeal,
  type TicketPage,
  type TicketStatus,
} from "~/domain/support";
import { CONSOLE_LINK } from "~/components/operator/console-link";
import { useFormKey } from "~/lib/use-form";

type Reply = SubmissionResult<string[]> | undefined;

function WhatTheyWrote({ ticket }: { ticket: TicketPage }) {
  const detail = ticket.detail;
  return (
    <div className="space-y-2 rounded-2xl border border-line bg-white p-5 text-sm shadow-sm">
      <p className="text-xs font-semibold text-muted [overflow-wrap:anywhere]">
        {ticket.person ? (
          <Link
            to={`/admin/people/${encodeURIComponent(ticket.person.id)}`}
            className="text-brand-700 underline underline-offset-2"
          >
            {ticket.person.email ?? ticket.person.display_name}
          </Link>
        ) : (
          "a deleted account"
        )}{" "}
        · {formatTimestamp(ticket.created_at)}
      </p>
      {"network" in detail ? (
        <>
          <p>
            <span className="font-semibold">{detail.offer_name}</span> on {detail.network}, done{" "}
            {formatDate(detail.completed_on)}
          </p>
          <p className="break-words whitespace-pre-line">{detail.details}</p>
        </>
      ) : (
        <>
          <p className="text-xs text-muted [overflow-wrap:anywhere]">
            Signed “{detail.name}”, reply-to {detail.email} (replies go to the account&apos;s verified address)
          </p>
          <p className="break-words whitespace-pre-line">{ticket.subject}</p>
        </>
      )}
    </div>
  );
}

/** A ticket's one credit, waiting for a second operator or applied: no second form is offered. */
function creditedAlready(ticket: TicketPage): boolean {
  return (ticket.adjustments ?? []).some((adjustment) => adjustment.state !== "declined");
}

/** "400 coins ($4.00)": what the person reported, with what it is worth. */
function formatCoinsWithDollars(dollars: number, coinsPerDollar: number): string {
  const coins = Math.round(Number(dollars) * coinsPerDollar);
  return `${formatNumber(coins)} coins (${formatDollars(dollars)})`;
}

/** The look and words of a message in the thread: the person's answers, replies, notes. */
function threadEntry(message: TicketPage["messages"][number]) {
  if (message.from === "person") {
    return { testId: "ticket-answer", box: "border-line bg-white", label: "Their answer" };
  }
  return message.internal
    ? {
        testId: "ticket-note",
        box: "border-amber-200 bg-amber-50",
        label: `Note (operators only) · ${message.operator_name}`,
      }
    : { testId: "ticket-reply", box: "border-brand-100 bg-brand-50", label: `Reply · ${message.operator_name}` };
}

/** After what they first wrote: the operators' replies and notes and the person's answers, in order. */
function Thread({ ticket }: { ticket: TicketPage }) {
  if (ticket.messages.length === 0) return <p className="text-sm text-muted">No operator has written yet.</p>;
  return (
    <ol className="space-y-3">
      {ticket.messages.map((message) => {
        const entry = threadEntry(message);
        return (
          <li key={message.id} data-testid={entry.testId} className={`rounded-2xl border p-4 text-sm ${entry.box}`}>
            <p className="text-xs font-semibold text-muted">
              {entry.label} · {formatTimestamp(message.created_at)}
            </p>
            <p className="mt-1 break-words whitespace-pre-line">{message.body}</p>
          </li>
        );
      })}
    </ol>
  );
}

/** The small forms that change the ticket's status or who has it: one button each. */
function StateButtons({ ticket, uid, lastResult }: { ticket: TicketPage; uid: string; lastResult: Reply }) {
  const statuses = (["open", "waiting", "resolved"] as TicketStatus[]).filter((status) => status !== ticket.status);
  const errors = [
    ...(replyTo(lastResult, "status")?.error?.[""] ?? []),
    ...(replyTo(lastResult, "assign")?.error?.[""] ?? []),
  ];
  return (
    <div className="space-y-2">
      <FormBanner errors={errors.length ? errors : undefined} />
      <div className="flex flex-wrap gap-2">
        {statuses.map((status) => (
          <Form key={status} method="post">
            <input type="hidden" name="status" value={status} />
            <SubmitButton
              intent="status"
              pendingWith={{ status }}
              pendingText="Saving…"
              look={{ tone: status === "resolved" ? "primary" : "secondary", size: "md" }}
            >
              {status === "resolved" ? "Mark resolved" : status === "open" ? "Reopen" : "Mark waiting for them"}
            </SubmitButton>
          </Form>
        ))}
        <Form method="post">
          <input type="hidden" name="to" value={ticket.assigned_to === uid ? "nobody" : "me"} />
          <SubmitButton intent="assign" pendingText="Saving…" look={{ tone: "secondary", size: "md" }}>
            {ticket.assigned_to === uid ? "Hand it back" : "Take it"}
          </SubmitButton>
        </Form>
      </div>
    </div>
  );
}

/**
 * An appeal (docs/decisions/090): what it appeals, and for a refused cash-out its risk reasons, each
 * with a box: the checked ones are what the person reads under their appeal (saved and audited).
 */
function AppealContext({ appeal, lastResult }: { appeal: ConsoleAppeal; lastResult: Reply }) {
  const withdrawal = appeal.withdrawal;
  return (
    <ConsoleSection title="What they appeal">
      <div className="space-y-3 rounded-2xl border border-line bg-white p-5 text-sm shadow-sm">
        {withdrawal ? (
          <>
            <p>
              {`Their ${formatDollars(withdrawal.amount)} cash-out, refused at review${
                withdrawal.failure_reason ? `: ${withdrawal.failure_reason}` : ""
              } (score ${withdrawal.risk_score ?? "—"}).`}
            </p>
            <Link to={`/admin/withdrawals/${withdrawal.id}`} className={CONSOLE_LINK}>
              Open the cash-out of {formatTimestamp(withdrawal.created_at)}
            </Link>
          </>
        ) : (
          <p>Their paused cash-outs. Resume them on their account&apos;s page once you are satisfied.</p>
        )}
      </div>
      {withdrawal && appeal.reasons.length > 0 ? (
        <ActionForm
          intent="show-reasons"
          title="Reasons they may read"
          help="Checked reasons are shown to them under their appeal, in these words. Share what helps them answer, never what names another account."
          button="Save what they see"
          pendingText="Saving…"
          tone="secondary"
          lastResult={lastResult}
        >
          <fieldset className="space-y-2">
            <legend className="sr-only">Reasons they may read</legend>
            {appeal.reasons.map((reason) => (
              <label key={reason.code} className="flex min-h-11 items-start gap-3">
                <input
                  type="checkbox"
                  name="reasons"
                  value={reason.code}
                  defaultChecked={reason.shown}
                  className="mt-0.5 size-5 shrink-0 accent-brand-600"
                />
                <span>
                  <span className="font-semibold">+{reason.points}</span> {reason.detail}
                </span>
              </label>
            ))}
          </fieldset>
        </ActionForm>
      ) : null}
    </ConsoleSection>
  );
}

export function TicketScreen({
  ticket,
  appeal = null,
  viewer,
  lastResult,
}: {
  ticket: TicketPage | null;
  /** What an appeal is about; null for other tickets. */
  appeal?: ConsoleAppeal | null;
  viewer: { uid: string; canMoveMoney: boolean; needsPassword: boolean; coinsPerDollar: number };
  lastResult: Reply;
}) {
  // A new page (a reply or a note went through) starts the boxes afresh; a live refresh of the same
  // page keeps what is being typed, and a refused post keeps what was sent.
  const formKey = useFormKey(lastResult ?? undefined);
  if (!ticket) {
    return (
      <div className="max-w-2xl space-y-4">
        <h1 className="text-2xl font-bold tracking-tight">No such ticket</h1>
        <FormBanner
          errors={lastResult?.error ? Object.values(lastResult.error).flatMap((errors) => errors ?? []) : undefined}
        />
        <Link to="/admin/support" className={`${CONSOLE_LINK} text-sm`}>
          Back to the inbox
        </Link>
      </div>
    );
  }
  const canReply = ticket.person !== null;
  return (
    <div className="max-w-4xl space-y-8">
      <header className="space-y-2">
        <Link to="/admin/support" className={`${CONSOLE_LINK} text-sm`}>
          Support
        </Link>
        <h1 className="text-2xl font-bold tracking-tight [overflow-wrap:anywhere]">
          {"network" in ticket.detail
            ? `Missing credit: ${ticket.detail.offer_name} (${ticket.detail.network})`
            : `${appeal ? APPEAL_CAUSE_LABELS[appeal.cause] : TICKET_KIND_LABELS[ticket.kind]} #${ticket.id}`}
        </h1>
        <p className="text-sm font-semibold" data-testid="ticket-status">
          {TICKET_STATUS_LABELS[ticket.status]}
          <span className="font-normal text-muted">
            {" "}
            · {ticket.assigned_name ? `assigned to ${ticket.assigned_name}` : "not assigned"}
          </span>
        </p>
      </header>
      <WhatTheyWrote ticket={ticket} />
      {appeal ? <AppealContext appeal={appeal} lastResult={lastResult} /> : null}
      <ConsoleSection title="Messages">
        <Thread ticket={ticket} />
      </ConsoleSection>
      <ConsoleSection title="Answer">
        <div className="grid gap-4 lg:grid-cols-2">
          {canReply ? (
            <ActionForm
              // Sent, the page is new: what was sent does not stay in the box to be sent twice.
              key={`reply-${formKey}`}
              intent="reply"
              title="Reply to them"
              help="They see it under their message, as a notice, and by email when their address is verified. The ticket then waits for them; when they answer, it is open again and you are told."
              button="Send reply"
              pendingText="Sending…"
              lastResult={lastResult}
            >
              <ActionField intent="reply" name="body" label="Reply" multiline lastResult={lastResult} />
            </ActionForm>
          ) : (
            <p className="text-sm text-muted">The account that sent this was deleted: there is nobody to reply to.</p>
          )}
          <ActionForm
            key={`note-${formKey}`}
            intent="note"
            title="Internal note"
            help="Only operators see it."
            button="Add note"
            pendingText="Saving…"
            tone="secondary"
            lastResult={lastResult}
          >
            <ActionField intent="note" name="body" label="Note" multiline lastResult={lastResult} />
          </ActionForm>
          {ticket.kind === "missing_credit" &&
          viewer.canMoveMoney &&
          ticket.person &&
          ticket.person.id !== viewer.uid &&
          !creditedAlready(ticket) ? (
            <ActionForm
              intent="credit"
              title="Credit the offer"
              help="Adds the offer's reward as earned money (a correction in their ledger) and resolves this report; they see the coins in My offers. One credit per ticket. Check the network's own records first."
              button="Credit the offer"
              pendingText="Crediting…"
              needsPassword={viewer.needsPassword}
              lastResult={lastResult}
            >
              <ActionField
                intent="credit"
                name="coins"
                label="Coins"
                hint={`The offer's reward in coins, as they reported it (${viewer.coinsPerDollar} coins are $1.00).`}
                inputMode="numeric"
                lastResult={lastResult}
              />
              <ActionField
                intent="credit"
                name="reason"
                label="Reason (kept in the audit log)"
                multiline
                lastResult={lastResult}
              />
            </ActionForm>
          ) : null}
        </div>
        {ticket.adjustments && ticket.adjustments.length > 0 ? (
          <ul className="text-sm">
            {ticket.adjustments.map((adjustment) => (
              <li key={adjustment.id}>
                Credit of {formatCoinsWithDollars(adjustment.amount, viewer.coinsPerDollar)} by{" "}
                {adjustment.requested_by}:{" "}
                {adjustment.state === "awaiting_approval" ? "waiting for a second operator" : adjustment.state}
              </li>
            ))}
          </ul>
        ) : null}
      </ConsoleSection>
      <ConsoleSection title="Status">
        <StateButtons ticket={ticket} uid={viewer.uid} lastResult={lastResult} />
      </ConsoleSection>
    </div>
  );
}
