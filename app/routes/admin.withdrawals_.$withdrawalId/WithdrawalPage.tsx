import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { ActionField, ActionForm } from "~/components/operator/ActionForm";
import { ConsoleEmpty, ConsoleSection, ConsoleTable } from "~/components/operator/ConsoleTable";
import { ReviewReasons } from "~/components/operator/ReviewReasons";
import { FormBanner } from "~/components/forms/FormBanner";
import { formatTimestamp } from "~/domain/dates";
import { formatDollars } from "~/domain/money";
import { rateLine } from "~/domain/rupees";
import {
  amountToPay,
  PAYMENT_METHOD_LABELS,
  RAIL_NAMES,
  type PayoutEvent,
  withdrawalActions,
  withdrawalStage,
  type ConsoleWithdrawal,
} from "~/domain/operator-withdrawals";
import { CONSOLE_LINK } from "~/components/operator/console-link";

type Detail = ConsoleWithdrawal & {
  actions: { id: number; at: string; actor: string; action: string; reason: string | null }[];
  payout_events?: PayoutEvent[];
};

const EVENT_SOURCES: Record<PayoutEvent["source"], string> = {
  create: "its answer",
  webhook: "webhook",
  reconciler: "read back",
};

function Actions({
  withdrawal,
  needsPassword,
  paypalReady,
  razorpayxReady,
  lastResult,
}: {
  withdrawal: Detail;
  needsPassword: boolean;
  paypalReady: boolean;
  razorpayxReady: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const can = withdrawalActions(withdrawal, paypalReady, razorpayxReady);
  const paypal = withdrawal.payment_method === "paypal";
  const common = { needsPassword, lastResult };
  const shown = {
    approve: can.approve,
    pay: can.pay,
    reject: can.reject,
    "mark-paid": can.markPaid,
    "mark-failed": can.markFailed,
  };
  // A reply to a form no longer on the page (someone acted first): its words go above the forms.
  const intent = lastResult?.initialValue?.intent;
  const orphan =
    typeof intent === "string" && !shown[intent as keyof typeof shown]
      ? Object.values(lastResult?.error ?? {}).flatMap((errors) => errors ?? [])
      : [];
  return (
    <div className="space-y-4">
      <FormBanner errors={orphan.length ? orphan : undefined} />
      <ActionForms
        withdrawal={withdrawal}
        can={can}
        paypal={paypal && paypalReady}
        byRazorpayX={razorpayxReady && withdrawal.payment_method === "upi" && withdrawal.payout_currency === "INR"}
        common={common}
        lastResult={lastResult}
      />
    </div>
  );
}

function ActionForms({
  withdrawal,
  can,
  paypal,
  byRazorpayX,
  common,
  lastResult,
}: {
  withdrawal: Detail;
  can: ReturnType<typeof withdrawalActions>;
  paypal: boolean;
  /** RazorpayX pays it once approved (decision 088). */
  byRazorpayX: boolean;
  common: { needsPassword: boolean; lastResult: SubmissionResult<string[]> | undefined };
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  if (!Object.values(can).some(Boolean)) {
    return (
      <p className="text-sm text-muted">
        {withdrawal.status !== "pending"
          ? "This withdrawal is settled: nothing more can be done to it."
          : withdrawal.payout_rail === "razorpayx"
            ? "RazorpayX has this payout: its webhook (or its read-back, every few minutes) settles it."
            : withdrawal.payment_method === "giftcard"
              ? "Tremendous has this gift card order: its webhook (or its read-back, every few minutes) settles it; a card whose email bounced is cancelled before the money goes back."
              : "PayPal has this payout: its webhook (or npm run payouts -- sync) settles it."}
      </p>
    );
  }
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {can.approve ? (
        <ActionForm
          intent="approve"
          title={paypal ? "Approve and pay" : "Approve"}
          help={
            paypal
              ? `Pays ${formatDollars(withdrawal.amount)} to ${withdrawal.recipient} through PayPal now.`
              : byRazorpayX
                ? `RazorpayX then pays ${amountToPay(withdrawal)} to ${withdrawal.recipient} within a minute.`
                : withdrawal.payment_method === "giftcard"
                  ? `Tremendous then emails a ${amountToPay(withdrawal)} ${withdrawal.giftcard_name ?? ""} card to ${withdrawal.recipient} within a minute.`
                  : "It then waits in Approved, unpaid, to be paid by hand and marked paid."
          }
          button={paypal ? "Approve and pay with PayPal" : "Approve"}
          pendingText="Approving…"
          {...common}
        />
      ) : null}
      {can.pay ? (
        <ActionForm
          intent="pay"
          title="Pay with PayPal"
          help={`Approved but not sent yet. Sends ${formatDollars(withdrawal.amount)} to ${withdrawal.recipient}; PayPal is never asked twice for one withdrawal.`}
          button="Pay with PayPal"
          pendingText="Sending…"
          {...common}
        />
      ) : null}
      {can.markPaid ? (
        <ActionForm
          intent="mark-paid"
          title="Mark paid"
          help={
            withdrawal.payment_method === "paypal"
              ? `PayPal is not set up on this server: once you have sent ${formatDollars(withdrawal.amount)} to ${withdrawal.recipient} in PayPal yourself, mark it paid with PayPal's transaction id.`
              : `Once you have sent ${amountToPay(withdrawal)} to ${withdrawal.recipient} yourself.`
          }
          button="Mark paid"
          pendingText="Saving…"
          {...common}
        >
          <ActionField
            intent="mark-paid"
            name="reference"
            label={
              withdrawal.payment_method === "paypal"
                ? "PayPal transaction id"
                : "Payment reference (UTR or bank transaction id)"
            }
            lastResult={lastResult}
          />
        </ActionForm>
      ) : null}
      {can.markFailed ? (
        <ActionForm
          intent="mark-failed"
          title="Could not pay"
          help="The money goes back to their balance, and they are told the reason."
          button="Mark not paid"
          pendingText="Saving…"
          tone="secondary"
          {...common}
        >
          <ActionField
            intent="mark-failed"
            name="reason"
            label="Reason (they see it)"
            multiline
            lastResult={lastResult}
          />
        </ActionForm>
      ) : null}
      {can.reject ? (
        <ActionForm
          intent="reject"
          title="Refuse"
          help="The money goes back to their balance, and they are told the reason in a notice."
          button="Refuse withdrawal"
          pendingText="Refusing…"
          tone="danger"
          {...common}
        >
          <ActionField intent="reject" name="reason" label="Reason (they see it)" multiline lastResult={lastResult} />
        </ActionForm>
      ) : null}
    </div>
  );
}

export function WithdrawalPage({
  id,
  withdrawal,
  canAct,
  needsPassword,
  paypalReady,
  razorpayxReady = false,
  lastResult,
}: {
  id: string;
  withdrawal: Detail | null;
  canAct: boolean;
  needsPassword: boolean;
  paypalReady: boolean;
  razorpayxReady?: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  if (!withdrawal) {
    return (
      <div className="max-w-2xl space-y-4">
        <h1 className="text-2xl font-bold tracking-tight">No such withdrawal</h1>
        <FormBanner errors={lastResult?.error?.[""] ?? undefined} />
        <p className="text-sm text-muted [overflow-wrap:anywhere]">{`No withdrawal has the id “${id}”.`}</p>
        <Link to="/admin/withdrawals" className={`${CONSOLE_LINK} text-sm`}>
          Back to the withdrawals
        </Link>
      </div>
    );
  }
  const rows: [string, ReactNode][] = [
    [
      "Account",
      withdrawal.user_id ? (
        <Link to={`/admin/people/${encodeURIComponent(withdrawal.user_id)}`} className={CONSOLE_LINK}>
          {withdrawal.email ?? withdrawal.user_id}
        </Link>
      ) : (
        "a deleted account"
      ),
    ],
    [
      "Paid to",
      withdrawal.payment_method === "giftcard"
        ? `${withdrawal.giftcard_name ?? "A"} gift card (${amountToPay(withdrawal)}), emailed to ${withdrawal.recipient}`
        : `${PAYMENT_METHOD_LABELS[withdrawal.payment_method]}: ${withdrawal.recipient}`,
    ],
    ...(withdrawal.upi_account_status
      ? [
          [
            "UPI ID checked",
            withdrawal.upi_account_status === "invalid"
              ? "RazorpayX: this UPI ID does not exist"
              : `Registered to ${withdrawal.upi_registered_name ?? "a name RazorpayX did not give"}; the account's name is ${withdrawal.display_name ?? "—"}`,
          ] satisfies [string, ReactNode],
        ]
      : []),
    ...(withdrawal.payout_currency === "INR" && withdrawal.payout_rate != null
      ? [
          [
            "In rupees",
            `${amountToPay(withdrawal)} at ${rateLine(Number(withdrawal.payout_rate))}, fixed when it was asked for`,
          ] satisfies [string, ReactNode],
        ]
      : []),
    ["Asked", formatTimestamp(withdrawal.created_at)],
    ["Their balance now", formatDollars(withdrawal.balance)],
  ];
  if (withdrawal.reviewed_at)
    rows.push(["Reviewed", `${formatTimestamp(withdrawal.reviewed_at)} by ${withdrawal.reviewed_by ?? "—"}`]);
  if (withdrawal.sent_at && withdrawal.payout_rail === "razorpayx") {
    rows.push([
      "Sent to RazorpayX",
      `${formatTimestamp(withdrawal.sent_at)}, payout ${withdrawal.payout_batch_id ?? "—"}, ${withdrawal.payout_status ?? "no status yet"}`,
    ]);
  } else if (withdrawal.sent_at && withdrawal.payout_rail === "tremendous") {
    rows.push([
      "Ordered from Tremendous",
      `${formatTimestamp(withdrawal.sent_at)}, order ${withdrawal.payout_batch_id ?? "—"}, reward ${withdrawal.payout_item_id ?? "—"}, ${withdrawal.payout_status?.replace(/_/g, " ") ?? "no status yet"}`,
    ]);
  } else if (withdrawal.payout_rail === "tremendous" && withdrawal.status === "pending") {
    rows.push([
      "Tremendous",
      `Asked to order it at ${formatTimestamp(withdrawal.payout_claimed_at ?? withdrawal.created_at)}, no answer recorded yet: it is asked again with the same external id until it answers (it never orders twice).`,
    ]);
  } else if (withdrawal.sent_at) {
    rows.push([
      "Sent to PayPal",
      `${formatTimestamp(withdrawal.sent_at)}, batch ${withdrawal.payout_batch_id ?? "—"}, ${withdrawal.payout_status ?? "no status yet"}`,
    ]);
  } else if (withdrawal.payout_rail === "razorpayx" && withdrawal.status === "pending") {
    rows.push([
      "RazorpayX",
      `Asked to pay it at ${formatTimestamp(withdrawal.payout_claimed_at ?? withdrawal.created_at)}, no answer recorded yet: it is asked again with the same request until it answers (it never pays twice).`,
    ]);
  }
  if (
    withdrawal.payout_claimed_at &&
    !withdrawal.sent_at &&
    withdrawal.status === "pending" &&
    withdrawal.payout_rail !== "razorpayx" &&
    withdrawal.payout_rail !== "tremendous"
  ) {
    rows.push([
      "PayPal",
      `Asked to pay it at ${formatTimestamp(withdrawal.payout_claimed_at)}, no answer recorded: Pay with PayPal again to learn PayPal's answer (it never pays twice).`,
    ]);
  }
  if (withdrawal.settled_at) rows.push(["Settled", formatTimestamp(withdrawal.settled_at)]);
  if (withdrawal.reference) rows.push(["Reference", withdrawal.reference]);
  if (withdrawal.failure_reason) rows.push(["Reason", withdrawal.failure_reason]);
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <Link to="/admin/withdrawals" className={`${CONSOLE_LINK} text-sm`}>
          Withdrawals
        </Link>
        <h1 className="text-2xl font-bold tracking-tight">
          {formatDollars(withdrawal.amount)} by {PAYMENT_METHOD_LABELS[withdrawal.payment_method]}
        </h1>
        <p className="text-sm font-semibold" data-testid="withdrawal-stage">
          {withdrawalStage(withdrawal)}
          {withdrawal.first_withdrawal && withdrawal.status === "pending" ? " · first cash-out" : ""}
          {withdrawal.payouts_paused ? " · cash-outs paused" : ""}
          {withdrawal.banned ? " · account closed" : ""}
        </p>
      </header>
      <dl className="grid gap-x-6 gap-y-2 rounded-2xl border border-line bg-white p-5 text-sm shadow-sm sm:grid-cols-[auto_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted">{label}</dt>
            <dd className="[overflow-wrap:anywhere]">{value}</dd>
          </div>
        ))}
      </dl>
      <ConsoleSection title="Review">
        <div className="rounded-2xl border border-line bg-white p-5 text-sm shadow-sm">
          <ReviewReasons score={withdrawal.risk_score} reasons={withdrawal.risk_reasons} />
        </div>
      </ConsoleSection>
      {canAct ? (
        <ConsoleSection title="Act">
          <Actions
            withdrawal={withdrawal}
            needsPassword={needsPassword}
            paypalReady={paypalReady}
            razorpayxReady={razorpayxReady}
            lastResult={lastResult}
          />
        </ConsoleSection>
      ) : null}
      {withdrawal.payout_events && withdrawal.payout_events.length > 0 ? (
        <ConsoleSection title={`What ${RAIL_NAMES[withdrawal.payout_rail ?? "razorpayx"]} reported`}>
          <ConsoleTable
            label="The payout's statuses"
            caption="Each status of the payout as it was learnt, oldest first"
            columns={[
              "When",
              "Status",
              "From",
              withdrawal.payout_rail === "tremendous" ? "Order" : "Payout",
              withdrawal.payout_rail === "tremendous" ? "Reason" : "UTR or reason",
            ]}
          >
            {withdrawal.payout_events.map((event) => (
              <tr key={`${event.payout_id}:${event.status}`} data-testid="payout-event" className="align-top">
                <td className="px-4 py-3 whitespace-nowrap tabular-nums">{formatTimestamp(event.received_at)}</td>
                <td className="px-4 py-3">
                  {event.applied ? event.status : `${event.status} (arrived late, not applied)`}
                </td>
                <td className="px-4 py-3">{EVENT_SOURCES[event.source]}</td>
                <td className="px-4 py-3 [overflow-wrap:anywhere]">{event.payout_id}</td>
                <td className="px-4 py-3 [overflow-wrap:anywhere]">{event.utr ?? event.reason ?? "—"}</td>
              </tr>
            ))}
          </ConsoleTable>
        </ConsoleSection>
      ) : null}
      <ConsoleSection title="What operators did">
        {withdrawal.actions.length === 0 ? (
          <ConsoleEmpty>No operator has acted on this withdrawal.</ConsoleEmpty>
        ) : (
          <ConsoleTable
            label="Operator actions on this withdrawal"
            caption="Operator actions, newest first"
            columns={["When", "Operator", "Action", "Reason"]}
          >
            {withdrawal.actions.map((action) => (
              <tr key={action.id} data-testid="withdrawal-action" className="align-top">
                <td className="px-4 py-3 whitespace-nowrap tabular-nums">{formatTimestamp(action.at)}</td>
                <td className="px-4 py-3 [overflow-wrap:anywhere]">{action.actor}</td>
                <td className="px-4 py-3">{action.action.replaceAll("_", " ")}</td>
                <td className="px-4 py-3 [overflow-wrap:anywhere]">{action.reason ?? "—"}</td>
              </tr>
            ))}
          </ConsoleTable>
        )}
      </ConsoleSection>
    </div>
  );
}
