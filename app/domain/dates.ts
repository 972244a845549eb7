const DAY_MS = 24 * 60 * 60 * 1000;

// en-US short month names, spelled out: the parts of a moment in a zone come from one cached
// Intl.DateTimeFormat per zone (formatToParts), the words from here, so the server's HTML and
// React in the browser agree whatever the browser's own locale.
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * The person's time zone, an IANA name ("Asia/Kolkata") their browser reported
 * (lib/time-zone.ts), or null when it is not known (JavaScript off on the first visit, an unknown
 * name): then times are UTC and say so. The operator console passes none: its times are UTC.
 */
export type TimeZone = string | null;

interface Moment {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The zone this runtime's own clock keeps, where it is known without Intl: in the browser, the
 * person's zone (lib/time-zone.ts). A moment in it is read from the Date's local fields, and no Intl
 * object is made: the first one loads the locale data, a long task on a phone (docs/decisions/104).
 * Never set on the server, whose clock is not the person's.
 */
let clockZone: string | null = null;

export function setClockTimeZone(zone: TimeZone): void {
  clockZone = zone;
}

/** The calendar parts of `iso` in `zone` (UTC when null). */
function momentIn(iso: string, zone: TimeZone | undefined): Moment {
  const date = new Date(iso);
  if (zone && zone === clockZone)
    return {
      year: date.getFullYear(),
      month: date.getMonth(),
      day: date.getDate(),
      hour: date.getHours(),
      minute: date.getMinutes(),
      second: date.getSeconds(),
    };
  const format = zone && zone !== "UTC" ? zoneFormat(zone) : null;
  if (!format)
    return {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth(),
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
      second: date.getUTCSeconds(),
    };
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(date)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  return {
    year: parts.year!,
    month: parts.month! - 1,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

function zoneFormat(zone: string): Intl.DateTimeFormat | null {
  let format = zoneFormats.get(zone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
        hourCycle: "h23",
      });
    } catch {
      return null; // a zone this runtime does not know: UTC
    }
    zoneFormats.set(zone, format);
  }
  return format;
}

/** Whether `zone` names a time zone this runtime knows (the cookie's value is checked with it). */
export function isKnownTimeZone(zone: string): boolean {
  return zoneFormat(zone) !== null;
}

/** "Nov 22, 2026", in `zone` (UTC when none). */
export function formatDate(iso: string, zone?: TimeZone): string {
  const moment = momentIn(iso, zone);
  return `${MONTHS[moment.month]} ${moment.day}, ${moment.year}`;
}

/** Whole days since `iso`, rounded ("Joined N days ago", docs/product.md, "Refer"). */
export function daysSince(iso: string, now: Date): number {
  return Math.max(0, Math.round((now.getTime() - new Date(iso).getTime()) / DAY_MS));
}

/** "Dec 3": a day within the coming year, in `zone` (UTC when none). */
export function formatDay(iso: string, zone?: TimeZone): string {
  const moment = momentIn(iso, zone);
  return `${MONTHS[moment.month]} ${moment.day}`;
}

const two = (value: number) => String(value).padStart(2, "0");

/**
 * A time of day to the second: "2:05:09 PM" in the person's zone, or "14:05:09 UTC" when the zone
 * is not known (a bare "2:05 PM" would be read as local time, and be wrong).
 */
export function formatTime(iso: string, zone?: TimeZone): string {
  const moment = momentIn(iso, zone);
  if (!zone || (zone !== clockZone && !zoneFormat(zone)))
    return `${two(moment.hour)}:${two(moment.minute)}:${two(moment.second)} UTC`;
  const hour = moment.hour % 12 === 0 ? 12 : moment.hour % 12;
  return `${hour}:${two(moment.minute)}:${two(moment.second)} ${moment.hour < 12 ? "AM" : "PM"}`;
}

/** "14:05:09 UTC": a time of day, to the second, in UTC (the operator console). */
export function formatUtcTime(iso: string): string {
  return formatTime(iso, null);
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
