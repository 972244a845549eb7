import { isKnownTimeZone, type TimeZone } from "./dates";

// People read dates and times in their own time zone (docs/decisions/085-local-times.md). The
// browser knows it; the server learns it from this cookie, which the browser's script keeps up to
// date. Without JavaScript on the first visit, or with a name this runtime does not know, times
// are UTC and say so.
export const TIME_ZONE_COOKIE = "tz";

/** An IANA zone name as a plain cookie value: "Asia/Kolkata", "America/Argentina/Buenos_Aires", "Etc/GMT+5". */
export const TIME_ZONE_PATTERN = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/** The names of UTC itself: a person there reads UTC times, which say "UTC". */
const UTC_NAMES = new Set(["UTC", "Etc/UTC", "Etc/GMT", "GMT", "Etc/Universal", "Etc/Zulu"]);

/** `value` when it names a zone this runtime knows, other than UTC; else null (UTC, labelled). */
export function readTimeZone(value: string | null | undefined): TimeZone {
  if (!value || !TIME_ZONE_PATTERN.test(value) || UTC_NAMES.has(value)) return null;
  return isKnownTimeZone(value) ? value : null;
}
