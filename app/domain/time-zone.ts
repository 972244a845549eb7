import { isKnownTimeZone, type TimeZone } from "./dates";

// People read dates and times in their own time zone (docs/decisions/085-local-times.md). The
// browser knows it; the server learns it from this cookie, which the browser's script keeps up to
// date. Without JavaScript on the first visit, or with a name this runtime does not know, times
// are UTC and say so.
export const TIME_ZONE_COOKIE = "tz";

/** An IANA zone name as a plain cookie value: "Asia/Kolkata", "America/Argentina/Buenos_Aires", "Etc/GMT+5". */
export const TIME_ZONE_PATTERN = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * The cookie's value: the zone's name, then the browser's offset from UTC in minutes when its script
 * last asked Intl for the name ("Asia/Kolkata:-330"). While the offset is the same, a later page
 * takes the name from the cookie and makes no Intl object (docs/decisions/104). A value without an
 * offset (written before) still names the zone.
 */
export const TIME_ZONE_COOKIE_PATTERN = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}(?::-?\d{1,4})?$/;

/** The names of UTC itself: a person there reads UTC times, which say "UTC". */
const UTC_NAMES = new Set(["UTC", "Etc/UTC", "Etc/GMT", "GMT", "Etc/Universal", "Etc/Zulu"]);

/** `value` when it names a zone this runtime knows, other than UTC; else null (UTC, labelled). */
export function readTimeZone(value: string | null | undefined): TimeZone {
  if (!value || !TIME_ZONE_PATTERN.test(value) || UTC_NAMES.has(value)) return null;
  return isKnownTimeZone(value) ? value : null;
}

/** A zone name the browser itself reported (so known to it), read without asking Intl whether it knows it. */
export function reportedTimeZone(name: string): TimeZone {
  return TIME_ZONE_PATTERN.test(name) && !UTC_NAMES.has(name) ? name : null;
}

/** The cookie's parts: the zone's name, and the offset it was checked at (null: not written with one). */
export function parseTimeZoneCookie(value: string | null | undefined): { name: string; offset: number | null } | null {
  if (!value || !TIME_ZONE_COOKIE_PATTERN.test(value)) return null;
  const [name, offset] = value.split(":");
  return { name: name!, offset: offset === undefined ? null : Number(offset) };
}

export function timeZoneCookieValue(name: string, offset: number): string {
  return `${name}:${offset}`;
}
