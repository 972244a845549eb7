import { data } from "@remix-run/node";
import { LEDGER_TYPES } from "~/domain/activity";
import { requireOperator } from "~/server/admin/access.server";
import { readPerson } from "~/server/admin/people.server";

// An account id as Firebase makes them (letters, digits, "-" and "_", at most 128 characters).
const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,128}$/;
// A ledger row id as the page's `before` carries it: a positive whole number (a bigint in SQL).
const ROW_ID = /^[1-9][0-9]{0,17}$/;

/**
 * A person's page (docs/operator-console.md, "People"): profile, balances, the ledger (`?type=` one
 * kind of movement, `?before=<row id>` older rows), withdrawals, referrals both ways, offers and
 * postbacks, devices and linked accounts, tickets and what operators did. Every role reads it.
 * An id no account has answers 404 with the console's own words.
 */
export async function loadPerson(request: Request, userId: string | undefined) {
  const operator = await requireOperator(request, "support");
  const params = new URL(request.url).searchParams;
  const type = params.get("type");
  // A filter or page that is not one (edited by hand) shows the whole, newest ledger.
  const ledgerType = type !== null && (LEDGER_TYPES as readonly string[]).includes(type) ? type : null;
  const before = params.get("before");
  const ledgerBefore = before !== null && ROW_ID.test(before) ? Number(before) : null;
  const person =
    userId !== undefined && ACCOUNT_ID.test(userId)
      ? await readPerson(operator.uid, userId, ledgerType, ledgerBefore)
      : null;
  if (!person) return data({ userId: userId ?? "", person: null, ledgerType, paged: false }, { status: 404 });
  return { userId: person.profile.id, person, ledgerType, paged: ledgerBefore !== null };
}
