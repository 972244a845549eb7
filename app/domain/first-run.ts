// The first-run hook (issue 39, point 6; docs/decisions/096): what a new account's first offer can
// earn, said before sign-up (the Sign Up tab) and after it (Home's "Your first step" card, until the
// first offer pays), and the first step itself. Pure and client-safe.
import { coinsToDollars, formatCoins, formatDollars } from "./money";

/** "Your first offer can pay up to 250 coins ($2.50)." for the best offer listed now; null with none. */
export function firstOfferLine(bestCoins: number | null, coinsPerDollar: number): string | null {
  if (!bestCoins || bestCoins <= 0) return null;
  return `Your first offer can pay up to ${formatCoins(bestCoins)} (${formatDollars(coinsToDollars(bestCoins, coinsPerDollar))}).`;
}

/** Home's first-step card: the steps of a first offer, in order; `smallestCashOut` as the settings say it ("$1.00 with UPI"). */
export function firstSteps(smallestCashOut: string): string[] {
  return [
    "Pick an offer on Earn: a survey, an app or a game.",
    "Finish it on the offer's own page. The network tells us, and your coins show as pending.",
    `After the offer's hold, the coins are yours to cash out, from ${smallestCashOut}.`,
  ];
}
