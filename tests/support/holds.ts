import type { TestDatabase } from "./db";

/**
 * Ends the holds of this account's pending money now, as time would (docs/decisions/066): the
 * ledger is append-only, so its trigger is set aside for this one update.
 */
export async function endHolds(t: Pick<TestDatabase, "sql">, userId: string) {
  await t.sql("alter table transaction_history disable trigger transaction_history_append_only");
  try {
    await t.sql("update transaction_history set available_at = now() where user_id = $1 and available_at > now()", [
      userId,
    ]);
    // The networks' own record of when each credit clears: a reversal after it takes cleared money.
    await t.sql("update provider_postbacks set available_at = now() where user_id = $1 and available_at > now()", [
      userId,
    ]);
  } finally {
    await t.sql("alter table transaction_history enable trigger transaction_history_append_only");
  }
}
