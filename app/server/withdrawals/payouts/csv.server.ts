// CSV for people who open it in a spreadsheet (RFC 4180: CRLF line ends, quotes doubled).
import { escapeHiddenCharacters } from "~/domain/hidden-characters";

// A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection");
// bank details and UPI IDs are typed by users, so such a cell is kept as text with a leading '.
const FORMULA_START = /^[=+\-@]/;
const NEEDS_QUOTES = /[",]/;

/**
 * One cell. Hidden characters (controls, line breaks, bidi overrides; rows made before SQL refused
 * them may hold ESC) are written out as escapes (`\u001b`, `\n`), so a terminal or a spreadsheet
 * shows them instead of obeying them, and every row is one line.
 */
export function csvCell(value: string | number | null | undefined): string {
  let cell = escapeHiddenCharacters(value === null || value === undefined ? "" : String(value));
  if (FORMULA_START.test(cell)) cell = `'${cell}`;
  return NEEDS_QUOTES.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(",") + "\r\n").join("");
}
