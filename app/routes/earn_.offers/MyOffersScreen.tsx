import type { SubmissionResult } from "@conform-to/react";
import { AnswerRefusedElsewhere, SupportConversation } from "~/components/SupportConversation";
import { Form, Link } from "@remix-run/react";
import { formatDate } from "~/domain/dates";
import { coinsToDollars, formatCoins, formatDollars } from "~/domain/money";
import { offerCreditStatus, type MissingCreditReport, type OfferCredit } from "~/domain/offer-credits";
import { useFormKey, useFormState } from "~/lib/use-form";
import { Field, TextareaField } from "~/components/forms/Field";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/Card";
import { Icon } from "~/components/ui/Icon";
import { PageHeader } from "~/components/ui/PageHeader";
import { useTimeZone } from "~/lib/time-zone";

interface Network {
  name: string;
  label: string;
  wallPath: string | null;
  supportUrl: string | null;
}

export interface MyOffersData {
  credits: OfferCredit[] | null;
  reports: MissingCreditReport[] | null;
  labels: Record<string, string>;
  networks: Network[];
  reportingNetwork: Network | null;
  coinsPerDollar: number;
  now: string;
  today: string;
  earliestDay: string;
}

/** My offers (docs/offer-walls.md): every offer credit and what it is now, and missing-credit reports. */
export function MyOffersScreen({ data, lastResult }: { data: MyOffersData; lastResult?: SubmissionResult<string[]> }) {
  const reportKey = useFormKey(lastResult);
  return (
    <div className="space-y-4">
      <PageHeader title="My offers" backTo="/earn" />
      <p className="text-sm text-muted">
        Every offer you were credited for. Coins from an offer are pending while the network can still take them back;
        then they are yours to withdraw.
      </p>
      <OfferCredits data={data} />
      <MissingCredit data={data} />
      {data.reportingNetwork ? (
        // A new page (after a report went through) is a fresh form; a refused one keeps its values (useFormKey).
        <ReportForm
          key={reportKey}
          network={data.reportingNetwork}
          today={data.today}
          earliestDay={data.earliestDay}
          lastResult={lastResult}
        />
      ) : null}
      <AnswerRefusedElsewhere
        lastResult={lastResult}
        kind="missing_credit"
        ids={data.reports?.map((report) => report.id) ?? []}
      />
      <YourReports reports={data.reports} labels={data.labels} lastResult={lastResult} />
    </div>
  );
}

