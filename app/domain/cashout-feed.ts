// The live feed of recent cash-outs (docs/decisions/098): what cashout_feed answers and how one item
// reads. Client-safe: the page updates the list from the events channel with the same words.
import { formatDollars } from "./money";
import { isPaymentMethod, METHOD_NAMES } from "./withdrawals";

export interface FeedItem {
  id: string;
  /** A paid withdrawal, or an offer credit of $5.00 or more. */
  kind: "cashout" | "earned";
  /** "User" and two characters of the account's id, masked: never text a person chose. */
  name: string;
  /** The withdrawal's method; null for an offer credit. */
  method: string | null;
  amount: number;
  /** When it was paid or credited (ISO). */
  at: string;
}

/** How many items the feed shows. */
export const FEED_SIZE = 8;
export const FEED_TITLE = "Recent cash-outs";
export const FEED_EMPTY = "No cash-outs in the last 24 hours yet.";
export const FEED_NOTE = "The last 24 hours. Names are masked; you can leave this list in Settings.";

/** "cashed out $10.00 by PayPal", "earned $7.50 from an offer". */
export function feedAction(item: FeedItem): string {
  if (item.kind === "earned") return `earned ${formatDollars(item.amount)} from an offer`;
  const method = isPaymentMethod(item.method) ? METHOD_NAMES[item.method] : "a transfer";
  return item.method === "giftcard"
    ? `cashed out ${formatDollars(item.amount)} as a gift card`
    : `cashed out ${formatDollars(item.amount)} by ${method}`;
}

/** "just now", "5 min ago", "3 h ago" (the feed covers a day). */
export function feedWhen(at: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(at)) / 60_000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ago`;
}
