import { Link } from "@remix-run/react";
import { useEffect } from "react";
import { withSign, type ActivityItem } from "~/domain/activity";
import { formatDate } from "~/domain/dates";
import { formatCoins, formatDollars } from "~/domain/money";
import { showToast } from "~/lib/toasts";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/Card";
import { Icon } from "~/components/ui/Icon";
import { MoneyStateBadge } from "~/components/MoneyStateBadge";
import { useTimeZone } from "~/lib/time-zone";

/** docs/product.md, "Profile: recent activity": the 10 newest movements of the balance. */
export function RecentActivity({ items }: { items: ActivityItem[] | null }) {
  const zone = useTimeZone();
  const failed = items === null;
  useEffect(() => {
    if (failed) showToast({ kind: "error", title: "Error Loading Transactions" });
  }, [failed]);
  return (
    <Card>
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-base font-bold">Recent Activity</h2>
        {/* Each offer credit with its network and whether it is still pending (issue 19, item 4). */}
        <Link
          to="/earn/offers"
          className="inline-flex min-h-11 items-center gap-1 text-sm font-semibold text-brand-700 hover:underline"
        >
          My offers
          <Icon name="forward" className="size-4" />
        </Link>
      </div>
      {items === null ? (
        // docs/product.md, "Profile: recent activity": the "Transaction Error" card with the message and Try Again.
        <div role="alert" className="mt-3 rounded-xl bg-red-50 p-4 text-sm text-red-800">
          <p className="font-semibold">Transaction Error</p>
          <p className="mt-0.5">Error Loading Transactions: your recent activity could not be loaded.</p>
          <div className="mt-3">
            <Link to="/profile" reloadDocument className={buttonClass({ tone: "secondary", size: "sm" })}>
              <Icon name="refresh" className="size-4" />
              Try Again
            </Link>
          </div>
        </div>
      ) : items.length === 0 ? (
        <p className="py-6 text-center text-sm text-muted">
          No activity yet. Check in or complete a task to start earning.
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-line" aria-label="Recent activity">
          {items.map((item) => (
            <li key={item.id} className="flex items-center gap-3 py-3">
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-ink">{item.label}</p>
                {/* When, and where the money is: one state a row (docs/decisions/080). */}
                <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
                  <span className="whitespace-nowrap">{formatDate(item.created_at, zone)}</span>
                  <MoneyStateBadge state={item.state} />
                </p>
              </div>
              <div className="shrink-0 text-right">
                <p
                  className={`text-sm font-semibold ${
                    item.state?.kind === "refused"
                      ? "text-muted line-through"
                      : item.amount < 0
                        ? "text-ink"
                        : "text-money-600"
                  }`}
                >
                  {withSign(item.amount, formatDollars)}
                </p>
                {/* The coins beside the dollars they are worth (issue 18, item 1). */}
                {item.coins ? (
                  <p className="text-xs text-muted" data-testid="activity-coins">
                    {withSign(item.coins, formatCoins)}
                  </p>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
