import { ruleViolation } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import type { Operator } from "./access.server";

/**
 * The refusals that say an operator tried to act alone (on their own account, on their own
 * adjustment or policy change, twice on one ticket, past the day's test postbacks): each is kept in
 * the audit log. SQL refused them by raising, which rolled back anything the call wrote, so they
 * are recorded here in a call of their own (operator_record_refusal).
 */
const AUDITED_RULES = new Set([
  "operator_self_action",
  "second_operator_required",
  "second_owner_required",
  "ticket_already_credited",
  "test_postbacks_exhausted",
]);

export interface RefusedSubject {
  userId?: string | null;
  recordKind: "withdrawal" | "account" | "adjustment" | "ticket" | "wall" | "setting";
  recordId: string;
}

/** Records a console action SQL refused for one of the rules above; any other error is left alone. */
export async function auditRefusal(operator: Operator, action: string, error: unknown, subject: RefusedSubject) {
  const rule = ruleViolation(error)?.rule;
  if (!rule || !AUDITED_RULES.has(rule)) return;
  try {
    await (
      await getDatabase()
    ).rpc("operator_record_refusal", {
      p_operator_id: operator.uid,
      p_action: action.replaceAll("-", "_"),
      p_rule: rule,
      p_user_id: subject.userId ?? null,
      p_record_kind: subject.recordKind,
      p_record_id: subject.recordId,
    });
  } catch (auditError) {
    // The refusal stands whether or not its record could be written; the log says it was not.
    console.error("could not audit a refused console action:", auditError);
  }
}
