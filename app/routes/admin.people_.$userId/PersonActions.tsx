import type { SubmissionResult } from "@conform-to/react";
import { ActionField, ActionForm, replyTo } from "~/components/operator/ActionForm";
import { ConsoleEmpty, ConsoleSection, ConsoleTable } from "~/components/operator/ConsoleTable";
import { ErrorList } from "~/components/forms/ErrorList";
import { FormBanner } from "~/components/forms/FormBanner";
import { formatTimestamp } from "~/domain/dates";
import { formatDollars } from "~/domain/money";
import type { AdjustmentLimits, PersonAdjustment, PersonProfile } from "~/domain/operator-people";

type Reply = SubmissionResult<string[]> | undefined;

interface Viewer {
  uid: string;
  canMoveMoney: boolean;
  needsPassword: boolean;
}

function KindChoice({ lastResult }: { lastResult: Reply }) {
  const reply = replyTo(lastResult, "adjust");
  const errors = reply?.error?.kind ?? undefined;
  const chosen = typeof reply?.initialValue?.kind === "string" ? reply.initialValue.kind : "earned";
  const options = [
    {
      value: "earned",
      label: "Earned",
      help: "Owed by an offer network: counts as offer earnings, unlocks bonus money.",
    },
    { value: "bonus", label: "Bonus", help: "Goodwill: locked like other bonus money until offer earnings clear." },
  ];
  return (
    <fieldset aria-describedby={errors?.length ? "adjust-kind-error" : undefined}>
      <legend className="mb-1 text-sm font-medium">Kind of money</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((option) => (
          <label
            key={option.value}
            className="flex min-h-11 cursor-pointer gap-3 rounded-xl border border-line bg-white p-3 text-sm has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50"
          >
            <input
              type="radio"
              name="kind"
              value={option.value}
              defaultChecked={chosen === option.value}
              className="mt-0.5 size-4 accent-brand-600"
            />
            <span>
              <span className="font-semibold">{option.label}</span>
              <span className="block text-xs text-muted">{option.help}</span>
            </span>
          </label>
        ))}
      </div>
      <ErrorList id="adjust-kind-error" errors={errors} />
    </fieldset>
  );
}

function Adjustments({
  adjustments,
  viewer,
  lastResult,
}: {
  adjustments: readonly PersonAdjustment[];
  viewer: Viewer;
  lastResult: Reply;
}) {
  const waiting = adjustments.filter((adjustment) => adjustment.state === "awaiting_approval");
  return (
    <>
      {waiting.map((adjustment) => {
        const hidden = { adjustment: String(adjustment.id) };
        const mine = adjustment.requested_by_user_id === viewer.uid;
        const what = `${formatDollars(adjustment.amount)} of ${adjustment.kind} money, asked by ${adjustment.requested_by}: ${adjustment.reason}`;
        if (!viewer.canMoveMoney || mine) {
          return (
            <div
              key={adjustment.id}
              className="rounded-2xl border border-amber-200 bg-amber-50 p-5 text-sm"
              data-testid="adjustment-waiting"
            >
              <p className="font-semibold">Waiting for a second operator</p>
              <p className="mt-1 [overflow-wrap:anywhere]">{what}</p>
              {mine ? (
                <p className="mt-1 text-muted">Another finance operator or owner must approve or decline it.</p>
              ) : null}
            </div>
          );
        }
        return (
          <div key={adjustment.id} className="grid gap-4 lg:grid-cols-2" data-testid="adjustment-waiting">
            <ActionForm
              intent="approve-adjustment"
              title="Approve the adjustment"
              help={what}
              button={`Approve ${formatDollars(adjustment.amount)}`}
              pendingText="Approving…"
              needsPassword={viewer.needsPassword}
              lastResult={lastResult}
              hidden={hidden}
            />
            <ActionForm
              intent="decline-adjustment"
              title="Decline it"
              help="Nothing is credited or taken; the one who asked sees why in the audit log."
              button="Decline"
              pendingText="Declining…"
              tone="secondary"
              needsPassword={viewer.needsPassword}
              lastResult={lastResult}
              hidden={hidden}
            >
              <ActionField
                intent="decline-adjustment"
                name="reason"
                label="Reason"
                multiline
                lastResult={lastResult}
                match={hidden}
              />
            </ActionForm>
          </div>
        );
      })}
    </>
  );
}

