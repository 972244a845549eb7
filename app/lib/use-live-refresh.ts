import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * Reloads the page's data when the server reports a completed task for this user (from any tab or
 * device), or that their sessions ended.
 */
export function useLiveRefresh(enabled: boolean) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  useEffect(() => {
    revalidate.current = revalidator.revalidate;
  });
  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    const source = new EventSource("/api/events");
    source.addEventListener("task-completed", () => revalidate.current());
    // The server closed this page's stream for a newer page of the same person: stay closed.
    source.addEventListener("replaced", () => source.close());
    // The person logged out (or was deactivated or deleted) elsewhere: stay closed, and reload the
    // page's data, whose loader sends a signed-out visitor to the sign-in screen.
    source.addEventListener("signed-out", () => {
      source.close();
      revalidate.current();
    });
    return () => source.close();
  }, [enabled]);
}
