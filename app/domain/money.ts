import { formatDay, type TimeZone } from "./dates";
import { formatWholeNumber, groupThousands, onFirstUse } from "./numbers";

const DOLLARS = onFirstUse(
  () => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 }),
);
const WHOLE_CENTS = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * "$1,234.50": dollars with two decimals, as every balance in the spec is shown. An amount in
 * whole cents (every amount the app stores) is written out directly, as Intl's en-US format
 * writes it, at a tenth of its cost (a page shows dozens); anything finer is left to Intl's rounding.
 */
export function formatDollars(amount: number | string): string {
  const value = typeof amount === "string" ? Number(amount) : amount;
  if (!Number.isFinite(value)) return DOLLARS().format(0);
  const match = WHOLE_CENTS.exec(String(Math.abs(value)));
  if (!match) return DOLLARS().format(value);
  const grouped = groupThousands(match[1]!);
  return `${value < 0 || Object.is(value, -0) ? "-" : ""}$${grouped}.${(match[2] ?? "").padEnd(2, "0")}`;
}

/** Spec: coins convert to dollars at one rate (app_config in the database), rounded down to the cent. */
export function coinsToDollars(coins: number, coinsPerDollar: number): number {
  return (Math.sign(coins) * Math.floor((Math.abs(coins) * 100) / coinsPerDollar)) / 100;
}

const COINS = onFirstUse(() => new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 }));

export function formatCoins(coins: number): string {
  // Whole coins (every amount the app stores) written out directly, as formatDollars does.
  return `${formatWholeNumber(coins) ?? COINS().format(coins)} coins`;
}

/**
 * An account's money as get_user_summary splits it (docs/decisions/066): the balance, the part
 * that can be withdrawn now, the offer earnings still in their hold and the bonus not yet
 * unlocked by cleared offer earnings.
 */
export interface MoneyParts {
  balance: number;
  available: number;
  pending: number;
  /** When the next pending amount clears (ISO), null when nothing is pending. */
  nextClearAt: string | null;
  bonusLocked: number;
  /** Cleared offer earnings still needed to unlock all the locked bonus; null: it never unlocks. */
  earnedToUnlock: number | null;
  /** Owed from an earlier account of the same email, paid first by offer earnings (decision 078). */
  carriedDebt: number;
}

const cents = (value: number) => Math.round(value * 100) / 100;

/**
 * The card's figure, "Available Balance": what can be withdrawn now, or the balance itself while a
 * reversal has left it below zero (decision 065 shows the debt there).
 */
export function availableFigure(money: MoneyParts): number {
  return money.balance < 0 ? money.balance : money.available;
}

/** Whether the total balance differs from the card's figure, so it is worth a line of its own. */
export function showsTotalBalance(money: MoneyParts): boolean {
  return money.balance !== availableFigure(money);
}

/**
 * The parts the card shows under its figure, each at most what the balance still holds, so that the
 * figure and its parts add up to the total (issue 36): bonus credited and withdrawn while bonus money
 * was unlocked at once (demo settings) still counts as bonus, and would otherwise show "$11.55 bonus
 * locked" over a total of $5.00. Taken in the card's order: pending, then locked, then owed. A
 * negative balance is its own figure; its parts are left as they are.
 */
export function partsThatAddUp(money: MoneyParts): MoneyParts {
  if (money.balance < 0) return money;
  let rest = cents(money.balance - availableFigure(money));
  const take = (part: number) => {
    const shown = Math.max(0, Math.min(part, rest));
    rest = cents(rest - shown);
    return shown;
  };
  return {
    ...money,
    pending: take(money.pending),
    bonusLocked: take(money.bonusLocked),
    carriedDebt: take(money.carriedDebt),
  };
}

/** A line of the balance card: what (bold), then " · " and what it means or what to do. */
export interface MoneyLine {
  label: string;
  detail: string | null;
}

/** "$1.20 pending · next clears Dec 3" (the day in `zone`); null when nothing is pending. */
export function pendingLine(money: MoneyParts, zone?: TimeZone): MoneyLine | null {
  if (!(money.pending > 0)) return null;
  return {
    label: `${formatDollars(money.pending)} pending`,
    detail: money.nextClearAt ? `next clears ${formatDay(money.nextClearAt, zone)}` : null,
  };
}

/**
 * "$3.00 bonus locked · earn $2.00 more from offers to unlock it"; null when no bonus is locked.
 * Pending offer earnings count toward the unlock once they clear, so only the rest is asked for.
 */
export function lockedBonusLine(money: MoneyParts): MoneyLine | null {
  if (!(money.bonusLocked > 0)) return null;
  const label = `${formatDollars(money.bonusLocked)} bonus locked`;
  if (money.earnedToUnlock === null) return { label, detail: "it can't be withdrawn for now" };
  const more = cents(money.earnedToUnlock - Math.max(money.pending, 0));
  if (more <= 0) return { label, detail: "it unlocks as your pending earnings clear" };
  return { label, detail: `earn ${formatDollars(more)} more from offers to unlock it` };
}

/** "$20.00 owed from an earlier account · your offer earnings pay it first"; null when nothing is owed. */
export function carriedDebtLine(money: MoneyParts): MoneyLine | null {
  if (!(money.carriedDebt > 0)) return null;
  return {
    label: `${formatDollars(money.carriedDebt)} owed from an earlier account`,
    detail: "your offer earnings pay it first",
  };
}

/** "Rewards are in coins: 100 coins = $1.00.": Earn's tasks pay coins; this says what they are worth. */
export function coinValueLine(coinsPerDollar: number): string {
  return `Rewards are in coins: ${formatCoins(coinsPerDollar)} = $1.00.`;
}

/** "Amounts are in dollars: 100 coins = $1.00.": what links the coins a task pays to the balance. */
export function coinRateLine(coinsPerDollar: number): string {
  return `Amounts are in dollars: ${formatCoins(coinsPerDollar)} = $1.00.`;
}