const STATE_LABELS = { applied: "Applied", awaiting_approval: "Waiting", declined: "Declined" } as const;

function AdjustmentHistory({ adjustments }: { adjustments: readonly PersonAdjustment[] }) {
  if (adjustments.length === 0) return <ConsoleEmpty>No adjustment of this balance.</ConsoleEmpty>;
  return (
    <ConsoleTable
      label="Balance adjustments"
      caption="Balance adjustments, those waiting first"
      columns={["Asked", "Amount", "Kind", "Reason", "By", "State"]}
    >
      {adjustments.map((adjustment) => (
        <tr key={adjustment.id} data-testid="adjustment" className="align-top">
          <td className="px-4 py-3 whitespace-nowrap tabular-nums">{formatTimestamp(adjustment.requested_at)}</td>
          <td
            className={`px-4 py-3 font-semibold whitespace-nowrap tabular-nums ${adjustment.amount < 0 ? "text-red-700" : ""}`}
          >
            {formatDollars(adjustment.amount)}
          </td>
          <td className="px-4 py-3">{adjustment.kind}</td>
          <td className="px-4 py-3 [overflow-wrap:anywhere]">{adjustment.reason}</td>
          <td className="px-4 py-3 [overflow-wrap:anywhere]">
            {adjustment.requested_by}
            {adjustment.decided_by && adjustment.decided_by !== adjustment.requested_by ? (
              <span className="block text-xs text-muted">decided by {adjustment.decided_by}</span>
            ) : null}
          </td>
          <td className="px-4 py-3">
            {STATE_LABELS[adjustment.state]}
            {adjustment.decision_reason ? (
              <span className="block text-xs text-muted">{adjustment.decision_reason}</span>
            ) : null}
          </td>
        </tr>
      ))}
    </ConsoleTable>
  );
}

/** The forms an operator's own page still shows: the rest are another operator's to use. */
const SHOWN_ON_OWN_ACCOUNT = new Set(["sign-out-everywhere", "resend-verification", "note"]);

