// How one item of the feed of recent cash-outs reads (docs/decisions/098), worded on the server so
// that the pages' code carries no withdrawal rules.
import type { FeedItem } from "./cashout-feed";
import { formatDollars } from "./money";
import { isPaymentMethod, METHOD_NAMES } from "./withdrawals";

/** "cashed out $10.00 by PayPal", "cashed out $25.00 as a gift card", "earned $7.50 from an offer". */
export function feedAction(item: Omit<FeedItem, "action">): string {
  if (item.kind === "earned") return `earned ${formatDollars(item.amount)} from an offer`;
  if (item.method === "giftcard") return `cashed out ${formatDollars(item.amount)} as a gift card`;
  const method = isPaymentMethod(item.method) ? METHOD_NAMES[item.method] : "a transfer";
  return `cashed out ${formatDollars(item.amount)} by ${method}`;
}
