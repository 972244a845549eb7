import type { SubmissionResult } from "@conform-to/react";
import { FilterForm, FilterSelect, ShowButton } from "~/components/operator/FilterForm";
import { ViewTabs, viewTabsOf } from "~/components/operator/ViewTabs";
import { Form, Link } from "@remix-run/react";
import { ConsoleEmpty, ConsoleTable } from "~/components/operator/ConsoleTable";
import { PasswordAgain } from "~/components/operator/PasswordAgain";
import { ReviewReasons } from "~/components/operator/ReviewReasons";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { buttonClass } from "~/components/ui/button";
import { formatDate, formatUtcTime, waitedFor } from "~/domain/dates";
import { formatDollars } from "~/domain/money";
import {
  PAYMENT_METHOD_LABELS,
  WITHDRAWAL_AGES,
  WITHDRAWAL_VIEWS,
  withdrawalFiltersQuery,
  withdrawalStage,
  type ConsoleWithdrawal,
  type WithdrawalCounts,
  type WithdrawalFilters,
} from "~/domain/operator-withdrawals";
import { SELECT_PREFIX } from "~/domain/withdrawal-review-forms";
import { CONSOLE_LINK } from "~/components/operator/console-link";

const CELL = "px-4 py-3";

function WithdrawalTabs({ filters, counts }: { filters: WithdrawalFilters; counts: WithdrawalCounts }) {
  const badge: Partial<Record<WithdrawalFilters["view"], number>> = {
    review: counts.review,
    unpaid: counts.unpaid,
    sent: counts.sent,
  };
  const tabs = viewTabsOf(
    WITHDRAWAL_VIEWS,
    filters.view,
    "/admin/withdrawals",
    (view) => withdrawalFiltersQuery({ ...filters, view }),
    badge,
  );
  return <ViewTabs label="Withdrawal lists" tabs={tabs} />;
}

const METHOD_OPTIONS = Object.entries(PAYMENT_METHOD_LABELS);
const AGE_OPTIONS = WITHDRAWAL_AGES.map((age) => [age.hours, `More than ${age.label}`] as const);

function Filters({ filters }: { filters: WithdrawalFilters }) {
  return (
    <FilterForm className="flex flex-wrap items-end gap-3">
      {filters.view !== "review" ? <input type="hidden" name="view" value={filters.view} /> : null}
      <FilterSelect
        id="withdrawal-method"
        name="method"
        label="Method"
        defaultValue={filters.method}
        every="Every method"
        options={METHOD_OPTIONS}
      />
      <FilterSelect
        id="withdrawal-age"
        name="age"
        label="Waiting"
        defaultValue={filters.minAgeHours}
        every="Any time"
        options={AGE_OPTIONS}
      />
      <ShowButton />
    </FilterForm>
  );
}

function Flags({ withdrawal }: { withdrawal: ConsoleWithdrawal }) {
  const flags = [
    withdrawal.first_withdrawal ? "first cash-out" : null,
    withdrawal.payouts_paused ? "cash-outs paused" : null,
    withdrawal.banned ? "account closed" : null,
    withdrawal.balance < 0 ? `balance ${formatDollars(withdrawal.balance)}` : null,
  ].filter((flag): flag is string => flag !== null);
  if (flags.length === 0) return null;
  return <span className="block text-xs font-semibold text-amber-800">{flags.join(" · ")}</span>;
}

/** The list's columns; each row's cells name theirs (a card below 768px shows it above the cell). */
const COLUMNS = {
  select: "Select",
  asked: "Asked",
  account: "Account",
  amount: "Amount, paid to",
  review: "Review",
  stage: "Stage",
} as const;

function Row({ withdrawal, selectable, now }: { withdrawal: ConsoleWithdrawal; selectable: boolean; now: string }) {
  const checkboxId = `${SELECT_PREFIX}${withdrawal.id}`;
  return (
    <tr data-testid="withdrawal-row" className="align-top">
      {selectable ? (
        <td className={CELL} data-label={COLUMNS.select}>
          <input
            id={checkboxId}
            type="checkbox"
            name={checkboxId}
            aria-label={`Select ${formatDollars(withdrawal.amount)} to ${withdrawal.email ?? "a deleted account"}`}
            className="size-11 accent-brand-600"
          />
        </td>
      ) : null}
      <td className={`${CELL} tabular-nums`} data-label={COLUMNS.asked}>
        {/* The day, then the time: each on one line, never broken inside. */}
        <span className="block whitespace-nowrap">{formatDate(withdrawal.created_at)}</span>
        <span className="block whitespace-nowrap">{formatUtcTime(withdrawal.created_at)}</span>
        <span className="block text-xs text-muted">waiting {waitedFor(withdrawal.created_at, now)}</span>
      </td>
      <td className={`${CELL} min-w-40 [overflow-wrap:anywhere]`} data-label={COLUMNS.account}>
        {withdrawal.user_id ? (
          <Link to={`/admin/people/${encodeURIComponent(withdrawal.user_id)}`} className={CONSOLE_LINK}>
            {withdrawal.email ?? withdrawal.user_id}
          </Link>
        ) : (
          <span className="text-muted">a deleted account</span>
        )}
        <Flags withdrawal={withdrawal} />
      </td>
      <td className={`${CELL} min-w-40 [overflow-wrap:anywhere]`} data-label={COLUMNS.amount}>
        <span className="block font-semibold whitespace-nowrap tabular-nums">{formatDollars(withdrawal.amount)}</span>
        <span data-testid="withdrawal-method">{PAYMENT_METHOD_LABELS[withdrawal.payment_method]}</span>
        <span className="block text-xs text-muted">{withdrawal.recipient}</span>
      </td>
      <td className={`${CELL} min-w-52`} data-label={COLUMNS.review}>
        <ReviewReasons score={withdrawal.risk_score} reasons={withdrawal.risk_reasons} />
      </td>
      <td className={`${CELL} whitespace-nowrap`} data-label={COLUMNS.stage}>
        <span className="block">{withdrawalStage(withdrawal)}</span>
        <Link
          to={`/admin/withdrawals/${withdrawal.id}`}
          className="mt-1 flex min-h-11 min-w-11 items-center font-medium text-brand-700 underline underline-offset-2"
        >
          Open<span className="sr-only"> the withdrawal of {formatDollars(withdrawal.amount)}</span>
        </Link>
      </td>
    </tr>
  );
}

