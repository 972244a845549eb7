import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { FormBanner } from "~/components/forms/FormBanner";
import { ActionField, ActionForm, replyTo } from "~/components/operator/ActionForm";
import { Badge } from "~/components/operator/Badge";
import { ConsoleTable } from "~/components/operator/ConsoleTable";
import { CONSOLE_LINK } from "~/components/operator/console-link";
import { ReviewReasons } from "~/components/operator/ReviewReasons";
import { formatDate } from "~/domain/dates";
import { ordinal } from "~/domain/loop-settings";
import { formatDollars } from "~/domain/money";
import { formatNumber } from "~/domain/numbers";
import { monthName, NOT_PAID_WORDS, type PrizeAwardRow, type PrizeMonthRow } from "~/domain/prizes";

const STATES = {
  paid: { tone: "green", label: "Paid" },
  held: { tone: "amber", label: "Waiting for a decision" },
  refused: { tone: "red", label: "Refused" },
  not_paid: { tone: "gray", label: "Not paid" },
} as const satisfies Record<PrizeAwardRow["status"], { tone: "green" | "amber" | "red" | "gray"; label: string }>;

const OUTCOMES: Readonly<Record<PrizeMonthRow["outcome"], string>> = {
  closed: "Settled",
  off: "Prizes were off when it ended: nothing paid",
  before_prizes: "Before prizes began: nothing paid",
};

/**
 * Prizes (docs/operator-console.md, "Prizes"): each settled month's places, who won with how much
 * cleared, and what became of each prize; finance and owners pay or refuse a prize the risk score
 * held. Every decision is audited in SQL; nobody decides their own.
 */
export function PrizesPage({
  months,
  canDecide,
  needsPassword,
  operatorId,
  lastResult,
}: {
  months: PrizeMonthRow[];
  canDecide: boolean;
  needsPassword: boolean;
  operatorId: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const held = months.flatMap((month) =>
    month.awards.filter((award) => award.status === "held").map((award) => ({ month: month.month, award })),
  );
  // A decision on a prize no longer shown with its forms (decided meanwhile, the operator's own, a
  // role that cannot decide): its words above the list.
  const decision = replyTo(lastResult, "pay-prize") ?? replyTo(lastResult, "refuse-prize");
  const shown =
    canDecide &&
    held.some(
      ({ month, award }) =>
        award.user_id !== operatorId &&
        month === decision?.initialValue?.month &&
        String(award.place) === decision?.initialValue?.place,
    );
  const orphan = decision && !shown ? Object.values(decision.error ?? {}).flatMap((errors) => errors ?? []) : undefined;
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-bold tracking-tight">Prizes</h1>
      <FormBanner errors={orphan} />
      <p className="max-w-3xl text-sm text-muted">
        When a month ends (UTC), its prize table (Settings) is paid as bonus money to the top places by offer money that
        cleared in the month, once, whichever server gets there first. A winner whose risk score reaches the review
        threshold waits here; the rest are paid at once, up to the month&apos;s cap for prizes.
      </p>
      {held.length > 0 ? (
        <section className="space-y-3" aria-label="Waiting for a decision">
          <h2 className="text-lg font-bold">Waiting for a decision</h2>
          {held.map(({ month, award }) => {
            const hidden = { month, place: String(award.place) };
            const own = award.user_id === operatorId;
            return (
              <div key={`${month}-${award.place}`} className="grid max-w-5xl gap-3 lg:grid-cols-[1fr_1fr]">
                <div className="rounded-2xl border border-line bg-white p-5 text-sm shadow-sm">
                  <p className="font-semibold">
                    {monthName(month)}, {ordinal(award.place)} place: {formatNumber(award.coins)} coins
                  </p>
                  <p className="mt-1 text-muted">
                    <Winner award={award} /> · {formatDollars(award.cleared)} cleared
                  </p>
                  <div className="mt-3">
                    <ReviewReasons score={award.risk_score} reasons={award.risk_reasons} />
                  </div>
                </div>
                {!canDecide ? (
                  <p className="text-sm text-muted">Finance and owners decide held prizes.</p>
                ) : own ? (
                  <p className="text-sm text-muted">This prize is yours: another operator decides it.</p>
                ) : (
                  <div className="grid gap-3 sm:grid-cols-2">
                    <ActionForm
                      intent="pay-prize"
                      title="Pay this prize"
                      button="Pay prize"
                      pendingText="Paying…"
                      needsPassword={needsPassword}
                      lastResult={lastResult}
                      hidden={hidden}
                    >
                      <ActionField
                        intent="pay-prize"
                        name="reason"
                        label="Reason"
                        match={hidden}
                        lastResult={lastResult}
                      />
                    </ActionForm>
                    <ActionForm
                      intent="refuse-prize"
                      title="Refuse this prize"
                      button="Refuse prize"
                      pendingText="Refusing…"
                      tone="danger"
                      needsPassword={needsPassword}
                      lastResult={lastResult}
                      hidden={hidden}
                    >
                      <ActionField
                        intent="refuse-prize"
                        name="reason"
                        label="Reason"
                        match={hidden}
                        lastResult={lastResult}
                      />
                    </ActionForm>
                  </div>
                )}
              </div>
            );
          })}
        </section>
      ) : null}
      {months.length === 0 ? (
        <p className="rounded-2xl border border-line bg-white p-5 text-sm text-muted shadow-sm">
          No month has ended since prizes began.
        </p>
      ) : (
        months.map((month) => (
          <section key={month.month} className="space-y-2" aria-label={monthName(month.month)}>
            <h2 className="text-lg font-bold">
              {monthName(month.month)}{" "}
              <span className="text-sm font-normal text-muted">
                {OUTCOMES[month.outcome]}, {formatDate(month.closed_at)}
              </span>
            </h2>
            {month.awards.length === 0 ? (
              month.outcome === "closed" ? (
                <p className="text-sm text-muted">Nobody had offer money clear that month.</p>
              ) : null
            ) : (
              <ConsoleTable
                label={`Prizes of ${monthName(month.month)}`}
                caption={`Prizes of ${monthName(month.month)}, by place`}
                columns={["Place", "Winner", "Cleared", "Prize", "State"]}
                minWidth="min-w-[44rem]"
              >
                {month.awards.map((award) => (
                  <tr key={award.place}>
                    <td className="px-4 py-3 font-semibold">{ordinal(award.place)}</td>
                    <td className="px-4 py-3">
                      <Winner award={award} />
                    </td>
                    <td className="px-4 py-3 tabular-nums">{formatDollars(award.cleared)}</td>
                    <td className="px-4 py-3 tabular-nums">{formatNumber(award.coins)} coins</td>
                    <td className="px-4 py-3">
                      <Badge tone={STATES[award.status].tone}>{STATES[award.status].label}</Badge>
                      {award.status === "not_paid" && award.refused ? (
                        <span className="block text-xs text-muted">
                          {NOT_PAID_WORDS[award.refused] ?? award.refused}
                        </span>
                      ) : null}
                      {award.decided_by ? (
                        <span className="block text-xs text-muted">by {award.decided_by}</span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </ConsoleTable>
            )}
          </section>
        ))
      )}
    </div>
  );
}

function Winner({ award }: { award: PrizeAwardRow }) {
  return award.user_id ? (
    <Link to={`/admin/people/${encodeURIComponent(award.user_id)}`} className={CONSOLE_LINK}>
      {award.username}
    </Link>
  ) : (
    <span>{award.username} (deleted)</span>
  );
}
