const DAY_MS = 24 * 60 * 60 * 1000;

// One time zone on the server and in the browser, so the server's HTML and React agree.
const DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** "Nov 22, 2026". */
export function formatDate(iso: string): string {
  return DATE.format(new Date(iso));
}

/** Whole days since `iso`, rounded (spec §2 "Joined N days ago"). */
export function daysSince(iso: string, now: Date): number {
  return Math.max(0, Math.round((now.getTime() - new Date(iso).getTime()) / DAY_MS));
}
