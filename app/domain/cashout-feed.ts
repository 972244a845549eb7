// The live feed of recent cash-outs (docs/decisions/098): one item as the pages get it, and the
// words around it. Client-safe and small: an item comes worded from the server
// (cashout-feed-words.ts), so the browser only says how long ago.

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
  /** What happened, worded on the server: "cashed out $10.00 by PayPal". */
  action: string;
}

/** How many items the feed shows. */
export const FEED_SIZE = 8;
export const FEED_TITLE = "Recent cash-outs";
export const FEED_EMPTY = "No cash-outs in the last 24 hours yet.";
export const FEED_NOTE = "The last 24 hours. Names are masked; you can leave this list in Settings.";

/** "just now", "5 min ago", "3 h ago" (the feed covers a day). */
export function feedWhen(at: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(at)) / 60_000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ago`;
}
