import { Link } from "@remix-run/react";
import { formatDate } from "~/domain/dates";
import { formatDollars } from "~/domain/money";
import {
  METHOD_NAMES,
  statusTone,
  WITHDRAWAL_MESSAGES,
  withdrawalStep,
  withdrawalStepMeaning,
  type WithdrawalRow,
} from "~/domain/withdrawals";
import { Icon } from "~/components/shared";
import { SectionError } from "~/components/ui/SectionError";
import { UrlDialog } from "~/components/ui/UrlDialog";

const TONE_STYLES = {
  green: "bg-emerald-50 text-emerald-700",
  amber: "bg-amber-50 text-amber-800",
  red: "bg-red-50 text-red-700",
  grey: "bg-gray-100 text-gray-700",
} as const;

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
          className="-mr-2 inline-flex size-10 items-center justify-center rounded-full text-muted hover:bg-gray-100"
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
                <th scope="col" className="pb-2 pl-3 font-medium">
                  Method
                </th>
                <th scope="col" className="pb-2 pl-3 font-medium">
                  Status
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {rows.map((row) => (
                <tr key={row.id}>
                  <td className="py-2.5 align-top whitespace-nowrap text-muted">{formatDate(row.created_at)}</td>
                  <td className="py-2.5 text-right align-top font-semibold">{formatDollars(row.amount)}</td>
                  <td className="py-2.5 pl-3 align-top">
                    {METHOD_NAMES[row.payment_method] ?? row.payment_method}
                    {row.recipient ? (
                      <span className="mt-0.5 block text-xs break-all text-muted">
                        <span className="sr-only">to </span>
                        {row.recipient}
                      </span>
                    ) : null}
                  </td>
                  <td className="py-2.5 pl-3 align-top">
                    <span
                      className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${TONE_STYLES[statusTone(row.status)]}`}
                    >
                      {row.status}
                    </span>
                    <WithdrawalStepLine row={row} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </UrlDialog>
  );
}

/**
 * Which step the withdrawal is at, under its status (docs/decisions/068), what that step means, and
 * for a pending one when it should arrive.
 */
function WithdrawalStepLine({ row }: { row: WithdrawalRow }) {
  const step = withdrawalStep(row);
  const meaning = withdrawalStepMeaning(row);
  return (
    <>
      {step ? <p className="mt-1 text-xs leading-snug font-semibold text-gray-800">{step}</p> : null}
      {meaning ? <p className="mt-0.5 text-xs leading-snug text-muted">{meaning}</p> : null}
      {row.expected ? <p className="mt-0.5 text-xs leading-snug text-muted">{row.expected}</p> : null}
    </>
  );
}
