import { requireOperator } from "~/server/operator/access.server";
import { readAuditPage } from "~/server/operator/audit-log.server";

// An entry id as a page's `before` carries it: a positive whole number (a bigint in SQL).
const ENTRY_ID = /^[1-9][0-9]{0,17}$/;

/**
 * The audit log (docs/operator-console.md, "The audit log"): newest first, a page per URL
 * (`?before=<id>`: the entries older than that one). Every role reads it; nothing here changes it.
 */
export async function loadAuditLog(request: Request) {
  const operator = await requireOperator(request, "support");
  const requested = new URL(request.url).searchParams.get("before");
  // A `before` that is no entry id (edited by hand) shows the newest page rather than an error.
  const before = requested !== null && ENTRY_ID.test(requested) ? Number(requested) : null;
  const page = await readAuditPage(operator.uid, before);
  return { ...page, paged: before !== null };
}
