const DAY_MS = 24 * 60 * 60 * 1000;

// en-US short month names. Spelled out rather than asked of Intl.DateTimeFormat, which costs
// about 2 µs a date on the server (a page lists up to 50); UTC on the server and in the browser,
// so the server's HTML and React agree.
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Nov 22, 2026". */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** Whole days since `iso`, rounded ("Joined N days ago", docs/product.md, "Refer"). */
export function daysSince(iso: string, now: Date): number {
  return Math.max(0, Math.round((now.getTime() - new Date(iso).getTime()) / DAY_MS));
}

/** "Dec 3": a day within the coming year (UTC, as formatDate). */
export function formatDay(iso: string): string {
  const date = new Date(iso);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}`;
}

/** "14:05:09 UTC": a time of day, to the second (UTC, as formatDate). */
export function formatUtcTime(iso: string): string {
  const date = new Date(iso);
  const two = (value: number) => String(value).padStart(2, "0");
  return `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} UTC`;
}

/** "2026-11-23 10:04:31 UTC": a moment to the second, the same on the server and in every browser. */
export function formatTimestamp(iso: string): string {
  return new Date(iso).toISOString().slice(0, 19).replace("T", " ") + " UTC";
}

/** How long since `iso`, roughly: "under a minute", "12 min", "5 h", "3 days". */
export function waitedFor(iso: string, now: string): string {
  const minutes = Math.max(0, Math.floor((Date.parse(now) - Date.parse(iso)) / 60_000));
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}