export function WithdrawalsScreen({
  filters,
  page,
  counts,
  paged,
  canAct,
  needsPassword,
  now,
  lastResult,
}: {
  filters: WithdrawalFilters;
  page: { rows: ConsoleWithdrawal[]; next: { at: string; id: string } | null };
  counts: WithdrawalCounts;
  paged: boolean;
  canAct: boolean;
  needsPassword: boolean;
  now: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const bulk = canAct && filters.view === "review" && page.rows.length > 0;
  const query = withdrawalFiltersQuery(filters);
  const passwordErrors = lastResult?.error?.password ?? undefined;
  const table = (
    <ConsoleTable
      label="Withdrawals"
      caption={`${WITHDRAWAL_VIEWS.find((view) => view.value === filters.view)!.label}, ${
        WITHDRAWAL_VIEWS.find((view) => view.value === filters.view)!.queue ? "oldest first" : "newest first"
      }`}
      columns={[
        ...(bulk ? [COLUMNS.select] : []),
        COLUMNS.asked,
        COLUMNS.account,
        COLUMNS.amount,
        COLUMNS.review,
        COLUMNS.stage,
      ]}
      minWidth="min-w-[56rem]"
    >
      {page.rows.map((withdrawal) => (
        <Row key={withdrawal.id} withdrawal={withdrawal} selectable={bulk} now={now} />
      ))}
    </ConsoleTable>
  );
  return (
    <div className="space-y-5">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Withdrawals</h1>
          <p className="mt-1 text-sm text-muted">
            {counts.review} in review
            {counts.review_oldest_at ? `, the oldest has waited ${waitedFor(counts.review_oldest_at, now)}` : ""};{" "}
            {counts.unpaid} approved and unpaid; {counts.sent} with PayPal.
          </p>
        </div>
        {canAct ? (
          // A plain form: the answer is a file to save, not a page.
          <form method="post" action="/admin/withdrawals.csv">
            <button type="submit" className={buttonClass({ tone: "secondary", size: "md" })}>
              Export unpaid UPI and bank (CSV)
            </button>
          </form>
        ) : null}
      </header>
      <WithdrawalTabs filters={filters} counts={counts} />
      <Filters filters={filters} />
      {!bulk ? <FormBanner errors={lastResult?.error?.[""] ?? undefined} /> : null}
      {page.rows.length === 0 ? (
        <ConsoleEmpty>{paged ? "No more withdrawals in this list." : "No withdrawal in this list."}</ConsoleEmpty>
      ) : bulk ? (
        <Form method="post" className="space-y-3" aria-describedby={lastResult?.error?.[""] ? "bulk-error" : undefined}>
          <FormBanner id="bulk-error" errors={lastResult?.error?.[""] ?? undefined} />
          {table}
          <div className="flex flex-wrap items-end gap-3">
            {needsPassword || passwordErrors ? <PasswordAgain id="bulk-password" errors={passwordErrors} /> : null}
            <SubmitButton intent="approve-selected" pendingText="Approving…" look={{ size: "md" }}>
              Approve selected
            </SubmitButton>
            <p className="text-xs text-muted">
              PayPal ones are paid at once; UPI and bank ones wait to be paid by hand.
            </p>
          </div>
        </Form>
      ) : (
        table
      )}
      {paged || page.next ? (
        <nav aria-label="Withdrawal pages" className="flex gap-4 text-sm font-medium">
          {paged ? (
            <Link
              to={`/admin/withdrawals${query.size ? `?${query}` : ""}`}
              className="text-brand-700 underline underline-offset-2"
            >
              First page
            </Link>
          ) : null}
          {page.next ? (
            <Link
              to={`/admin/withdrawals?${new URLSearchParams([...query, ["at", page.next.at], ["id", page.next.id]])}`}
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
