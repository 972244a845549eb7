import type { SubmissionResult } from "@conform-to/react";
import { ActionField, ActionForm, replyTo } from "~/components/operator/ActionForm";
import { Badge } from "~/components/operator/Badge";
import { FormBanner } from "~/components/forms/FormBanner";
import { ConsoleTable } from "~/components/operator/ConsoleTable";
import { formatDate } from "~/domain/dates";
import { formatDollars } from "~/domain/money";
import type { PromoCodeRow } from "~/domain/promo-codes";

type State = "disabled" | "used up" | "ended" | "scheduled" | "live";

const STATE_TONES = {
  live: "green",
  scheduled: "brand",
  ended: "gray",
  "used up": "gray",
  disabled: "red",
} as const satisfies Record<State, "green" | "brand" | "gray" | "red">;

const NUMBER = new Intl.NumberFormat("en-US");

/**
 * Promo codes (docs/operator-console.md, "Codes"): every code with its terms, uses and what it paid;
 * finance and owners make a code and end one. Every action is audited in SQL.
 */
export function CodesPage({
  codes,
  canMake,
  needsPassword,
  today,
  lastResult,
}: {
  codes: (PromoCodeRow & { state: State })[];
  canMake: boolean;
  needsPassword: boolean;
  today: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const created = replyTo(lastResult, "create-code");
  // Ending a code no longer listed (another operator's change, an old page): its words above the list.
  const ending = replyTo(lastResult, "disable-code");
  const orphan =
    ending && !codes.some((code) => String(code.id) === ending.initialValue?.codeId)
      ? Object.values(ending.error ?? {}).flatMap((errors) => errors ?? [])
      : undefined;
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-bold tracking-tight">Codes</h1>
      <FormBanner errors={orphan} />
      <p className="max-w-3xl text-sm text-muted">
        A code pays its coins as bonus money, once per person (their email&apos;s identity), until its uses run out or
        its last day ends. Bonus money unlocks only as the person&apos;s own offer earnings clear; all codes together
        stop at the monthly cap in Settings. You cannot redeem a code you made.
      </p>
      {codes.length === 0 ? (
        <p className="rounded-2xl border border-line bg-white p-5 text-sm text-muted shadow-sm">No codes yet.</p>
      ) : (
        <ConsoleTable
          label="Promo codes"
          caption="Promo codes, newest first"
          columns={["Code", "State", "Coins", "Uses", "Days (UTC)", "Who", "Paid", ""]}
          minWidth="min-w-[60rem]"
        >
          {codes.map((code) => (
            <tr key={code.id}>
              <td className="px-4 py-3 font-mono font-semibold">{code.code}</td>
              <td className="px-4 py-3">
                <Badge tone={STATE_TONES[code.state]}>{code.state}</Badge>
              </td>
              <td className="px-4 py-3">{NUMBER.format(code.coins)}</td>
              <td className="px-4 py-3">
                {NUMBER.format(code.uses)} of {NUMBER.format(code.max_uses)}
              </td>
              <td className="px-4 py-3">
                {formatDate(code.starts_at)} to {formatDate(new Date(Date.parse(code.ends_at) - 1).toISOString())}
                {code.new_accounts_only ? <span className="block text-xs text-muted">New accounts only</span> : null}
                {code.countries.length > 0 ? (
                  <span className="block text-xs text-muted">Only {code.countries.join(", ")}</span>
                ) : null}
              </td>
              <td className="px-4 py-3">{code.created_by}</td>
              <td className="px-4 py-3">{formatDollars(Number(code.paid))}</td>
              <td className="px-4 py-3">
                {canMake && code.state !== "disabled" && code.state !== "ended" ? (
                  <ActionForm
                    intent="disable-code"
                    title={`End ${code.code}`}
                    button="End code"
                    pendingText="Ending…"
                    tone="danger"
                    needsPassword={needsPassword}
                    lastResult={lastResult}
                    hidden={{ codeId: String(code.id) }}
                  >
                    <ActionField
                      intent="disable-code"
                      name="reason"
                      label="Reason"
                      lastResult={lastResult}
                      match={{ codeId: String(code.id) }}
                    />
                  </ActionForm>
                ) : null}
              </td>
            </tr>
          ))}
        </ConsoleTable>
      )}
      {canMake ? (
        <div className="max-w-2xl">
          <ActionForm
            intent="create-code"
            title="Make a code"
            help="People type it on Earn. Letters are not case-sensitive."
            button="Make code"
            pendingText="Making…"
            needsPassword={needsPassword}
            lastResult={lastResult}
          >
            <div className="grid gap-3 sm:grid-cols-2">
              <ActionField
                intent="create-code"
                name="code"
                label="Code"
                hint="4 to 20 letters and digits"
                lastResult={lastResult}
              />
              <ActionField
                intent="create-code"
                name="coins"
                label="Coins"
                inputMode="numeric"
                lastResult={lastResult}
              />
              <ActionField
                intent="create-code"
                name="uses"
                label="How many people can use it"
                inputMode="numeric"
                lastResult={lastResult}
              />
              <ActionField
                intent="create-code"
                name="countries"
                label="Countries (optional)"
                hint="Two-letter codes, such as IN, US; empty for every country"
                lastResult={lastResult}
              />
              <ActionField
                intent="create-code"
                name="starts"
                label="First day (UTC)"
                hint={`YYYY-MM-DD, such as ${today}`}
                lastResult={lastResult}
              />
              <ActionField
                intent="create-code"
                name="ends"
                label="Last day (UTC)"
                hint="YYYY-MM-DD; the code ends at the next midnight"
                lastResult={lastResult}
              />
            </div>
            <label className="flex min-h-11 items-center gap-2.5 text-sm">
              <input
                type="checkbox"
                name="newAccountsOnly"
                defaultChecked={created?.initialValue?.newAccountsOnly === "on"}
                className="size-5 rounded border-line text-brand-600 focus:ring-brand-200"
              />
              Only accounts made after the code
            </label>
            <ActionField intent="create-code" name="reason" label="Reason" multiline lastResult={lastResult} />
          </ActionForm>
        </div>
      ) : (
        <p className="text-sm text-muted">Finance and owners make and end codes.</p>
      )}
    </div>
  );
}
