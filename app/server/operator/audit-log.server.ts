import { getDatabase } from "../db/database.server";

/** One entry of the audit log (operator_actions), as list_operator_actions reads it. */
export interface AuditEntry {
  id: number;
  at: string;
  /** The operator's name, as they were recorded. */
  actor: string;
  /** The operator's account, when a signed-in operator acted (the command line records only a name). */
  actor_user_id: string | null;
  action: string;
  /** What was acted on: an operator role, an account, a withdrawal. */
  record_kind: string | null;
  record_id: string | null;
  user_id: string | null;
  email: string | null;
  reason: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  detail: Record<string, unknown>;
}

export const AUDIT_PAGE_SIZE = 50;

export interface AuditPage {
  entries: AuditEntry[];
  /** The `before` of the next (older) page, or null on the last. */
  olderBefore: number | null;
}

/** A page of the log, newest first, older than `before` (null: the newest), read as `operatorId`. */
export async function readAuditPage(operatorId: string, before: number | null): Promise<AuditPage> {
  const database = await getDatabase();
  // One entry more than a page says whether there is an older page.
  const entries = await database.rpc<AuditEntry[]>("list_operator_actions", {
    p_operator_id: operatorId,
    p_before: before,
    p_limit: AUDIT_PAGE_SIZE + 1,
  });
  const page = entries.slice(0, AUDIT_PAGE_SIZE);
  return { entries: page, olderBefore: entries.length > AUDIT_PAGE_SIZE ? page.at(-1)!.id : null };
}
