// Values that come from a request (a transaction id, a header, a path) go into log lines only
// through logValue: quoted, with control and line-separator characters escaped, so a value with a
// newline cannot forge a log line, and cut short, so a long one cannot flood the log.
const UNSAFE_CHARACTERS = /[\u007f-\u009f\u2028\u2029]/g;
const DEFAULT_MAX_LENGTH = 120;

export function logValue(value: unknown, maxLength = DEFAULT_MAX_LENGTH): string {
  if (value === null || value === undefined) return "-";
  const text = typeof value === "string" ? value : String(value);
  let shown = text;
  if (text.length > maxLength) {
    shown = text.slice(0, maxLength);
    // Do not end on half of a surrogate pair.
    if (/[\ud800-\udbff]$/.test(shown)) shown = shown.slice(0, -1);
  }
  // JSON quoting escapes quotes, backslashes and C0 controls (\n, \r, ESC, ...); the rest by hand.
  const quoted = JSON.stringify(shown).replace(
    UNSAFE_CHARACTERS,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return shown.length < text.length ? `${quoted}…(${text.length} chars)` : quoted;
}
