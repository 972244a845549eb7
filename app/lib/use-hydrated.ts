import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** False in the server's HTML and until React runs in the browser: controls that need JavaScript wait for true. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
