import { Link } from "@remix-run/react";
import { FilterForm, FilterSelect, ShowButton } from "~/components/operator/FilterForm";
import type { ReactNode } from "react";
import { Badge } from "~/components/operator/Badge";
import { ConsoleEmpty, ConsoleSection, ConsoleTable } from "~/components/operator/ConsoleTable";
import { activityLabel, LEDGER_TYPES } from "~/domain/activity";
import { formatDate, formatTimestamp } from "~/domain/dates";
import { formatCoins, formatDollars } from "~/domain/money";
import type { SubmissionResult } from "@conform-to/react";
import { FormBanner } from "~/components/forms/FormBanner";
import type { AdjustmentLimits, PersonAdjustment, PersonPage as Person, PersonProfile } from "~/domain/operator-people";
import { TICKET_STATUS_LABELS, ticketPath } from "~/domain/support";
import { PersonActions } from "./PersonActions";
import { CONSOLE_LINK } from "~/components/operator/console-link";

const CELL = "px-4 py-3";
const WRAP = `${CELL} [overflow-wrap:anywhere]`;
const NUMBER = `${CELL} whitespace-nowrap tabular-nums`;

/** A link to another person's page, by their email where they still have one. */
function PersonLink({ id, email }: { id: string; email: string | null }) {
  return (
    <Link to={`/admin/people/${encodeURIComponent(id)}`} className={CONSOLE_LINK}>
      {email ?? id}
    </Link>
  );
}

function Standing({ profile }: { profile: PersonProfile }) {
  return (
    <div className="flex flex-wrap gap-2">
      {profile.email_verified ? (
        <Badge tone="green">Email verified</Badge>
      ) : (
        <Badge tone="amber">Email not verified</Badge>
      )}
      {profile.banned_at ? <Badge tone="red">Banned {formatDate(profile.banned_at)}</Badge> : null}
      {profile.payouts_paused_at ? <Badge tone="amber">Cash-outs paused</Badge> : null}
      {profile.is_active ? null : <Badge tone="gray">Deactivated</Badge>}
      {profile.operator_role ? <Badge tone="brand">Operator: {profile.operator_role}</Badge> : null}
    </div>
  );
}

function Figures({ items }: { items: { label: string; value: ReactNode; note?: ReactNode }[] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-5">
      {items.map((item) => (
        <div key={item.label} className="rounded-2xl border border-line bg-white p-4 shadow-sm">
          <dt className="text-xs font-semibold tracking-wide text-muted uppercase">{item.label}</dt>
          <dd className="mt-1 text-lg font-bold tabular-nums">{item.value}</dd>
          {item.note ? <dd className="mt-0.5 text-xs text-muted">{item.note}</dd> : null}
        </div>
      ))}
    </dl>
  );
}

function Money({ profile }: { profile: PersonProfile }) {
  const negative = profile.balance < 0;
  return (
    <Figures
      items={[
        {
          label: "Balance",
          value: <span className={negative ? "text-red-700" : undefined}>{formatDollars(profile.balance)}</span>,
          note: negative ? "Below zero: a reversal took back money already withdrawn" : undefined,
        },
        { label: "Available", value: formatDollars(profile.available), note: "What they can withdraw now" },
        {
          label: "Pending",
          value: formatDollars(profile.pending),
          note: profile.next_clear_at
            ? `Next clears ${formatTimestamp(profile.next_clear_at)}`
            : "Offer earnings in their hold",
        },
        { label: "Bonus locked", value: formatDollars(profile.bonus_locked), note: "Unlocks as offer earnings clear" },
        { label: "Total earned", value: formatDollars(profile.total_earned), note: "Every credit, less reversals" },
        ...(Number(profile.carried_debt ?? 0) > 0
          ? [
              {
                label: "Owed",
                value: <span className="text-red-700">{formatDollars(profile.carried_debt ?? 0)}</span>,
                note: "From an earlier account with this email: offer earnings pay it first",
              },
            ]
          : []),
      ]}
    />
  );
}

