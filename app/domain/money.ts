const DOLLARS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });

/** "$1,234.50": dollars with two decimals, as every balance in the spec is shown. */
export function formatDollars(amount: number | string): string {
  const value = typeof amount === "string" ? Number(amount) : amount;
  return DOLLARS.format(Number.isFinite(value) ? value : 0);
}

/** Spec: coins convert to dollars at one rate (app_config in the database), rounded down to the cent. */
export function coinsToDollars(coins: number, coinsPerDollar: number): number {
  return (Math.sign(coins) * Math.floor((Math.abs(coins) * 100) / coinsPerDollar)) / 100;
}

const COINS = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function formatCoins(coins: number): string {
  return `${COINS.format(coins)} coins`;
}
