import { escapeHiddenCharacters } from "~/domain/hidden-characters";

// Values that come from a request (a transaction id, a header, a path) go into log lines only
// through logValue: quoted, with control, line-separator and other hidden characters escaped, so a
// value with a newline cannot forge a log line, and cut short, so a long one cannot flood the log.
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
  // JSON quoting escapes quotes, backslashes and C0 controls (\n, \r, ESC, ...); the rest (DEL, C1,
  // line separators, bidi overrides) in JSON's \uXXXX too.
  const quoted = escapeHiddenCharacters(JSON.stringify(shown));
  return shown.length < text.length ? `${quoted}…(${text.length} chars)` : quoted;
}
