import { Card } from "~/components/ui/Card";
import { Icon } from "~/components/ui/Icon";
import { SectionError } from "~/components/ui/SectionError";
import { FEED_EMPTY, FEED_NOTE, FEED_TITLE, feedWhen, type FeedItem } from "~/domain/cashout-feed";

export interface FeedView {
  items: FeedItem[];
  /** The time the list was read (ms), so that "5 min ago" reads the same on the server and in the browser. */
  now: number;
}

/**
 * "Recent cash-outs" (docs/decisions/098) on Home and Withdraw: masked names, what was paid and
 * when; server-rendered, and replaced by each new list the events channel sends when JavaScript runs.
 */
export function CashoutFeed({ feed }: { feed: FeedView | null }) {
  return (
    <Card>
      <h2 className="flex items-center gap-2 text-base font-bold">
        <Icon name="wallet" className="size-5 text-green-600" />
        {FEED_TITLE}
      </h2>
      {feed === null ? (
        <SectionError title="Couldn't load recent cash-outs" description="Please try again later" />
      ) : feed.items.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{FEED_EMPTY}</p>
      ) : (
        <ul className="mt-2 divide-y divide-line" aria-live="polite" data-testid="cashout-feed">
          {feed.items.map((item) => (
            <li key={item.id} className="flex items-center gap-3 py-2.5 text-sm">
              <span
                aria-hidden="true"
                className={`inline-flex size-8 shrink-0 items-center justify-center rounded-full ${
                  item.kind === "cashout" ? "bg-green-50 text-green-700" : "bg-brand-50 text-brand-700"
                }`}
              >
                <Icon name={item.kind === "cashout" ? "wallet" : "coins"} className="size-4" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="font-semibold">{item.name}</span> {item.action}
              </span>
              <span className="shrink-0 text-xs text-muted">{feedWhen(item.at, feed.now)}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-xs text-muted">{FEED_NOTE}</p>
    </Card>
  );
}
