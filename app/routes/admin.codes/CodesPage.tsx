import type { SubmissionResult } from "@conform-to/react";
import { ActionField, ActionForm, replyTo } from "~/components/operator/ActionForm";
import { Badge } from "~/components/operator/Badge";
import { FormBanner } from "~/components/forms/FormBanner";
import { ConsoleTable } from "~/components/operator/ConsoleTable";
import { formatDate } from "~/domain/dates";
import { formatDollars } from "~/domain/money";
import { formatNumber } from "~/domain/numbers";
import type { PromoCodeRow } from "~/domain/promo-codes";

type State = "disabled" | "used up" | "ended" | "scheduled" | "live";

const STATE_TONES = {
  live: "green",
  scheduled: "brand",
  ended: "gray",
  "used up": "gray",
  disabled: "red",
} as const satisfies Record<State, "green" | "brand" | "gray" | "red">;

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
  const ending = replyTo(lastResult, "disable-code");
  const endable = codes.filter((code) => code.state === "live" || code.state === "scheduled");
  // A code no longer listed as live (another operator's change, an old page): its words above the list.
  const orphan =
    ending && !endable.some((code) => String(code.id) === ending.initialValue?.codeId)
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
          columns={["Code", "State", "Coins", "Uses", "Days (UTC)", "Made by", "Paid"]}
          minWidth="min-w-[56rem]"
        >
          {codes.map((code) => (
            <tr key={code.id}>
              <td className="px-4 py-3 font-mono font-semibold">{code.code}</td>
              <td className="px-4 py-3">
                <Badge tone={STATE_TONES[code.state]}>{code.state}</Badge>
              </td>
              <td className="px-4 py-3">{formatNumber(code.coins)}</td>
              <td className="px-4 py-3">
                {formatNumber(code.uses)} of {formatNumber(code.max_uses)}
              </td>
              <td className="px-4 py-3">
                <span className="whitespace-nowrap">{formatDate(code.starts_at)} to</span>{" "}
                <span className="whitespace-nowrap">
                  {formatDate(new Date(Date.parse(code.ends_at) - 1).toISOString())}
                </span>
                {code.new_accounts_only ? <span className="block text-xs text-muted">New accounts only</span> : null}
                {code.countries.length > 0 ? (
                  <span className="block text-xs text-muted">Only {code.countries.join(", ")}</span>
                ) : null}
              </td>
              <td className="px-4 py-3">{code.created_by}</td>
              <td className="px-4 py-3">{formatDollars(Number(code.paid))}</td>
            </tr>
          ))}
        </ConsoleTable>
      )}
      {canMake && endable.length > 0 ? (
        <div className="max-w-2xl">
          <ActionForm
            intent="disable-code"
            title="End a code"
            help="It is refused from then on; what it paid stays paid."
            button="End code"
            pendingText="Ending…"
            tone="danger"
            needsPassword={needsPassword}
            lastResult={lastResult}
          >
            <div>
              <label htmlFor="disable-code-codeId" className="mb-1 block text-sm font-medium">
                Code
              </label>
              <select
                id="disable-code-codeId"
                name="codeId"
                defaultValue={ending?.initialValue?.codeId as string | undefined}
                className="block h-11 w-full rounded-xl border border-line bg-white px-3 text-base focus:border-brand-500 focus:ring-4 focus:ring-brand-100 focus:outline-none"
              >
                {endable.map((code) => (
                  <option key={code.id} value={String(code.id)}>
                    {code.code} ({code.state}, {formatNumber(code.uses)} of {formatNumber(code.max_uses)} used)
                  </option>
                ))}
              </select>
            </div>
            <ActionField intent="disable-code" name="reason" label="Reason" lastResult={lastResult} />
          </ActionForm>
        </div>
      ) : null}
      {canMake ? (
        <div className="max-w-2xl" key={codes.length}>
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