/** What an operator can do to the account: money for finance and owners, the rest for every role. */
export function PersonActions({
  profile,
  adjustments,
  limits,
  viewer,
  lastResult,
}: {
  profile: PersonProfile;
  adjustments: readonly PersonAdjustment[];
  limits: AdjustmentLimits;
  viewer: Viewer;
  lastResult: Reply;
}) {
  const self = profile.id === viewer.uid;
  // A refusal of a form this page does not show (one's own account, posted from an old page): said here.
  const intent = lastResult?.initialValue?.intent;
  const shownElsewhere = typeof intent === "string" && self && !SHOWN_ON_OWN_ACCOUNT.has(intent);
  const orphan = shownElsewhere ? Object.values(lastResult?.error ?? {}).flatMap((errors) => errors ?? []) : [];
  return (
    <ConsoleSection title="Act">
      <div className="space-y-4">
        <FormBanner errors={orphan.length ? orphan : undefined} />
        {self ? (
          <p className="rounded-2xl border border-line bg-white p-4 text-sm text-muted" data-testid="own-account">
            This is your own account: another operator adjusts it, pauses or resumes its cash-outs, and closes or
            reopens it.
          </p>
        ) : null}
        <Adjustments adjustments={adjustments} viewer={viewer} lastResult={lastResult} />
        <div className="grid gap-4 lg:grid-cols-2">
          {viewer.canMoveMoney && !self ? (
            <ActionForm
              intent="adjust"
              title="Adjust the balance"
              help={`A credit or, with a minus sign, a debit, written to their ledger as "Correction by support". Past ${formatDollars(limits.approval_above)} for one person, or ${formatDollars(limits.operator_limit)} from you for everyone together, either way within ${limits.window_hours} hours, a second operator approves it first.`}
              button="Adjust balance"
              pendingText="Adjusting…"
              needsPassword={viewer.needsPassword}
              lastResult={lastResult}
            >
              <ActionField
                intent="adjust"
                name="amount"
                label="Amount in dollars"
                hint="Such as 5.00 to credit, or -2.50 to take back."
                inputMode="decimal"
                lastResult={lastResult}
              />
              <KindChoice lastResult={lastResult} />
              <ActionField
                intent="adjust"
                name="reason"
                label="Reason (kept in the audit log)"
                multiline
                lastResult={lastResult}
              />
            </ActionForm>
          ) : null}
          {viewer.canMoveMoney && !self ? (
            profile.payouts_paused_at ? (
              <ActionForm
                intent="resume"
                title="Cash-outs are paused"
                help={`Since ${formatTimestamp(profile.payouts_paused_at)}. Resuming lets them withdraw again.`}
                button="Resume cash-outs"
                pendingText="Resuming…"
                needsPassword={viewer.needsPassword}
                lastResult={lastResult}
              />
            ) : (
              <ActionForm
                intent="pause"
                title="Pause cash-outs"
                help="They keep earning; Withdraw tells them cash-outs are paused while their activity is checked."
                button="Pause cash-outs"
                pendingText="Pausing…"
                tone="secondary"
                needsPassword={viewer.needsPassword}
                lastResult={lastResult}
              >
                <ActionField
                  intent="pause"
                  name="reason"
                  label="Reason (kept in the audit log)"
                  multiline
                  lastResult={lastResult}
                />
              </ActionForm>
            )
          ) : null}
          {viewer.canMoveMoney && !self ? (
            profile.banned_at ? (
              <ActionForm
                intent="unban"
                title="The account is closed"
                help={profile.ban_reason ? `Reason: ${profile.ban_reason}` : undefined}
                button="Reopen the account"
                pendingText="Reopening…"
                needsPassword={viewer.needsPassword}
                lastResult={lastResult}
              />
            ) : (
              <ActionForm
                intent="ban"
                title="Close the account"
                help="Signs them out everywhere and refuses sign-in; withdrawals not yet sent are refused and refunded, with the reason."
                button="Close account"
                pendingText="Closing…"
                tone="danger"
                needsPassword={viewer.needsPassword}
                lastResult={lastResult}
              >
                <ActionField
                  intent="ban"
                  name="reason"
                  label="Reason (they are told it)"
                  multiline
                  lastResult={lastResult}
                />
              </ActionForm>
            )
          ) : null}
          <ActionForm
            intent="sign-out-everywhere"
            title="Sign out of every device"
            help="Ends every session of the account now; they can sign in again."
            button="Sign them out"
            pendingText="Signing out…"
            tone="secondary"
            needsPassword={viewer.needsPassword}
            lastResult={lastResult}
          />
          {profile.email && !profile.email_verified ? (
            <ActionForm
              intent="resend-verification"
              title="Email not verified"
              help={`Sends the verification email to ${profile.email} again (their own hourly allowance applies).`}
              button="Resend verification email"
              pendingText="Sending…"
              tone="secondary"
              lastResult={lastResult}
            />
          ) : null}
          <ActionForm
            intent="note"
            title="Add a note"
            help="Kept with the account in the audit log; only operators see it."
            button="Add note"
            pendingText="Saving…"
            tone="secondary"
            lastResult={lastResult}
          >
            <ActionField intent="note" name="note" label="Note" multiline lastResult={lastResult} />
          </ActionForm>
        </div>
        <AdjustmentHistory adjustments={adjustments} />
      </div>
    </ConsoleSection>
  );
}
