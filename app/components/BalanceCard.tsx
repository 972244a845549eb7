import type { ReactNode } from "react";
import { formatDollars } from "~/domain/money";

/** The "Available Balance" card of Home and Withdraw, with the screen's own buttons under it. */
export function BalanceCard({ balance, children }: { balance: number; children?: ReactNode }) {
  return (
    <section
      aria-labelledby="balance-heading"
      className="rounded-3xl bg-gradient-to-br from-brand-600 to-brand-800 p-6 text-white shadow-xl shadow-brand-700/25"
    >
      <h2 id="balance-heading" className="text-sm font-medium text-white/80">
        Available Balance
      </h2>
      <p className="mt-1 text-4xl font-extrabold tracking-tight" data-testid="balance">
        {formatDollars(balance)}
      </p>
      {children ? <div className="mt-6">{children}</div> : null}
    </section>
  );
}
