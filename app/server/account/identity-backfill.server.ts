import { identityHash } from "./account-hash.server";
import { getDatabase } from "../db/database.server";

const BATCH = 500;

/**
 * Gives every profile made before identities existed (docs/decisions/064) the keyed hash of its
 * canonical email, which only the server can make (the key never enters the database). Run once
 * per start, in the background; idempotent, and safe on several instances at once (the database
 * locks each identity). Returns how many profiles were given one.
 */
export async function backfillIdentities(): Promise<number> {
  const db = await getDatabase();
  let after = "";
  let assigned = 0;
  for (;;) {
    const batch = await db.rpc<{ id: string; email: string }[]>("profiles_without_identity", {
      p_after: after,
      p_limit: BATCH,
    });
    if (batch.length === 0) return assigned;
    const identities = batch.flatMap(({ id, email }) => {
      const hash = identityHash(email);
      return hash ? [{ id, hash }] : [];
    });
    assigned += await db.rpc<number>("assign_identities", { p_identities: identities });
    after = batch[batch.length - 1]!.id;
  }
}
