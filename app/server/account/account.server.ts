import type { ActivityRow } from "~/domain/activity";
import { balanceForfeited, debtOwed, type DeletionFacts } from "~/domain/account-deletion";
import { accountHash } from "./account-hash.server";
import { dbCall } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { read } from "../db/reads.server";
import type { UserSummary } from "./users.server";

/** docs/product.md, "Profile: personal information": the display name (1 to 50 characters, checked in SQL). */
export async function updateDisplayName(userId: string, displayName: string) {
  const db = await getDatabase();
  return db.rpc<UserSummary>("update_display_name", { p_user_id: userId, p_display_name: displayName });
}

/** Deactivation, docs/product.md, "Profile: account management" (and the reactivation of a sign-in); says whether it was active before. */
export async function setAccountActive(userId: string, active: boolean) {
  const db = await getDatabase();
  return db.rpc<{ was_active: boolean; is_active: boolean }>("set_account_active", {
    p_user_id: userId,
    p_active: active,
  });
}

/**
 * Deletes the person and keeps the money (docs/operations.md, "Deleting an account"): the email and payout
 * addresses are handed to the database only as keyed hashes. Refused while a withdrawal is
 * pending (`withdrawal_pending`).
 */
export async function deleteAccountData(userId: string, forfeit: number) {
  const db = await getDatabase();
  const facts = await db.rpc<{ email: string | null; unhashed_recipients: Record<string, string | null> } | null>(
    "account_deletion_facts",
    { p_user_id: userId },
  );
  const recipientHashes = Object.fromEntries(
    Object.entries(facts?.unhashed_recipients ?? {})
      .filter((entry): entry is [string, string] => Boolean(entry[1]))
      .map(([id, recipient]) => [id, accountHash(recipient)]),
  );
  return db.rpc<{ deleted: boolean }>("delete_account", {
    p_user_id: userId,
    p_email_hash: facts?.email ? accountHash(facts.email) : null,
    p_recipient_hashes: recipientHashes,
    p_forfeit: forfeit,
  });
}

/**
 * What keeps an account from being deleted (a withdrawal on its way, a debt: debtOwed, positive),
 * and the balance deleting it gives up.
 */
type DeletionFactsRow = { pending_withdrawals: number; balance: number | string; carried_debt?: number | string };

/** The facts deletionBlocks judges, as a call a page can read together with its others (readTogether). */
export function deletionFactsCall(userId: string) {
  return dbCall<DeletionFactsRow | null>("account_deletion_facts", { p_user_id: userId });
}

/**
 * `readWithPage`: the facts when the page read them with its others (deletionFactsCall), else read here.
 */
export async function deletionBlocks(
  userId: string,
  readWithPage?: Promise<DeletionFactsRow | null>,
): Promise<DeletionFacts> {
  const facts = await (readWithPage ?? read(deletionFactsCall(userId)));
  return {
    pendingWithdrawal: (facts?.pending_withdrawals ?? 0) > 0,
    debt: facts ? debtOwed(facts) : 0,
    forfeit: facts ? balanceForfeited(facts) : 0,
  };
}

/** Whether a referral code may apply to this email (not one that belonged to a deleted account). */
export async function referralAllowedFor(email: string | null): Promise<boolean> {
  if (!email) return true;
  const db = await getDatabase();
  return db.rpc<boolean>("referral_allowed_for", { p_email_hash: accountHash(email) });
}

/** transaction_history (docs/product.md, "Profile: recent activity"): the 10 newest rows of the user. */
export function recentActivityCall(userId: string) {
  return dbCall<ActivityRow[]>("get_recent_activity", { p_user_id: userId, p_limit: 10 });
}
