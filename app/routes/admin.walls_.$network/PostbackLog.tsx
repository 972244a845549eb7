// The wall page's postback log: its filters, its rows, and the held postbacks waiting for a decision.
import { Form, Link } from "@remix-run/react";
import { FilterForm } from "~/components/operator/FilterForm";
import { Badge } from "~/components/operator/Badge";
import { ConsoleEmpty, ConsolePager, ConsoleSection, ConsoleTable } from "~/components/operator/ConsoleTable";
import { ErrorList } from "~/components/forms/ErrorList";
import { INPUT_CLASS, TextareaField } from "~/components/forms/Field";
import { FormBanner } from "~/components/forms/FormBanner";
import { buttonClass } from "~/components/ui/button";
import { Spinner } from "~/components/ui/Icon";
import { formatCoins } from "~/domain/money";
import { formatTimestamp } from "~/domain/dates";
import type { HeldPostback, PostbackLogEntry, PostbackLogFilters, WallView } from "~/domain/operator-walls";
import { fieldAria, useFormState } from "~/lib/use-form";
import { useIsPending } from "~/lib/use-is-pending";
import { CELL, LINK, NUMBER, Password, WRAP, type Reply } from "./wall-page-shared";

const VERDICT_TONES = {
  credited: "green",
  reversed: "amber",
  duplicate: "gray",
  ignored: "gray",
  refused: "red",
  held: "amber",
} as const;

/** The log page's URL with these filters (and `before`, for an older page). */
function logHref(name: string, filters: PostbackLogFilters, before: number | null = null): string {
  const params = new URLSearchParams();
  if (filters.refused) params.set("refused", "1");
  if (filters.user) params.set("user", filters.user);
  if (filters.tx) params.set("tx", filters.tx);
  if (before !== null) params.set("before", String(before));
  const query = params.toString();
  return `/admin/walls/${name}${query ? `?${query}` : ""}`;
}

