import { useRouteLoaderData } from "@remix-run/react";
import { useSyncExternalStore } from "react";
import type { TimeZone } from "~/domain/dates";
import { readTimeZone, TIME_ZONE_COOKIE } from "~/domain/time-zone";

// The browser side of domain/time-zone.ts: the cookie kept up to date, and the zone a page is written in.

let browserZone: TimeZone | undefined;

/** The browser's own zone (null where it cannot name one), asked once. */
function browserTimeZone(): TimeZone {
  if (browserZone === undefined) {
    try {
      browserZone = readTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
    } catch {
      browserZone = null;
    }
  }
  return browserZone;
}

/** Tells the server the browser's zone (entry.client.tsx): the next page it renders is in it. */
export function rememberBrowserTimeZone(): void {
  const zone = browserTimeZone();
  const kept = document.cookie
    .split("; ")
    .find((cookie) => cookie.startsWith(`${TIME_ZONE_COOKIE}=`))
    ?.slice(TIME_ZONE_COOKIE.length + 1);
  if ((kept ?? null) === zone) return;
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  // UTC, or a zone without a name: the cookie goes, and times are UTC, labelled.
  document.cookie = `${TIME_ZONE_COOKIE}=${zone ?? ""}; Path=/; Max-Age=${zone ? 31536000 : 0}; SameSite=Lax${secure}`;
}

const noSubscription = () => () => {};

/**
 * The zone this page's dates are written in: the one the server rendered with (root loader, from
 * the cookie) while the page hydrates, then the browser's own, so a first visit without the cookie
 * still ends in local time without a hydration mismatch.
 */
export function useTimeZone(): TimeZone {
  const served = useRouteLoaderData<{ timeZone?: TimeZone }>("root")?.timeZone ?? null;
  return useSyncExternalStore(
    noSubscription,
    () => browserTimeZone() ?? served,
    () => served,
  );
}
