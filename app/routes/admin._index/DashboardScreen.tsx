import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { sharePercent } from "~/domain/chart-geometry";
import { formatDay, formatTimestamp } from "~/domain/dates";
import { formatDollars } from "~/domain/money";
import {
  DASHBOARD_WINDOWS,
  EARNING_SOURCES,
  LOOPS,
  retentionShare,
  shareOf,
  dailyValues,
  formatCount,
  formatShare,
  reversalShare,
  seriesSummary,
  windowSums,
  type DailyMetric,
  type DashboardData,
  type DashboardWindow,
  type EarningSource,
} from "~/domain/operator-dashboard";
import { OPERATOR_ROLE_LABELS, type OperatorRole } from "~/domain/operator-roles";
import { waitedFor } from "~/domain/dates";
import { ColumnChart } from "./ColumnChart";

// Each source's colour in the charts: strong enough against white (3:1 at least) and apart from each other.
const SOURCE_COLOURS: Record<EarningSource, { fill: string; swatch: string }> = {
  "ledger:postback": { fill: "fill-brand-600", swatch: "bg-brand-600" },
  "ledger:checkin": { fill: "fill-money-600", swatch: "bg-money-600" },
  "ledger:task": { fill: "fill-sky-700", swatch: "bg-sky-700" },
  "ledger:referral": { fill: "fill-amber-600", swatch: "bg-amber-600" },
  "ledger:referral_bonus": { fill: "fill-rose-600", swatch: "bg-rose-600" },
  "ledger:bonus": { fill: "fill-gray-500", swatch: "bg-gray-500" },
};

/** Money in whole cents, so that the charts add amounts exactly. */
const cents = (dollars: number) => Math.round(dollars * 100);
const formatCents = (value: number) => formatDollars(value / 100);

const CELL = "px-1 py-2.5 text-right tabular-nums whitespace-nowrap last:pr-4 sm:px-4 sm:last:pr-5";
const ROW_HEAD = "py-2.5 pr-2 pl-4 text-left font-medium sm:pl-5";

function Panel({ title, aside, children }: { title: string; aside?: ReactNode; children: ReactNode }) {
  return (
    <section className="min-w-0 rounded-2xl border border-line bg-white shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 px-4 pt-4 sm:px-5">
        <h2 className="text-base font-bold">{title}</h2>
        {aside ? <p className="text-sm text-muted">{aside}</p> : null}
      </div>
      <div className="pt-2 pb-3">{children}</div>
    </section>
  );
}