/** A text box of the log's filter form, with what is wrong with it under it. */
function FilterBox({
  name,
  label,
  value,
  problem,
  maxLength,
}: {
  name: "user" | "tx";
  label: string;
  value: string;
  problem: string | undefined;
  maxLength: number;
}) {
  const field = {
    id: `log-${name}`,
    name,
    errorId: `log-${name}-error`,
    errors: problem ? [problem] : undefined,
    initialValue: value,
    initialValues: [value],
  };
  return (
    <div className="w-full min-w-0 sm:w-auto sm:flex-1 sm:basis-56">
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        id={field.id}
        name={name}
        type="search"
        defaultValue={value}
        maxLength={maxLength}
        autoComplete="off"
        className={INPUT_CLASS}
        {...fieldAria(field)}
      />
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

function LogFilters({
  view,
  filters,
  problems,
}: {
  view: WallView;
  filters: PostbackLogFilters;
  problems: { user?: string; tx?: string };
}) {
  return (
    <FilterForm action={`/admin/walls/${view.name}`} className="flex flex-wrap items-end gap-3" role="search">
      <FilterBox
        name="user"
        label="Person (email or account id)"
        value={filters.user}
        problem={problems.user}
        maxLength={320}
      />
      <FilterBox name="tx" label="Transaction" value={filters.tx} problem={problems.tx} maxLength={200} />
      <label className="flex h-12 items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          name="refused"
          value="1"
          defaultChecked={filters.refused}
          className="size-4 accent-brand-600"
        />
        Refused only
      </label>
      <button type="submit" className={buttonClass({ tone: "secondary", size: "lg" })}>
        Show
      </button>
      {filters.refused || filters.user || filters.tx ? (
        <Link to={`/admin/walls/${view.name}`} className={`${LINK} inline-flex min-h-12 items-center text-sm`}>
          Clear filters
        </Link>
      ) : null}
    </FilterForm>
  );
}

/** A log entry's row: called, not rendered as a component, so that ConsoleTable sees its cells and labels them. */
function logEntryRow({ name, entry, filters }: { name: string; entry: PostbackLogEntry; filters: PostbackLogFilters }) {
  const sent = [entry.query, entry.body].filter(Boolean).join(" · ");
  return (
    <tr key={entry.id} data-testid="postback-entry" className="align-top">
      <td className={NUMBER}>{formatTimestamp(entry.received_at)}</td>
      <td className={`${CELL} min-w-40`}>
        <Badge tone={VERDICT_TONES[entry.verdict]}>{entry.verdict}</Badge>
        {entry.reason ? (
          <span className="mt-1 block text-xs text-muted [overflow-wrap:anywhere]">{entry.reason}</span>
        ) : null}
      </td>
      <td className={`${CELL} min-w-40 break-words`}>
        {entry.user_id ? (
          <Link to={`/admin/people/${encodeURIComponent(entry.user_id)}`} className={LINK}>
            {entry.email ?? entry.user_id}
          </Link>
        ) : (
          "—"
        )}
      </td>
      <td className={`${WRAP} min-w-32`}>
        {entry.transaction_id ? (
          <Link to={logHref(name, { ...filters, tx: entry.transaction_id })} className={LINK}>
            <code>{entry.transaction_id}</code>
          </Link>
        ) : (
          "—"
        )}
      </td>
      <td className={NUMBER}>{entry.coins === null ? "—" : formatCoins(entry.coins)}</td>
      <td className={`${CELL} min-w-32`}>
        <span className="block whitespace-nowrap tabular-nums">{entry.client_address ?? "Not known"}</span>
        {sent ? (
          <details className="mt-1">
            <summary className="flex min-h-11 cursor-pointer items-center text-xs font-medium text-brand-700">
              {entry.method}: what was sent
            </summary>
            <code className="mt-1 block text-xs [overflow-wrap:anywhere]">{sent}</code>
          </details>
        ) : (
          <span className="text-xs text-muted">{entry.method}</span>
        )}
      </td>
    </tr>
  );
}

/** Approve or reject: a submit button of the held postback's form, pending while its own decision is on its way. */
function DecisionButton({
  held,
  decision,
  children,
}: {
  held: number;
  decision: "approve" | "reject";
  children: string;
}) {
  const pending = useIsPending({ intent: "held", with: { held: String(held), decision } });
  return (
    <button
      type="submit"
      name="decision"
      value={decision}
      disabled={pending}
      className={buttonClass({ tone: decision === "approve" ? "primary" : "secondary", size: "md" })}
    >
      {pending ? <Spinner /> : null}
      {pending ? (decision === "approve" ? "Approving…" : "Rejecting…") : children}
    </button>
  );
}

/** One held postback's decision form (finance and owners): a reason for the audit log, then approve or reject. */
function HeldDecision({ held, reply, needsPassword }: { held: HeldPostback; reply: Reply; needsPassword: boolean }) {
  const formId = `held-${held.id}`;
  const ours = reply?.initialValue?.intent === "held" && reply.initialValue.held === String(held.id);
  const [form, fields] = useFormState({
    id: formId,
    fields: ["reason", "password"],
    lastResult: ours ? reply : undefined,
  });
  return (
    <Form method="post" {...form.props} className="mt-2 space-y-3">
      <input type="hidden" name="intent" value="held" />
      <input type="hidden" name="held" value={held.id} />
      <FormBanner id={form.errorId} errors={form.errors} />
      <TextareaField
        field={fields.reason}
        label="Why (for the audit log)"
        textareaProps={{ maxLength: 500, rows: 2 }}
      />
      <Password formId={formId} needed={needsPassword} errors={fields.password.errors} />
      <div className="flex flex-wrap gap-3">
        <DecisionButton held={held.id} decision="approve">
          {held.kind === "credit" ? "Approve and pay" : "Approve: take it back"}
        </DecisionButton>
        <DecisionButton held={held.id} decision="reject">
          Reject
        </DecisionButton>
      </div>
    </Form>
  );
}

/**
 * Credits held because their signature had already paid another transaction: a network whose
 * signature does not bind the transaction (docs/offer-walls.md, "Held postbacks"). A second
 * completion of the same offer is genuine and approved by hand; a replay is rejected.
 */
export function HeldPostbacks({
  view,
  held,
  canDecide,
  operatorId,
  reply,
  needsPassword,
}: {
  view: WallView;
  held: readonly HeldPostback[];
  canDecide: boolean;
  operatorId: string;
  reply: Reply;
  needsPassword: boolean;
}) {
  if (held.length === 0 && view.signatureBindsTransaction) return null;
  return (
    <ConsoleSection title="Held for review">
      <p className="max-w-3xl text-sm text-muted">
        {view.label}&apos;s signature does not bind everything a postback says, so what it leaves open waits here: a
        credit whose signature already paid another transaction, or a reversal told only by a field the signature does
        not cover. Approve it once {view.label}&apos;s dashboard shows the conversion or the chargeback; reject a
        replay. Another operator decides what concerns your own account.
      </p>
      {held.length === 0 ? (
        <ConsoleEmpty>Nothing is waiting.</ConsoleEmpty>
      ) : (
        <ul className="max-w-3xl space-y-4">
          {held.map((entry) => (
            <li
              key={entry.id}
              data-testid="held-postback"
              className="rounded-2xl border border-line bg-white p-5 text-sm shadow-sm"
            >
              <p className="font-medium">
                {entry.kind === "credit" ? "Credit of" : "Reversal of"} {formatCoins(entry.coins)}{" "}
                {entry.kind === "credit" ? "to" : "from"}{" "}
                {entry.user_id ? (
                  <Link to={`/admin/people/${encodeURIComponent(entry.user_id)}`} className={LINK}>
                    {entry.email ?? entry.user_id}
                  </Link>
                ) : (
                  "a deleted account"
                )}
              </p>
              <p className="mt-1 text-muted [overflow-wrap:anywhere]">
                Transaction{" "}
                <Link
                  to={logHref(view.name, { refused: false, user: "", tx: entry.transaction_id, before: null })}
                  className={LINK}
                >
                  <code>{entry.transaction_id}</code>
                </Link>
                , received {formatTimestamp(entry.received_at)}
                {entry.offer_name ? <>, offer “{entry.offer_name}”</> : null}. Held because {entry.reason}.
              </p>
              {canDecide && entry.user_id && entry.user_id !== operatorId ? (
                <HeldDecision held={entry} reply={reply} needsPassword={needsPassword} />
              ) : canDecide && entry.user_id === operatorId ? (
                <p className="mt-2 text-muted">It pays your own account: another operator decides.</p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </ConsoleSection>
  );
}

export function PostbackLog({
  view,
  filters,
  log,
}: {
  view: WallView;
  filters: PostbackLogFilters;
  log: { entries: readonly PostbackLogEntry[]; olderBefore: number | null; problems: { user?: string; tx?: string } };
}) {
  const filtered = filters.refused || filters.user !== "" || filters.tx !== "";
  const paged = filters.before !== null;
  const problem = log.problems.user ?? log.problems.tx;
  return (
    <ConsoleSection title="Postback log">
      <LogFilters view={view} filters={filters} problems={log.problems} />
      {problem ? null : log.entries.length === 0 ? (
        <ConsoleEmpty>
          {paged
            ? "No older entries."
            : filtered
              ? "No postback matches these filters."
              : `No postback from ${view.label} yet.`}
        </ConsoleEmpty>
      ) : (
        <ConsoleTable
          label={`${view.label} postback log`}
          caption={`${view.label} postbacks, newest first`}
          columns={["Received", "Verdict", "Person", "Transaction", "Coins", "Sender"]}
          minWidth="min-w-[52rem]"
        >
          {log.entries.map((entry) => logEntryRow({ name: view.name, entry, filters }))}
        </ConsoleTable>
      )}
      <ConsolePager
        label="Postback log pages"
        newest={paged ? { to: logHref(view.name, filters), label: "Newest entries" } : null}
        older={
          log.olderBefore !== null ? { to: logHref(view.name, filters, log.olderBefore), label: "Older entries" } : null
        }
      />
    </ConsoleSection>
  );
}

/** A wall's page in the console: configuration, the owner's forms, the postback log. */
