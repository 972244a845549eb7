// Numbers as en-US writes them, without an Intl object where one is not needed. The first Intl
// object a page makes loads the browser's locale data: 35–70 ms on this two-core machine, four times
// that on Lighthouse's phone. Made while the app's modules were evaluated, it lengthened the longest
// task of every page's start (docs/decisions/103). Client-safe.

/** A value made on its first use, then kept: for Intl formatters at a module's top level. */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** "1234567" → "1,234,567" (or in pairs, size 2: "1,23,45,67"), in one pass (a look-ahead pattern would rescan the digits from each position). */
export function groupDigits(digits: string, size: number): string {
  let grouped = digits.slice(0, digits.length % size || size);
  for (let index = grouped.length; index < digits.length; index += size)
    grouped += "," + digits.slice(index, index + size);
  return grouped;
}

/** "1234567" → "1,234,567". */
export function groupThousands(digits: string): string {
  return groupDigits(digits, 3);
}

/** A whole number written out directly ("-1,234"), null for anything else (left to Intl). */
export function formatWholeNumber(value: number): string | null {
  return Number.isSafeInteger(value) ? `${value < 0 ? "-" : ""}${groupThousands(String(Math.abs(value)))}` : null;
}

const PLAIN = onFirstUse(() => new Intl.NumberFormat("en-US"));

/** "1,234": a count, XP or coins as `Intl.NumberFormat("en-US")` writes it. */
export function formatNumber(value: number): string {
  return formatWholeNumber(value) ?? PLAIN().format(value);
}
