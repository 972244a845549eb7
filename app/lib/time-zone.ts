import { useRouteLoaderData } from "@remix-run/react";
import { useSyncExternalStore } from "react";
import { setClockTimeZone, type TimeZone } from "~/domain/dates";
import {
  parseTimeZoneCookie,
  readTimeZone,
  reportedTimeZone,
  TIME_ZONE_COOKIE,
  TIME_ZONE_PATTERN,
  timeZoneCookieValue,
} from "~/domain/time-zone";

// The browser side of domain/time-zone.ts: the cookie kept up to date, and the zone a page is written in.

interface BrowserZone {
  /** The name the browser reported ("Asia/Kolkata", "UTC"), null where it could not name one. */
  name: string | null;
  zone: TimeZone;
}

let browserZone: BrowserZone | undefined;

function keptCookie(): string | undefined {
  return document.cookie
    .split("; ")
    .find((cookie) => cookie.startsWith(`${TIME_ZONE_COOKIE}=`))
    ?.slice(TIME_ZONE_COOKIE.length + 1);
}

/**
 * The browser's own zone, found once a page. Asking Intl for it makes the page's first Intl object,
 * which loads the locale data (130–280 ms on a phone's slower core): so the name the cookie kept is
 * taken as it is while the clock's offset from UTC is the one it was asked at, and Intl is asked
 * only on a first visit or after the offset changed (travel, summer time; docs/decisions/104).
 */
function browserTimeZone(): BrowserZone {
  if (browserZone === undefined) {
    const kept = parseTimeZoneCookie(keptCookie());
    if (kept && kept.offset === new Date().getTimezoneOffset()) {
      browserZone = { name: kept.name, zone: reportedTimeZone(kept.name) };
    } else {
      try {
        const name = Intl.DateTimeFormat().resolvedOptions().timeZone;
        browserZone = { name, zone: readTimeZone(name) };
      } catch {
        browserZone = { name: null, zone: null };
      }
    }
    // The clock keeps the browser's zone: dates in it are read from the clock (domain/dates.ts).
    setClockTimeZone(browserZone.zone);
  }
  return browserZone;
}

/** Tells the server the browser's zone (entry.client.tsx): the next page it renders is in it. */
export function rememberBrowserTimeZone(): void {
  const { name } = browserTimeZone();
  const value = name && TIME_ZONE_PATTERN.test(name) ? timeZoneCookieValue(name, new Date().getTimezoneOffset()) : null;
  if ((keptCookie() ?? null) === value) return;
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  // A zone without a name: the cookie goes, and times are UTC, labelled.
  document.cookie = `${TIME_ZONE_COOKIE}=${value ?? ""}; Path=/; Max-Age=${value ? 31536000 : 0}; SameSite=Lax${secure}`;
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
    () => browserTimeZone().zone ?? served,
    () => served,
  );
}
