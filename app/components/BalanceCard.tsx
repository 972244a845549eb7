import type { ReactNode } from "react";
import {
  availableFigure,
  coinRateLine,
  formatDollars,
  carriedDebtLine,
  lockedBonusLine,
  partsThatAddUp,
  pendingLine,
  showsTotalBalance,
  type MoneyLine,
  type MoneyParts,
} from "~/domain/money";
import { Icon, type IconName } from "./ui/Icon";
import { useTimeZone } from "~/lib/time-zone";

/**
 * The "Available Balance" card of Home and Withdraw, with the screen's own buttons under it. The
 * figure is what can be withdrawn now; when part of the balance cannot be yet, lines under it say
 * what is pending, what bonus is locked and how it unlocks, and the total (docs/decisions/066).
 */
export function BalanceCard({
  money,
  coinsPerDollar,
  cashOutHint = null,
  children,
}: {
  money: MoneyParts;
  /** For the line that says how coins and dollars relate; null when it could not be read. */
  coinsPerDollar: number | null;
  /** "$0.85 more to cash out with UPI", while no cash-out is possible yet. */
  cashOutHint?: string | null;
  children?: ReactNode;
}) {
  const parts = partsThatAddUp(money);
  const pending = pendingLine(parts, useTimeZone());
  const locked = lockedBonusLine(parts);
  const owed = carriedDebtLine(parts);
  const lines = Boolean(pending || locked || owed);
  const breakdown = lines || showsTotalBalance(money);
  return (
    <section
      aria-labelledby="balance-heading"
      className="rounded-3xl bg-gradient-to-br from-brand-600 to-brand-800 p-6 text-white shadow-xl shadow-brand-700/25"
    >
      <h2 id="balance-heading" className="text-sm font-medium text-white/80">
        Available Balance
      </h2>
      <p className="mt-1 text-4xl font-extrabold tracking-tight" data-testid="balance">
        {formatDollars(availableFigure(money))}
      </p>
      {cashOutHint ? (
        <p className="mt-1 text-sm text-white/85" data-testid="cash-out-hint">
          {cashOutHint}
        </p>
      ) : null}
      {/* The rate is said where coins first meet dollars; inside the breakdown when there is one. */}
      {!breakdown && coinsPerDollar ? (
        <p className="mt-1 text-xs text-white/80" data-testid="coin-rate">
          {coinRateLine(coinsPerDollar)}
        </p>
      ) : null}
      {breakdown ? (
        // Darker than the card, so that its small text keeps 4.5:1 contrast on every part of the gradient.
        <div className="mt-4 rounded-2xl bg-black/15 p-3 text-sm">
          {lines ? (
            <ul className="space-y-2.5">
              {pending ? (
                <BreakdownLine icon="clock" line={pending} testId="pending-line" keepDetailWhole>
                  Offer earnings are held for a few days before they can be withdrawn.
                </BreakdownLine>
              ) : null}
              {locked ? (
                <BreakdownLine icon="lock" line={locked} testId="locked-bonus-line">
                  Bonus coins (check-ins, tasks, referrals) unlock as your offer earnings clear.
                </BreakdownLine>
              ) : null}
              {owed ? (
                <BreakdownLine icon="alert" line={owed} testId="carried-debt-line">
                  An offer network took back coins your earlier account, with this email, had already cashed out. Until
                  it is paid, that much of your balance cannot be withdrawn.
                </BreakdownLine>
              ) : null}
            </ul>
          ) : null}
          <p
            className={`flex items-baseline justify-between gap-3 text-white/85 ${lines ? "mt-3 border-t border-white/15 pt-2.5" : ""}`}
          >
            <span>Total balance</span>
            <span className="font-semibold text-white" data-testid="total-balance">
              {formatDollars(money.balance)}
            </span>
          </p>
          {coinsPerDollar ? <p className="mt-1 text-xs text-white/80">{coinRateLine(coinsPerDollar)}</p> : null}
        </div>
      ) : null}
      {children ? <div className="mt-6">{children}</div> : null}
    </section>
  );
}

/** `keepDetailWhole`: a short detail ("next clears Dec 3") wraps as one piece, never leaving "3" alone. */
function BreakdownLine({
  icon,
  line,
  testId,
  keepDetailWhole = false,
  children,
}: {
  icon: IconName;
  line: MoneyLine;
  testId: string;
  keepDetailWhole?: boolean;
  children: ReactNode;
}) {
  return (
    <li className="flex gap-2.5">
      <Icon name={icon} className="mt-0.5 size-4 shrink-0 text-white/80" />
      <div className="min-w-0">
        <p data-testid={testId}>
          <span className="font-semibold">{line.label}</span>
          {line.detail ? " · " : null}
          {line.detail ? (
            <span className={keepDetailWhole ? "whitespace-nowrap" : undefined}>{line.detail}</span>
          ) : null}
        </p>
        <p className="mt-0.5 text-xs leading-relaxed text-white/80">{children}</p>
      </div>
    </li>
  );
}
