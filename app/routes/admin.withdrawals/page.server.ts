import { readWithdrawalFilters } from "~/domain/operator-withdrawals";
import { roleAtLeast, signedInRecently } from "~/domain/operator-roles";
import { bulkApproveSchema, SELECT_PREFIX, WITHDRAWAL_MESSAGES } from "~/domain/withdrawal-review-forms";
import { requireOperator } from "~/server/operator/access.server";
import { confirmRecentSignIn } from "~/server/operator/recent-sign-in.server";
import { approvalFlash, readCursor } from "~/server/operator/withdrawal-pages.server";
import { approveWithdrawals, listWithdrawals, withdrawalCounts } from "~/server/operator/withdrawals.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { parseSubmission, readFormData, rejectForm, unreadableForm } from "~/server/http/forms.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_BULK = 50;

/**
 * /admin/withdrawals (docs/operator-console.md, "Withdrawals"): one list a page (`?view=` review,
 * unpaid, sent, paid, failed or all; `?method=`; `?age=` hours waited; `?at=&id=` the next page),
 * with how many wait in each queue. Every role reads it; finance and owners approve from it.
 */
export async function loadWithdrawals(request: Request) {
  const operator = await requireOperator(request, "support");
  const params = new URL(request.url).searchParams;
  const filters = readWithdrawalFilters(params);
  const cursor = readCursor(params);
  const [page, counts] = await Promise.all([
    listWithdrawals(operator.uid, filters, cursor),
    withdrawalCounts(operator.uid),
  ]);
  const canAct = roleAtLeast(operator.role, "finance");
  return {
    filters,
    page,
    counts,
    paged: cursor !== null,
    canAct,
    // Money actions need a sign-in within 15 minutes: the form asks for the password when it is older.
    needsPassword: canAct && !signedInRecently(operator.authTime),
    now: new Date().toISOString(),
  };
}

/** "Approve selected": the checked withdrawals of the review queue, each approved once; PayPal ones paid at once. */
export async function withdrawalsAction(request: Request) {
  const operator = await requireOperator(request, "finance");
  const fields = await readFormData(request);
  const submission = parseSubmission(fields, bulkApproveSchema);
  if (!submission) throw unreadableForm();
  if (submission.status !== "success") return rejectForm(submission, { formErrors: [WITHDRAWAL_MESSAGES.failed] });
  const ids: string[] = [];
  for (const name of fields.keys()) {
    // A checkbox sends its value ("on") only when checked; an empty one is not a choice.
    if (!name.startsWith(SELECT_PREFIX) || fields.get(name) === "") continue;
    const id = name.slice(SELECT_PREFIX.length);
    if (!UUID.test(id)) throw unreadableForm();
    ids.push(id);
  }
  if (ids.length === 0) return rejectForm(submission, { formErrors: [WITHDRAWAL_MESSAGES.noneSelected] });
  if (ids.length > MAX_BULK) return rejectForm(submission, { formErrors: [WITHDRAWAL_MESSAGES.tooMany] });
  const signIn = await confirmRecentSignIn(request, operator, submission.value);
  if (!signIn.ok) return rejectForm(submission, { fieldErrors: { password: [signIn.problem] } }, signIn.status);
  const outcomes = await approveWithdrawals(operator, ids);
  const { pathname, search } = new URL(request.url);
  return redirectWithFlash(
    pathname + search,
    approvalFlash(outcomes),
    signIn.setCookie ? { "Set-Cookie": signIn.setCookie } : {},
  );
}
