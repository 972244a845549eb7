import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatDate } from "~/domain/dates";
import {
  ANSWER_FORM,
  CONVERSATION_AUTHORS,
  conversationId,
  PERSON_TICKET_STATUS,
  type ConversationMessage,
  type TicketKind,
  type TicketStatus,
} from "~/domain/support";
import { useFormKey, useFormState } from "~/lib/use-form";
import { TextareaField } from "./forms/Field";
import { FormBanner } from "./forms/FormBanner";
import { SubmitButton } from "./forms/SubmitButton";
import { useTimeZone } from "~/lib/time-zone";

const STATUS_TONES: Record<TicketStatus, string> = {
  open: "bg-amber-50 text-amber-800",
  waiting: "bg-brand-50 text-brand-700",
  resolved: "bg-gray-100 text-muted",
};

/** A ticket's status in the person's words: Open, Waiting for you, Resolved. */
function StatusBadge({ status }: { status: TicketStatus }) {
  return (
    <span
      className={`inline-block shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_TONES[status]}`}
      data-testid="ticket-status"
    >
      {PERSON_TICKET_STATUS[status].label}
    </span>
  );
}

/** The reply of the page's action when it answers this ticket's form, else nothing. */
function replyFor(lastResult: SubmissionResult<string[]> | undefined, kind: TicketKind, id: number) {
  const sent = lastResult?.initialValue;
  return sent?.intent === "answer" && sent.kind === kind && sent.ticketId === String(id) ? lastResult : undefined;
}

/** Every message of a refused reply, the form's and its fields'. */
function replyErrors(reply: SubmissionResult<string[]> | undefined): string[] | undefined {
  const errors = Object.values(reply?.error ?? {}).flatMap((messages) => messages ?? []);
  return errors.length ? errors : undefined;
}

/**
 * A refused answer to a ticket of `kind` that is not among the conversations drawn (`ids`): not the
 * person's, or not on this page. Its message, said above them, since no form of it is there.
 */
export function AnswerRefusedElsewhere({
  lastResult,
  kind,
  ids,
}: {
  lastResult?: SubmissionResult<string[]>;
  kind: TicketKind;
  ids: readonly number[];
}) {
  const sent = lastResult?.initialValue;
  if (sent?.intent !== "answer" || (sent.kind === kind && ids.some((id) => String(id) === sent.ticketId))) return null;
  return <FormBanner title={ANSWER_FORM.failed} errors={replyErrors(lastResult)} />;
}

/**
 * One of the person's tickets as a conversation (docs/product.md, "Profile: help and support";
 * docs/decisions/082): what they first wrote, then their answers and support's replies in order,
 * each with who wrote it and when; the status in their words; and, until it is resolved, a form to
 * answer (a plain post, with or without JavaScript).
 */
export function SupportConversation({
  kind,
  id,
  status,
  title,
  detail,
  opening,
  messages,
  lastResult,
}: {
  kind: TicketKind;
  id: number;
  status: TicketStatus;
  title: string;
  /** Under the title: what the ticket is about (a report's network and dates). */
  detail?: ReactNode;
  /** What the person first wrote: their feedback, or what they did for a report. */
  opening: { created_at: string; body: string };
  messages: readonly ConversationMessage[];
  lastResult?: SubmissionResult<string[]>;
}) {
  const zone = useTimeZone();
  const anchor = conversationId(kind, id);
  const reply = replyFor(lastResult, kind, id);
  // A new page (after an answer went through) is an empty form; a refused one keeps what was typed.
  const formKey = useFormKey(reply);
  const all: ConversationMessage[] = [{ id: 0, created_at: opening.created_at, body: opening.body, from: "person" }];
  return (
    <article id={anchor} aria-labelledby={`${anchor}-title`} className="scroll-mt-4 py-4" data-testid="conversation">
      {/* The status beside the title, or under it when the two do not fit on one line (320 px). */}
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <div className="min-w-0 max-w-full">
          <h3 id={`${anchor}-title`} className="break-words text-sm font-semibold text-ink">
            {title}
          </h3>
          {detail}
        </div>
        <StatusBadge status={status} />
      </div>
      <ol className="mt-3 space-y-2" aria-label="Conversation">
        {all.concat(messages).map((message) => (
          <li
            key={message.id}
            data-testid="conversation-message"
            data-from={message.from}
            className={`rounded-xl px-3 py-2 text-sm text-ink ${
              message.from === "person" ? "ml-4 border border-line bg-gray-50 sm:ml-8" : "mr-4 bg-brand-50 sm:mr-8"
            }`}
          >
            <p className={`text-xs font-semibold ${message.from === "person" ? "text-muted" : "text-brand-700"}`}>
              {CONVERSATION_AUTHORS[message.from]} ·{" "}
              <time dateTime={message.created_at}>{formatDate(message.created_at, zone)}</time>
            </p>
            <p className="mt-0.5 break-words whitespace-pre-line">{message.body}</p>
          </li>
        ))}
      </ol>
      <p className="mt-2 text-xs text-muted">{PERSON_TICKET_STATUS[status].meaning}</p>
      {status === "resolved" ? (
        // Resolved since the page was drawn: the refusal is said where the form was.
        <div className="mt-3 empty:hidden">
          <FormBanner title={ANSWER_FORM.failed} errors={replyErrors(reply)} />
        </div>
      ) : (
        <AnswerForm key={formKey} kind={kind} id={id} lastResult={reply} />
      )}
    </article>
  );
}

function AnswerForm({
  kind,
  id,
  lastResult,
}: {
  kind: TicketKind;
  id: number;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useFormState({ id: `answer-${conversationId(kind, id)}`, fields: ["body"], lastResult });
  return (
    <Form method="post" {...form.props} preventScrollReset className="mt-3 space-y-3">
      <FormBanner id={form.errorId} title={ANSWER_FORM.failed} errors={form.errors} />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="ticketId" value={id} />
      <TextareaField
        field={fields.body}
        label={ANSWER_FORM.label}
        hint={ANSWER_FORM.hint}
        textareaProps={{ required: true, maxLength: 2000, rows: 3 }}
      />
      <SubmitButton
        intent="answer"
        pendingWith={{ kind, ticketId: String(id) }}
        pendingText={ANSWER_FORM.pending}
        look={{ size: "md" }}
      >
        {ANSWER_FORM.button}
      </SubmitButton>
    </Form>
  );
}