/** A table whose columns are today, the last 7 days and the last 30 days. */
function WindowTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    // Scrolls sideways should a phone be narrower still (focusable, so a keyboard can scroll it too).
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs font-semibold tracking-wide text-muted uppercase">
          <tr>
            <td className="py-2 pl-4 sm:pl-5" />
            {DASHBOARD_WINDOWS.map((window) => (
              <th
                key={window.key}
                scope="col"
                className="px-1 py-2 text-right whitespace-nowrap last:pr-4 sm:px-4 sm:last:pr-5"
              >
                {window.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">{children}</tbody>
      </table>
    </div>
  );
}

/** One row of a WindowTable: a counter's figure in each window. */
function WindowRow({
  label,
  testId,
  values,
  note,
}: {
  label: ReactNode;
  testId: string;
  values: (window: DashboardWindow) => ReactNode;
  note?: (window: DashboardWindow) => ReactNode;
}) {
  return (
    <tr>
      <th scope="row" className={ROW_HEAD}>
        {label}
      </th>
      {DASHBOARD_WINDOWS.map((window) => (
        <td key={window.key} className={CELL}>
          <span data-testid={`${testId}-${window.key}`}>{values(window.key)}</span>
          {note ? <span className="block text-xs whitespace-normal text-muted">{note(window.key)}</span> : null}
        </td>
      ))}
    </tr>
  );
}

/** A figure of a list: its name (and what it means, small, under it) on the left, the figure on the right. */
function Figure({
  label,
  value,
  testId,
  detail,
}: {
  label: string;
  value: string;
  testId: string;
  detail?: ReactNode;
}) {
  return (
    <div className="flex items-baseline justify-between gap-4 px-4 py-2.5 sm:px-5">
      <dt className="min-w-0 text-sm">
        {label}
        {detail ? <span className="block text-xs text-muted">{detail}</span> : null}
      </dt>
      <dd className="shrink-0 text-right font-semibold whitespace-nowrap tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** "1 reversal", "12 reversals". */
function counted(n: number, one: string, many: string) {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

function People({ data }: { data: DashboardData }) {
  const count = (metric: DailyMetric) => (window: DashboardWindow) => formatCount(windowSums(data, metric, window).n);
  return (
    <Panel
      title="People"
      aside={
        <>
          <span data-testid="figure-accounts">{formatCount(data.accounts)}</span> accounts
        </>
      }
    >
      <WindowTable caption="People who signed up, were active and earned, today and over the last 7 and 30 days">
        <WindowRow label="Signed up" testId="figure-signups" values={count("signups")} />
        <WindowRow label="Active" testId="figure-active" values={count("active_last")} />
        <WindowRow label="Earning" testId="figure-earning" values={count("earning_last")} />
      </WindowTable>
      <p className="px-4 pt-2 text-xs text-muted sm:px-5">
        Active: signed in, checked in, completed a task, had an offer credited or asked for a withdrawal. Earning:
        credited for a check-in, a task or an offer. Each person counts once per column.
      </p>
    </Panel>
  );
}

function Liabilities({ data }: { data: DashboardData }) {
  const { balances, available, pending, negative } = data.liabilities;
  return (
    <Panel title="Owed to people">
      <dl className="divide-y divide-line">
        <Figure label="Balances" value={formatDollars(balances)} testId="figure-balances" />
        <Figure
          label="Available"
          value={formatDollars(available)}
          testId="figure-available"
          detail="not in a hold (some may be bonus still locked)"
        />
        <Figure
          label="Pending"
          value={formatDollars(pending)}
          testId="figure-pending"
          detail="offer earnings in their hold"
        />
        <Figure
          label="Below zero"
          value={formatDollars(negative.amount)}
          testId="figure-negative"
          detail={`${counted(negative.n, "account", "accounts")}, reversed after withdrawing`}
        />
      </dl>
    </Panel>
  );
}

function Withdrawals({ data }: { data: DashboardData }) {
  const { review, unpaid, sent } = data.withdrawals;
  const paid = (metric: DailyMetric) => (window: DashboardWindow) =>
    formatDollars(windowSums(data, metric, window).amount);
  const howMany = (metric: DailyMetric, done: string) => (window: DashboardWindow) =>
    `${formatCount(windowSums(data, metric, window).n)} ${done}`;
  return (
    <Panel title="Withdrawals">
      <dl className="divide-y divide-line border-b border-line">
        <Figure
          label="Waiting for review"
          value={`${formatCount(review.n)} · ${formatDollars(review.amount)}`}
          testId="figure-review"
          detail={
            review.oldest_at ? (
              <span data-testid="figure-review-oldest">{`the oldest has waited ${waitedFor(review.oldest_at, data.as_of)}`}</span>
            ) : (
              "none waiting"
            )
          }
        />
        <Figure
          label="Approved, not paid yet"
          value={`${formatCount(unpaid.n)} · ${formatDollars(unpaid.amount)}`}
          testId="figure-unpaid"
          detail={unpaid.oldest_at ? `the oldest has waited ${waitedFor(unpaid.oldest_at, data.as_of)}` : undefined}
        />
        <Figure
          label="Sent, not settled yet"
          value={`${formatCount(sent.n)} · ${formatDollars(sent.amount)}`}
          testId="figure-sent"
        />
      </dl>
      <WindowTable caption="Withdrawals paid out, and failed or refused (refunded), today and over the last 7 and 30 days">
        <WindowRow
          label="Paid out"
          testId="figure-paid"
          values={paid("withdrawals:paid")}
          note={howMany("withdrawals:paid", "paid")}
        />
        <WindowRow
          label="Failed or refused"
          testId="figure-failed"
          values={paid("withdrawals:failed")}
          note={howMany("withdrawals:failed", "refunded")}
        />
      </WindowTable>
      <p className="px-4 pt-2 sm:px-5">
        <Link
          to="/admin/withdrawals"
          className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline underline-offset-2"
        >
          Open the review queue
        </Link>
      </p>
    </Panel>
  );
}

function Reversals({ data }: { data: DashboardData }) {
  const credited = (window: DashboardWindow) => windowSums(data, "ledger:postback", window).amount;
  const reversed = (window: DashboardWindow) => windowSums(data, "ledger:postback_reversal", window);
  return (
    <Panel title="Offers and reversals">
      <WindowTable caption="Offer money credited and reversed, and the share reversed, today and over the last 7 and 30 days">
        <WindowRow
          label="Offers credited"
          testId="figure-offers"
          values={(window) => formatDollars(credited(window))}
          note={(window) => counted(windowSums(data, "ledger:postback", window).n, "credit", "credits")}
        />
        <WindowRow
          label="Reversed"
          testId="figure-reversed"
          values={(window) => formatDollars(Math.abs(reversed(window).amount))}
          note={(window) => counted(reversed(window).n, "reversal", "reversals")}
        />
        <WindowRow
          label="Share reversed"
          testId="figure-reversal-share"
          values={(window) => formatShare(reversalShare(reversed(window).amount, credited(window)))}
        />
      </WindowTable>
      <p className="px-4 pt-2 text-xs text-muted sm:px-5">
        Reversed money as a share of the offer money credited in the same days.
      </p>
    </Panel>
  );
}

function Sources({ data }: { data: DashboardData }) {
  const longest = Math.max(0, ...EARNING_SOURCES.map((source) => windowSums(data, source.metric, "month").amount));
  return (
    <Panel title="Earned by source" aside="Dollars, with the coins under them">
      <WindowTable caption="Money credited by source, in dollars and coins, today and over the last 7 and 30 days">
        {EARNING_SOURCES.map((source) => (
          <WindowRow
            key={source.metric}
            testId={`figure-source-${source.metric.slice("ledger:".length)}`}
            label={
              <>
                {source.label}
                <svg
                  aria-hidden="true"
                  viewBox="0 0 100 4"
                  preserveAspectRatio="none"
                  className="mt-1 block h-1.5 w-12"
                >
                  <rect width={100} height={4} className="fill-gray-100" />
                  <rect
                    width={sharePercent(windowSums(data, source.metric, "month").amount, longest)}
                    height={4}
                    className={SOURCE_COLOURS[source.metric].fill}
                  />
                </svg>
              </>
            }
            values={(window) => formatDollars(windowSums(data, source.metric, window).amount)}
            note={(window) =>
              // Referral rewards are paid in dollars: their ledger rows carry no coins.
              source.metric === "ledger:referral" || source.metric === "ledger:referral_bonus"
                ? "in dollars"
                : `${formatCount(windowSums(data, source.metric, window).coins)} coins`
            }
          />
        ))}
      </WindowTable>
      <p className="px-4 pt-2 text-xs text-muted sm:px-5">The bars compare the last 30 days.</p>
    </Panel>
  );
}

/**
 * What each reason to come back cost (docs/decisions/094, 095): its payments today and over 7 and 30
 * days, and this calendar month against its cap, with its switch.
 */
function Loops({ data }: { data: DashboardData }) {
  return (
    <Panel title="Bonus loops" aside="Dollars of bonus money, with the coins under them">
      <WindowTable caption="Bonus money paid by each loop, today and over the last 7 and 30 days">
        {LOOPS.map((loop) => {
          const month = data.loops[loop.loop];
          return (
            <WindowRow
              key={loop.loop}
              testId={`figure-loop-${loop.loop}`}
              label={
                <>
                  {loop.label}
                  <span className="block text-xs font-normal text-muted" data-testid={`loop-month-${loop.loop}`}>
                    {formatDollars(Number(month.paid))} of {formatDollars(Number(month.cap))} this month
                    {!month.on ? " · off" : month.stopped ? " · stopped at its cap" : ""}
                  </span>
                </>
              }
              values={(window) => formatDollars(windowSums(data, loop.metric, window).amount)}
              note={(window) => `${formatCount(windowSums(data, loop.metric, window).coins)} coins`}
            />
          );
        })}
      </WindowTable>
      <p className="px-4 pt-3 text-sm sm:px-5" data-testid="bonus-withdrawable">
        <span className="font-semibold">
          {formatShare(shareOf(Number(data.bonus.unlocked), Number(data.bonus.total)))} of bonus money ever withdrawable
        </span>{" "}
        <span className="text-muted">
          ({formatDollars(Number(data.bonus.unlocked))} of {formatDollars(Number(data.bonus.total))} paid to accounts
          that exist; bonus money unlocks as offer earnings clear)
        </span>
      </p>
      <p className="px-4 pt-2 text-xs text-muted sm:px-5">
        Part of Bonuses above. Switches and caps are in{" "}
        <Link to="/admin/settings" className="font-medium text-brand-700 hover:underline">
          Settings
        </Link>
        ; months are calendar months (UTC).
      </p>
    </Panel>
  );
}

/** Sign-up weeks, and the share of each active again 1, 7 and 30 days after signing up. */
function Retention({ data }: { data: DashboardData }) {
  const cell = (retained: number | null, signups: number) => formatShare(retentionShare(retained, signups));
  return (
    <Panel title="Coming back" aside="Active on the 1st, 7th and 30th day after signing up">
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Retention by sign-up week">
        <table className="w-full text-sm">
          <caption className="sr-only">
            Of the accounts made each week, the share active on the 1st, 7th and 30th day after signing up
          </caption>
          <thead className="text-xs font-semibold tracking-wide text-muted uppercase">
            <tr>
              <th scope="col" className="py-2 pl-4 text-left sm:pl-5">
                Week of
              </th>
              {["Sign-ups", "Day 1", "Day 7", "Day 30"].map((label) => (
                <th
                  key={label}
                  scope="col"
                  className="px-1 py-2 text-right whitespace-nowrap last:pr-4 sm:px-4 sm:last:pr-5"
                >
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {data.retention.map((week) => (
              <tr key={week.week} data-testid={`retention-${week.week}`}>
                <th scope="row" className={ROW_HEAD}>
                  {formatDay(week.week)}
                </th>
                <td className={CELL}>{formatCount(week.signups)}</td>
                <td className={CELL}>{cell(week.d1, week.signups)}</td>
                <td className={CELL}>{cell(week.d7, week.signups)}</td>
                <td className={CELL}>{cell(week.d30, week.signups)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="px-4 pt-2 text-xs text-muted sm:px-5">
        Active: checked in, did a task, was credited by an offer, asked for a cash-out or signed in. — while the week is
        not old enough yet. Counted from the day this figure was added.
      </p>
    </Panel>
  );
}

/** The console's home (docs/operator-console.md, "Dashboard"). */
export function DashboardScreen({
  operator,
  dashboard,
}: {
  operator: { name: string; email: string | null; role: OperatorRole };
  dashboard: DashboardData;
}) {
  const days = dashboard.days.map((day) => day.day);
  const signups = dailyValues(dashboard, "signups", "n");
  const credited = EARNING_SOURCES.map((source) => ({
    label: source.label,
    ...SOURCE_COLOURS[source.metric],
    values: dailyValues(dashboard, source.metric, "amount").map(cents),
  }));
  const paid = dailyValues(dashboard, "withdrawals:paid", "amount").map(cents);
  const creditedTotals = days.map((_, index) => credited.reduce((sum, source) => sum + source.values[index]!, 0));
  return (
    <div className="max-w-6xl space-y-5">
      <header className="flex flex-wrap items-end justify-between gap-x-6 gap-y-2">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Dashboard</h1>
          <p className="mt-1 text-sm text-muted">
            As of {formatTimestamp(dashboard.as_of)}. Days are UTC days; today counts from midnight UTC.
          </p>
        </div>
        <p className="text-sm text-muted [overflow-wrap:anywhere]">
          Signed in as{" "}
          <span className="font-medium text-ink" data-testid="operator-name">
            {operator.name}
          </span>
          {operator.email && operator.email !== operator.name ? ` (${operator.email})` : ""} ·{" "}
          <span data-testid="operator-role">{OPERATOR_ROLE_LABELS[operator.role]}</span>
        </p>
      </header>
      <div className="grid gap-4 lg:grid-cols-2">
        <People data={dashboard} />
        <Liabilities data={dashboard} />
        <Withdrawals data={dashboard} />
        <Reversals data={dashboard} />
      </div>
      <Sources data={dashboard} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Loops data={dashboard} />
        <Retention data={dashboard} />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <ColumnChart
          id="signups"
          title="Sign-ups per day, last 30 days"
          summary={`Sign-ups per day: ${seriesSummary(days, signups, formatCount)}`}
          days={days}
          series={[{ label: "Sign-ups", fill: "fill-brand-600", swatch: "bg-brand-600", values: signups }]}
          format={formatCount}
        />
        <ColumnChart
          id="paid"
          title="Paid out per day, last 30 days"
          summary={`Withdrawals paid out per day: ${seriesSummary(days, paid, formatCents)}`}
          days={days}
          series={[{ label: "Paid out", fill: "fill-money-600", swatch: "bg-money-600", values: paid }]}
          format={formatCents}
          minimumTop={100}
        />
      </div>
      <ColumnChart
        id="credited"
        title="Money credited per day by source, last 30 days"
        summary={`Money credited per day, all sources together: ${seriesSummary(days, creditedTotals, formatCents)}`}
        days={days}
        series={credited}
        format={formatCents}
        minimumTop={100}
      />
    </div>
  );
}
