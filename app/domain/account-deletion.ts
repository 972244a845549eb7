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
