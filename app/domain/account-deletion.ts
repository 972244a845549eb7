// Deleting an account (docs/product.md, "Profile: account management"; docs/decisions/078):
// client-safe rules and words shared by the page and the server's refusal.
import { formatDollars } from "./money";

/**
 * What the account owes, positive, or 0: a balance below zero, or a debt carried from an earlier
 * account of the same email that its balance does not cover (both settled before it can be deleted).
 */
export function debtOwed(money: { balance?: number | string | null; carried_debt?: number | string | null }): number {
  const owed = Number(money.carried_debt ?? 0) - Number(money.balance ?? 0);
  return owed > 0 ? Math.round(owed * 100) / 100 : 0;
}

/** Why an account in debt cannot be deleted yet, with what it owes (when known), and how it is settled. */
export function accountInDebtWords(debt?: number): string {
  const owes = debt ? `You owe ${formatDollars(debt)}` : "You owe money";
  return `${owes}: an offer network took back coins already cashed out (by this account, or an earlier one with your email). Offers you complete pay it back first; once it is paid, you can delete your account.`;
}

/** Why an account with a cash-out on its way cannot be deleted yet. */
export const WITHDRAWAL_ON_ITS_WAY =
  "You have a withdrawal on its way. You can delete your account once it has been paid.";

/** What keeps an account from being deleted, and what deleting it gives up; said before any password is asked. */
export interface DeletionFacts {
  /** A cash-out on its way: deletion waits until it is paid. */
  pendingWithdrawal: boolean;
  /** What the account owes (debtOwed): settled first. */
  debt: number;
  /** The balance deletion gives up (net of a debt carried in): confirmed with "I give up $2.10". */
  forfeit: number;
}

/** The balance left once a debt carried in is paid, which deleting the account gives up; 0 when none. */
export function balanceForfeited(money: {
  balance?: number | string | null;
  carried_debt?: number | string | null;
}): number {
  const left = Number(money.balance ?? 0) - Number(money.carried_debt ?? 0);
  return left > 0 ? Math.round(left * 100) / 100 : 0;
}

/** The confirmation deletion with money left asks for: "I give up $2.10". */
export function giveUpLabel(forfeit: number): string {
  return `I give up ${formatDollars(forfeit)}`;
}

/** What deleting the account loses, said before the password: the balance, with its amount. */
export function forfeitWords(forfeit: number): string {
  return `Your account still holds ${formatDollars(forfeit)}. Deleting it gives that money up: it cannot be withdrawn or recovered afterwards. To keep it, withdraw it first.`;
}