function Identity({ profile }: { profile: PersonProfile }) {
  const rows: [string, ReactNode][] = [
    ["Account id", <code key="id">{profile.id}</code>],
    ["Email", profile.email ?? "—"],
    ["Display name", profile.display_name],
    ["Joined", formatTimestamp(profile.created_at)],
    ["Referral code", <code key="code">{profile.referral_code}</code>],
    ["Wall id", <code key="wall">{profile.wall_id}</code>],
  ];
  if (profile.ban_reason) rows.push(["Ban reason", profile.ban_reason]);
  return (
    <dl className="grid gap-x-6 gap-y-2 rounded-2xl border border-line bg-white p-5 text-sm shadow-sm sm:grid-cols-[auto_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted">{label}</dt>
          <dd className="[overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const LEDGER_TYPE_LABELS: Record<(typeof LEDGER_TYPES)[number], string> = {
  checkin: "Check-ins",
  task: "Tasks",
  referral: "Referral bonuses",
  referral_bonus: "Welcome bonuses",
  bonus: "Bonus coins",
  postback: "Offers",
  postback_reversal: "Offer reversals",
  adjustment: "Corrections by operators",
  withdrawal: "Withdrawals",
};

const LEDGER_TYPE_OPTIONS = LEDGER_TYPES.map((type) => [type, LEDGER_TYPE_LABELS[type]] as const);

function Ledger({ person, ledgerType, paged }: { person: Person; ledgerType: string | null; paged: boolean }) {
  const base = `/admin/people/${encodeURIComponent(person.profile.id)}`;
  const typeQuery = ledgerType ? `type=${ledgerType}&` : "";
  return (
    <ConsoleSection title="Ledger">
      <FilterForm action={base} className="flex flex-wrap items-end gap-2">
        <FilterSelect
          id="ledger-type"
          name="type"
          label="Kind of movement"
          defaultValue={ledgerType}
          every="Every kind"
          options={LEDGER_TYPE_OPTIONS}
        />
        <ShowButton />
      </FilterForm>
      {person.ledger.length === 0 ? (
        <ConsoleEmpty>{paged ? "No older rows." : "No movement of this kind."}</ConsoleEmpty>
      ) : (
        <ConsoleTable
          label="Ledger"
          caption="Ledger, newest first"
          columns={["When", "What", "Kind", "Coins", "Amount", "Withdrawable from"]}
        >
          {person.ledger.map((row) => (
            <tr key={row.id} data-testid="ledger-row" className="align-top">
              <td className={NUMBER}>{formatTimestamp(row.created_at)}</td>
              <td className={`${CELL} min-w-44`}>
                {activityLabel(row)}
                {row.description !== activityLabel(row) ? (
                  <span className="block text-xs text-muted">{row.description}</span>
                ) : null}
              </td>
              <td className={CELL}>{row.kind ?? "—"}</td>
              <td className={NUMBER}>{row.coins === null ? "—" : formatCoins(row.coins)}</td>
              <td className={`${NUMBER} font-semibold ${row.amount < 0 ? "text-red-700" : ""}`}>
                {formatDollars(row.amount)}
              </td>
              <td className={NUMBER}>
                {new Date(row.available_at) > new Date(row.created_at) ? formatTimestamp(row.available_at) : "at once"}
              </td>
            </tr>
          ))}
        </ConsoleTable>
      )}
      {paged || person.olderBefore !== null ? (
        <nav aria-label="Ledger pages" className="flex gap-4 text-sm font-medium">
          {paged ? (
            <Link
              to={ledgerType ? `${base}?type=${ledgerType}` : base}
              className="text-brand-700 underline underline-offset-2"
            >
              Newest rows
            </Link>
          ) : null}
          {person.olderBefore !== null ? (
            <Link
              to={`${base}?${typeQuery}before=${person.olderBefore}`}
              className="text-brand-700 underline underline-offset-2"
            >
              Older rows
            </Link>
          ) : null}
        </nav>
      ) : null}
    </ConsoleSection>
  );
}

function withdrawalState(withdrawal: Person["withdrawals"][number]): string {
  if (withdrawal.status === "pending") return withdrawal.review_state === "review" ? "In review" : "Approved, unpaid";
  if (withdrawal.status === "completed") return "Paid";
  return withdrawal.failure_reason ? `Failed: ${withdrawal.failure_reason}` : "Failed";
}

function Withdrawals({ person }: { person: Person }) {
  return (
    <ConsoleSection title="Withdrawals">
      {person.withdrawals.length === 0 ? (
        <ConsoleEmpty>No withdrawal yet.</ConsoleEmpty>
      ) : (
        <ConsoleTable
          label="Withdrawals"
          caption="Withdrawals, newest first"
          columns={["Asked", "Amount", "Method", "State", "Risk", "Reference"]}
        >
          {person.withdrawals.map((withdrawal) => (
            <tr key={withdrawal.id} data-testid="person-withdrawal" className="align-top">
              <td className={NUMBER}>{formatTimestamp(withdrawal.created_at)}</td>
              <td className={NUMBER}>{formatDollars(withdrawal.amount)}</td>
              <td className={CELL}>{withdrawal.payment_method.toUpperCase()}</td>
              <td className={WRAP}>{withdrawalState(withdrawal)}</td>
              <td className={NUMBER}>{withdrawal.risk_score ?? "—"}</td>
              <td className={WRAP}>{withdrawal.reference ?? "—"}</td>
            </tr>
          ))}
        </ConsoleTable>
      )}
    </ConsoleSection>
  );
}

function Referrals({ person }: { person: Person }) {
  return (
    <ConsoleSection title="Referrals">
      <p className="text-sm">
        {person.referred_by ? (
          <>
            Referred by <PersonLink {...person.referred_by} /> on {formatDate(person.referred_by.created_at)}
            {person.referred_by.credited_at ? " (bonus paid)" : " (bonus not paid yet)"}.
          </>
        ) : (
          "Joined without a referral code."
        )}
      </p>
      {person.referrals.length === 0 ? (
        <ConsoleEmpty>Has referred nobody.</ConsoleEmpty>
      ) : (
        <ConsoleTable
          label="People they referred"
          caption={`People they referred: ${person.referral_count}, newest first`}
          columns={["Friend", "Joined", "Referral bonus"]}
        >
          {person.referrals.map((referral) => (
            <tr key={referral.id} className="align-top">
              <td className={WRAP}>
                <PersonLink {...referral} />
              </td>
              <td className={NUMBER}>{formatDate(referral.created_at)}</td>
              <td className={NUMBER}>
                {referral.credited_at
                  ? `${formatDollars(referral.amount ?? 0)} on ${formatDate(referral.credited_at)}`
                  : "Not yet"}
              </td>
            </tr>
          ))}
        </ConsoleTable>
      )}
      {person.referral_count > person.referrals.length ? (
        <p className="text-sm text-muted">
          The newest {person.referrals.length} of {person.referral_count} are shown.
        </p>
      ) : null}
    </ConsoleSection>
  );
}

function Offers({ person }: { person: Person }) {
  return (
    <ConsoleSection title="Offers and postbacks">
      {person.offers.length === 0 ? (
        <ConsoleEmpty>No offer was credited.</ConsoleEmpty>
      ) : (
        <ConsoleTable
          label="Offer credits and reversals"
          caption="Offer credits and reversals, newest first"
          columns={["When", "Network", "Offer", "Transaction", "Coins", "Amount", "Held until"]}
        >
          {person.offers.map((offer) => (
            <tr key={offer.id} className="align-top">
              <td className={NUMBER}>{formatTimestamp(offer.created_at)}</td>
              <td className={CELL}>{offer.provider}</td>
              <td className={WRAP}>
                {offer.offer_name ?? "—"}
                {offer.kind === "reversal" ? (
                  <span className="block text-xs font-semibold text-red-700">Reversal</span>
                ) : null}
              </td>
              <td className={WRAP}>
                <code>{offer.transaction_id}</code>
              </td>
              <td className={NUMBER}>{formatCoins(offer.coins)}</td>
              <td className={NUMBER}>{formatDollars(offer.amount)}</td>
              <td className={NUMBER}>{offer.available_at ? formatTimestamp(offer.available_at) : "—"}</td>
            </tr>
          ))}
        </ConsoleTable>
      )}
      {person.postbacks.length === 0 ? null : (
        <ConsoleTable
          label="Postbacks that named them"
          caption="Postbacks that named them, newest first"
          columns={["Received", "Network", "Verdict", "Transaction", "Coins"]}
        >
          {person.postbacks.map((entry) => (
            <tr key={entry.id} className="align-top">
              <td className={NUMBER}>{formatTimestamp(entry.received_at)}</td>
              <td className={CELL}>{entry.network}</td>
              <td className={WRAP}>
                {entry.verdict}
                {entry.reason ? <span className="block text-xs text-muted">{entry.reason}</span> : null}
              </td>
              <td className={WRAP}>{entry.transaction_id ? <code>{entry.transaction_id}</code> : "—"}</td>
              <td className={NUMBER}>{entry.coins === null ? "—" : formatCoins(entry.coins)}</td>
            </tr>
          ))}
        </ConsoleTable>
      )}
    </ConsoleSection>
  );
}

function Links({ person }: { person: Person }) {
  const devices = person.signals.find((signal) => signal.kind === "device");
  const networks = person.signals.find((signal) => signal.kind === "address");
  return (
    <ConsoleSection title="Devices and linked accounts">
      <p className="text-sm">
        {devices
          ? `Signed in from ${devices.count} browser${devices.count === 1 ? "" : "s"}, last on ${formatTimestamp(devices.last_seen_at)}.`
          : "No browser recorded."}{" "}
        {networks
          ? `${networks.count} network${networks.count === 1 ? "" : "s"} (a /24 or /64 each).`
          : "No network recorded (the server is not told client addresses without TRUST_PROXY)."}
      </p>
      {person.linked.length === 0 ? (
        <ConsoleEmpty>No other account shares a browser, a network or a payout address with this one.</ConsoleEmpty>
      ) : (
        <ConsoleTable label="Linked accounts" caption="Accounts linked to this one" columns={["Account", "Shares"]}>
          {person.linked.map((linked) => (
            <tr key={`${linked.id}-${linked.via}`} data-testid="linked-account" className="align-top">
              <td className={WRAP}>
                <PersonLink {...linked} />
              </td>
              <td className={CELL}>{linked.via}</td>
            </tr>
          ))}
        </ConsoleTable>
      )}
    </ConsoleSection>
  );
}

function Tickets({ person }: { person: Person }) {
  return (
    <ConsoleSection title="Tickets">
      {person.tickets.length === 0 ? (
        <ConsoleEmpty>No feedback or missing-credit report.</ConsoleEmpty>
      ) : (
        <ConsoleTable
          label="Tickets"
          caption="Feedback and missing-credit reports, newest first"
          columns={["Sent", "Kind", "About", "Status"]}
        >
          {person.tickets.map((ticket) => (
            <tr key={`${ticket.kind}-${ticket.id}`} className="align-top">
              <td className={NUMBER}>{formatTimestamp(ticket.created_at)}</td>
              <td className={CELL}>{ticket.kind === "feedback" ? "Feedback" : "Missing credit"}</td>
              <td className={WRAP}>
                <Link to={ticketPath(ticket.kind, ticket.id)} className={CONSOLE_LINK}>
                  {ticket.subject}
                </Link>
              </td>
              <td className={CELL}>{ticket.status ? TICKET_STATUS_LABELS[ticket.status] : "—"}</td>
            </tr>
          ))}
        </ConsoleTable>
      )}
    </ConsoleSection>
  );
}

function OperatorNotes({ person }: { person: Person }) {
  return (
    <ConsoleSection title="What operators did">
      {person.actions.length === 0 ? (
        <ConsoleEmpty>No operator has acted on this account.</ConsoleEmpty>
      ) : (
        <ConsoleTable
          label="Operator actions on this account"
          caption="Operator actions, newest first"
          columns={["When", "Operator", "Action", "Reason"]}
        >
          {person.actions.map((action) => (
            <tr key={action.id} data-testid="person-action" className="align-top">
              <td className={NUMBER}>{formatTimestamp(action.at)}</td>
              <td className={WRAP}>{action.actor}</td>
              <td className={CELL}>{action.action.replaceAll("_", " ")}</td>
              <td className={WRAP}>{action.reason ?? "—"}</td>
            </tr>
          ))}
        </ConsoleTable>
      )}
    </ConsoleSection>
  );
}

/** A person's page in the console: who they are, their money, and everything the business knows of them. */
export function PersonPage({
  userId,
  person,
  adjustments,
  viewer,
  ledgerType,
  paged,
  lastResult,
}: {
  userId: string;
  person: Person | null;
  adjustments: (AdjustmentLimits & { adjustments: PersonAdjustment[] }) | null;
  viewer: { uid: string; canMoveMoney: boolean; needsPassword: boolean };
  ledgerType: string | null;
  paged: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  if (!person || !adjustments) {
    return (
      <div className="max-w-2xl space-y-4">
        <h1 className="text-2xl font-bold tracking-tight">No such account</h1>
        {/* A form posted for an account that is gone: every word of its reply. */}
        <FormBanner
          errors={lastResult?.error ? Object.values(lastResult.error).flatMap((errors) => errors ?? []) : undefined}
        />
        <p className="text-sm text-muted [overflow-wrap:anywhere]">
          No account has the id “{userId}”. It may have been deleted; its money records stay in the ledger without it.
        </p>
        <Link to="/admin/people" className={`${CONSOLE_LINK} text-sm`}>
          Search for an account
        </Link>
      </div>
    );
  }
  const { profile } = person;
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <Link to="/admin/people" className={`${CONSOLE_LINK} text-sm`}>
          People
        </Link>
        <h1 className="text-2xl font-bold tracking-tight [overflow-wrap:anywhere]">
          {profile.email ?? profile.display_name}
        </h1>
        <Standing profile={profile} />
      </header>
      <Money profile={profile} />
      <PersonActions
        profile={profile}
        adjustments={adjustments.adjustments}
        limits={adjustments}
        viewer={viewer}
        lastResult={lastResult}
      />
      <Identity profile={profile} />
      <Ledger person={person} ledgerType={ledgerType} paged={paged} />
      <Withdrawals person={person} />
      <Referrals person={person} />
      <Offers person={person} />
      <Links person={person} />
      <Tickets person={person} />
      <OperatorNotes person={person} />
    </div>
  );
}
