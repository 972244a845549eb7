// Deleting an account (docs/product.md, "Profile: account management"; docs/decisions/078):
// client-safe words shared by the page and the server's refusal.
import { formatDollars } from "./money";

/** Why an account below zero cannot be deleted yet, with what it owes, and how it is settled. */
export function accountInDebtWords(debt: number): string {
  return `Your balance is -${formatDollars(debt)}: an offer network took back coins you had already cashed out. Offers you complete pay it back first; once your balance is $0.00 or more, you can delete your account.`;
}
