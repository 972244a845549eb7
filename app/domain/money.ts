const DOLLARS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });

/** "$1,234.50": dollars with two decimals, as every balance in the spec is shown. */
export function formatDollars(amount: number | string): string {
  const value = typeof amount === "string" ? Number(amount) : amount;
  return DOLLARS.format(Number.isFinite(value) ? value : 0);
}
