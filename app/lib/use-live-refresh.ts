import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { FeedItem } from "~/domain/cashout-feed";

/**
 * Reloads the page's data when the server reports a completed task for this user (from any tab or
 * device), or that their sessions ended; with `onFeed`, also hands it each new list of the feed of
 * recent cash-outs (docs/decisions/098).
 */
export function useLiveRefresh(enabled: boolean, onFeed?: (items: FeedItem[]) => void) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  const feed = useRef(onFeed);
  useEffect(() => {
    revalidate.current = revalidator.revalidate;
    feed.current = onFeed;
  });
  const wantsFeed = onFeed !== undefined;
  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    const source = new EventSource(wantsFeed ? "/api/events?feed=1" : "/api/events");
    source.addEventListener("task-completed", () => revalidate.current());
    source.addEventListener("cashout-feed", (event) => {
      try {
        feed.current?.(JSON.parse((event as MessageEvent<string>).data) as FeedItem[]);
      } catch {
        // Not a list: keep the one shown.
      }
    });
    // The server closed this page's stream for a newer page of the same person: stay closed.
    source.addEventListener("replaced", () => source.close());
    // The person logged out (or was deactivated or deleted) elsewhere: stay closed, and reload the
    // page's data, whose loader sends a signed-out visitor to the sign-in screen.
    source.addEventListener("signed-out", () => {
      source.close();
      revalidate.current();
    });
    return () => source.close();
  }, [enabled, wantsFeed]);
}
