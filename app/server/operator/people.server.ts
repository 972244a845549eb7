import { getDatabase } from "../db/database.server";
import type { FoundPerson, PersonPage } from "~/domain/operator-people";
import { accountHash, identityHash } from "../account/account-hash.server";

/**
 * People in the operator console (docs/operator-console.md, "People"): the search and a person's
 * page, read through operator_find_people and operator_person, which check the operator's role.
 */

/** The longest term the search takes: an email, an id, a payout address. */
export const MAX_SEARCH_LENGTH = 320;
export const LEDGER_PAGE_SIZE = 50;

/**
 * The accounts `term` names: its account id, email, referral code or wall id as written, its
 * canonical email (every alias of one inbox) or a payout address it cashed out to. The last two
 * are kept as keyed hashes, so the term is hashed the way they were.
 */
export async function findPeople(operatorId: string, term: string): Promise<FoundPerson[]> {
  const database = await getDatabase();
  const trimmed = term.trim();
  return database.rpc<FoundPerson[]>("operator_find_people", {
    p_operator_id: operatorId,
    p_term: trimmed,
    p_identity_hash: identityHash(trimmed),
    p_recipient_hash: trimmed ? accountHash(trimmed) : null,
  });
}

/**
 * A person's page, or null when no account has that id. `ledgerType` keeps one kind of movement;
 * `ledgerBefore` (a ledger row id) starts the ledger after that row. `olderBefore` is the next
 * page's `ledgerBefore`, or null on the last.
 */
export async function readPerson(
  operatorId: string,
  userId: string,
  ledgerType: string | null,
  ledgerBefore: number | null,
): Promise<PersonPage | null> {
  const database = await getDatabase();
  const page = await database.rpc<Omit<PersonPage, "olderBefore"> | null>("operator_person", {
    p_operator_id: operatorId,
    p_user_id: userId,
    p_ledger_type: ledgerType,
    p_ledger_before: ledgerBefore,
  });
  if (!page) return null;
  const ledger = page.ledger.slice(0, LEDGER_PAGE_SIZE);
  return { ...page, ledger, olderBefore: page.ledger.length > LEDGER_PAGE_SIZE ? ledger.at(-1)!.id : null };
}
