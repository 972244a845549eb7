// CSV for people who open it in a spreadsheet (RFC 4180: CRLF line ends, quotes doubled).

// A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection");
// bank details and UPI IDs are typed by users, so such a cell is kept as text with a leading '.
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | null | undefined): string {
  let cell = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(cell)) cell = `'${cell}`;
  return NEEDS_QUOTES.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(",") + "\r\n").join("");
}
