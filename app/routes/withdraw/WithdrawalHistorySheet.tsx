import { Link } from "@remix-run/react";
import { formatDate } from "~/domain/dates";
import { formatDollars } from "~/domain/money";
import { withdrawalState } from "~/domain/money-timeline";
import { MoneyStateBadge } from "~/components/MoneyStateBadge";
import {
  METHOD_NAMES,
  referenceLine,
  rupeesLine,
  WITHDRAWAL_MESSAGES,
  withdrawalStepMeaning,
  type WithdrawalRow,
} from "~/domain/withdrawals";
import { Icon } from "~/components/shared";
import { SectionError } from "~/components/ui/SectionError";
import { UrlDialog } from "~/components/ui/UrlDialog";
import { useTimeZone } from "~/lib/time-zone";

/**
 * "Withdrawal History" (docs/product.md, "Withdraw: history"): a side sheet rendered by the server from `?history=1`; it closes
 * with its close link, the backdrop or Escape, and holds the keyboard's focus while open (with JavaScript).
 */
export function WithdrawalHistorySheet({ rows, closeHref }: { rows: WithdrawalRow[] | null; closeHref: string }) {
  return (
    <UrlDialog closeHref={closeHref} layout="side" labelledBy="history-title" describedBy="history-description">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 id="history-title" className="text-lg font-bold">
            Withdrawal History
          </h2>
          <p id="history-description" className="mt-0.5 text-sm text-muted">
            View all your past withdrawal requests.
          </p>
        </div>
        <Link
          to={closeHref}
          replace
          preventScrollReset
          aria-label="Close history"
          className="-mr-2 inline-flex size-11 shrink-0 items-center justify-center rounded-full text-muted hover:bg-gray-100"
        >
          <Icon name="close" className="size-5" />
        </Link>
      </div>
      <div className="mt-5">
        {rows === null ? (
          <SectionError title="Couldn't load your withdrawals" description="Please try again later" />
        ) : rows.length === 0 ? (
          <p className="py-10 text-center text-sm text-muted">{WITHDRAWAL_MESSAGES.noHistory}</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="text-xs uppercase tracking-wide text-muted">
                <th scope="col" className="pb-2 font-medium">
                  Date
                </th>
                <th scope="col" className="pb-2 text-right font-medium">
                  Amount
                </th>
                <th scope="col" className="pb-2 pl-3 font-medium max-[359px]:pl-2">
                  Method
                </th>
                <th scope="col" className="pb-2 pl-3 font-medium max-[359px]:pl-2">
                  Status
                </th>
              </tr>
            </thead>
            {rows.map((row) => (
              // One group per withdrawal: its row of the spec's columns, then where it went, its
              // step and what that means across the whole width (narrow screens have no room beside).
              <tbody key={row.id} className="border-t border-line">
                <tr>
                  <td className="pt-2.5 align-top text-muted">
                    <WrappedDate iso={row.created_at} />
                  </td>
                  <td className="pt-2.5 text-right align-top font-semibold">{formatDollars(row.amount)}</td>
                  <td className="pt-2.5 pl-3 align-top max-[359px]:pl-2">
                    {METHOD_NAMES[row.payment_method] ?? row.payment_method}
                  </td>
                  <td className="pt-2.5 pl-3 align-top max-[359px]:pl-2">
                    <StateBadge row={row} />
                  </td>
                </tr>
                <tr>
                  <td colSpan={4} className="pt-1 pb-3 text-xs leading-snug">
                    <WithdrawalDetails row={row} />
                  </td>
                </tr>
              </tbody>
            ))}
          </table>
        )}
      </div>
    </UrlDialog>
  );
}

/** "Nov 29, 2026", breaking (on a narrow screen) only before the year, never inside the day. */
function WrappedDate({ iso }: { iso: string }) {
  const zone = useTimeZone();
  const [day, year] = formatDate(iso, zone).split(", ");
  return (
    <>
      <span className="whitespace-nowrap">{day},</span> <span className="whitespace-nowrap">{year}</span>
    </>
  );
}

/**
 * docs/product.md, "Withdraw: history": the status, coloured (completed green, pending amber, failed
 * red, any other grey), in the money timeline's words: "In review", "Sending", "Paid Nov 24" or
 * "Refused — $2.00 refunded" (docs/decisions/080).
 */
function StateBadge({ row }: { row: WithdrawalRow }) {
  return <MoneyStateBadge state={withdrawalState(row)} fallback={row.status} />;
}

/**
 * Where the money went (masked by the server), what its state means (docs/decisions/068), and for a
 * pending one when it should arrive.
 */
function WithdrawalDetails({ row }: { row: WithdrawalRow }) {
  const meaning = withdrawalStepMeaning(row);
  const rupees = rupeesLine(row);
  const reference = referenceLine(row);
  return (
    <>
      {row.recipient ? <p className="break-all text-muted">To {row.recipient}</p> : null}
      {rupees ? <p className="font-semibold text-ink">{rupees}</p> : null}
      {meaning ? <p className="mt-0.5 text-gray-800">{meaning}</p> : null}
      {row.expected ? <p className="text-muted">{row.expected}</p> : null}
      {reference ? <p className="break-all text-muted">{reference}</p> : null}
      {row.status === "failed" && row.review_state === "rejected" ? (
        // An appeal (docs/decisions/090): a conversation about this refusal, followed in Help & Support.
        <Link
          to={`/withdraw?appeal=${row.id}`}
          className="mt-1 inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-2"
        >
          Ask for a review
        </Link>
      ) : null}
    </>
  );
}