function OfferCredits({ data }: { data: MyOffersData }) {
  const zone = useTimeZone();
  const now = new Date(data.now);
  return (
    <Card>
      <h2 className="text-base font-bold">Offer credits</h2>
      {data.credits === null ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          Your offers could not be loaded. Please try again later.
        </p>
      ) : data.credits.length === 0 ? (
        <div className="py-6 text-center">
          <p className="text-sm text-muted">
            No offer credits yet. Offers you complete show here once the network confirms them.
          </p>
          <Link to="/earn" className={`${buttonClass({ tone: "secondary", size: "sm" })} mt-3`}>
            <Icon name="earn" className="size-4" />
            Find offers
          </Link>
        </div>
      ) : (
        <ul className="mt-2 divide-y divide-line" aria-label="Offer credits">
          {data.credits.map((credit) => {
            const status = offerCreditStatus(credit, now);
            return (
              <li key={`${credit.network}:${credit.transaction_id}`} className="flex items-start gap-3 py-3">
                <div className="min-w-0 flex-1">
                  <p className="break-words text-sm font-medium text-ink">{credit.offer_name ?? "Offer"}</p>
                  <p className="text-xs text-muted">
                    {data.labels[credit.network] ?? credit.network} · {formatDate(credit.credited_at, zone)}
                  </p>
                  <p className="mt-1">
                    <StatusBadge status={status} />
                  </p>
                </div>
                <div className="shrink-0 text-right">
                  <p
                    className={`text-sm font-semibold ${status.kind === "reversed" || status.kind === "test" ? "text-muted line-through" : "text-money-600"}`}
                  >
                    +{formatDollars(coinsToDollars(credit.coins, data.coinsPerDollar))}
                  </p>
                  <p className="text-xs text-muted">{formatCoins(credit.coins)}</p>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

function StatusBadge({ status }: { status: ReturnType<typeof offerCreditStatus> }) {
  const zone = useTimeZone();
  const [words, tone] =
    status.kind === "reversed"
      ? ["Reversed", "bg-red-50 text-red-700"]
      : status.kind === "test"
        ? ["Test · not withdrawable", "bg-gray-100 text-muted"]
        : status.kind === "pending"
          ? [`Pending until ${formatDate(status.until, zone)}`, "bg-amber-50 text-amber-800"]
          : ["Available", "bg-emerald-50 text-emerald-800"];
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}>{words}</span>;
}

/** The networks to report a missing credit for, each opening its own form. */
function MissingCredit({ data }: { data: MyOffersData }) {
  if (data.networks.length === 0) return null;
  return (
    <Card>
      <h2 className="text-base font-bold">Missing a credit?</h2>
      <p className="mt-1 text-sm text-muted">
        Offer networks decide missing credits first, so ask the network too: its help is inside its wall, on the
        network&apos;s own pages. Credits can take a few hours to arrive.
      </p>
      <ul className="mt-2 divide-y divide-line">
        {data.networks.map((network) => (
          <li key={network.name}>
            <Link
              to={`?report=${network.name}#report`}
              preventScrollReset
              aria-current={data.reportingNetwork?.name === network.name ? "true" : undefined}
              className="flex min-h-11 items-center justify-between gap-3 py-2 text-sm font-semibold text-ink hover:text-brand-700 aria-[current=true]:text-brand-700"
            >
              Report a missing {network.label} credit
              <Icon name="forward" className="size-4 shrink-0 text-muted" />
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function ReportForm({
  network,
  today,
  earliestDay,
  lastResult,
}: {
  network: Network;
  today: string;
  earliestDay: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useFormState({
    id: "report-missing-credit",
    fields: ["offerName", "completedOn", "details"],
    lastResult,
  });
  return (
    <Card id="report">
      <h2 className="text-base font-bold">Report a missing {network.label} credit</h2>
      <div className="mt-2 rounded-xl bg-brand-50 p-3 text-sm text-ink">
        <p>{network.label} decides missing credits first. Ask them as well:</p>
        <ul className="mt-1.5 space-y-1">
          {network.wallPath ? (
            <li>
              <Link to={network.wallPath} className="font-semibold text-brand-700 hover:underline">
                Open the {network.label} wall
              </Link>{" "}
              and use its Help or Support link.
            </li>
          ) : null}
          {network.supportUrl ? (
            <li>
              <a
                href={network.supportUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="font-semibold text-brand-700 hover:underline"
              >
                {network.label} support
              </a>{" "}
              (opens in a new tab)
            </li>
          ) : null}
          {!network.wallPath && !network.supportUrl ? <li>Write to their support from their own pages.</li> : null}
        </ul>
      </div>
      <Form method="post" {...form.props} preventScrollReset className="mt-4 space-y-4">
        <FormBanner id={form.errorId} title="Your report could not be sent." errors={form.errors} />
        <input type="hidden" name="network" value={network.name} />
        <Field
          field={fields.offerName}
          label="Offer"
          hint="Its name as the wall showed it."
          inputProps={{ required: true, maxLength: 200 }}
        />
        <Field
          field={fields.completedOn}
          label="When you completed it"
          type="date"
          hint="Within the last 90 days."
          inputProps={{ required: true, min: earliestDay, max: today }}
        />
        <TextareaField
          field={fields.details}
          label="What you did"
          hint="The steps you finished (installed, reached level 10, signed up...). Up to 2,000 characters."
          textareaProps={{ required: true, maxLength: 2000 }}
        />
        <SubmitButton intent="report-missing-credit" pendingText="Sending..." look={{ block: true }}>
          Send report
        </SubmitButton>
      </Form>
    </Card>
  );
}

function YourReports({
  reports,
  labels,
  lastResult,
}: {
  reports: MissingCreditReport[] | null;
  labels: Record<string, string>;
  lastResult?: SubmissionResult<string[]>;
}) {
  const zone = useTimeZone();
  if (reports !== null && reports.length === 0) return null;
  return (
    <Card>
      <h2 className="text-base font-bold">Your reports</h2>
      {reports === null ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          Your reports could not be loaded. Please try again later.
        </p>
      ) : (
        <ul className="mt-1 divide-y divide-line" aria-label="Your reports">
          {reports.map((report) => (
            <li key={report.id}>
              <SupportConversation
                kind="missing_credit"
                id={report.id}
                status={report.status}
                title={report.offer_name}
                detail={
                  <>
                    <p className="text-xs text-muted">
                      {labels[report.network] ?? report.network} · done {formatDate(report.completed_on)} · sent{" "}
                      {formatDate(report.created_at, zone)}
                    </p>
                    {report.credited_coins !== null ? (
                      <p className="mt-0.5 text-xs font-semibold text-money-600" data-testid="report-credited">
                        {`${formatCoins(report.credited_coins)} credited`}
                      </p>
                    ) : null}
                  </>
                }
                opening={{ created_at: report.created_at, body: report.details }}
                messages={report.messages}
                lastResult={lastResult}
              />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
