import type { HeadersFunction } from "@remix-run/node";

/** A page whose action refused an attempt (429) carries the action's Retry-After too. */
export const headersWithRetryAfter: HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
