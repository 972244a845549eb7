import type { SubmissionResult } from "@conform-to/react";
import { ActionForm } from "~/components/operator/ActionForm";
import { formatTimestamp } from "~/domain/dates";
import {
  formatSettingValue,
  isSettingKey,
  settingOf,
  type SettingValue,
  type WaitingSettingChange,
} from "~/domain/settings";
import { APPROVE_CHANGE_INTENT, WITHDRAW_CHANGE_INTENT } from "./settings-form";

/**
 * Changes that loosen policy, waiting for a second owner (docs/operator-console.md, "Settings"):
 * what each would change, who asked and why; Approve for another owner (or, alone, for the one who
 * asked once the wait is over), Withdraw for any owner.
 */
export function WaitingChanges({
  waiting,
  canDecide,
  viewerId,
  needsPassword,
  coinsPerDollar,
  now,
  lastResult,
}: {
  waiting: readonly WaitingSettingChange[];
  canDecide: boolean;
  viewerId: string;
  needsPassword: boolean;
  coinsPerDollar: number;
  now: Date;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  if (waiting.length === 0) return null;
  return (
    <section aria-labelledby="settings-waiting" className="space-y-3" data-testid="waiting-changes">
      <h2 id="settings-waiting" className="text-lg font-bold tracking-tight">
        Waiting for a second owner
      </h2>
      <ul className="space-y-4">
        {waiting.map((change) => {
          const own = change.requested_by_user_id === viewerId;
          const due = change.apply_after !== null && new Date(change.apply_after) <= now;
          return (
            <li
              key={change.id}
              className="space-y-3 rounded-2xl border border-amber-200 bg-amber-50 p-5"
              data-testid="waiting-change"
            >
              <ul className="space-y-1 text-sm">
                {Object.entries(change.settings).map(([key, value]) => (
                  <li key={key} className="[overflow-wrap:anywhere]">
                    <span className="font-semibold">{isSettingKey(key) ? settingOf(key).label : key}</span>
                    {": "}
                    {shown(key, change.before[key as keyof typeof change.before], coinsPerDollar)} →{" "}
                    <span className="font-semibold">{shown(key, value as SettingValue, coinsPerDollar)}</span>
                  </li>
                ))}
              </ul>
              <p className="text-xs text-muted [overflow-wrap:anywhere]">
                {`Asked by ${change.requested_by} on ${formatTimestamp(change.requested_at)}: ${change.reason}`}
              </p>
              <p className="text-xs font-semibold text-amber-900">
                {change.apply_after === null
                  ? "Another owner approves it before it applies."
                  : due
                    ? "The only owner's wait is over: it can be applied now."
                    : `The only owner can apply it after ${formatTimestamp(change.apply_after)}.`}
              </p>
              {canDecide ? (
                <div className="grid gap-3 sm:grid-cols-2">
                  {!own || due ? (
                    <ActionForm
                      intent={APPROVE_CHANGE_INTENT}
                      title="Approve"
                      help="Applies it now, in the words above."
                      button="Approve and apply"
                      pendingText="Applying…"
                      needsPassword={needsPassword}
                      lastResult={lastResult}
                      hidden={{ change: String(change.id) }}
                    />
                  ) : null}
                  <ActionForm
                    intent={WITHDRAW_CHANGE_INTENT}
                    title="Withdraw"
                    help="Drops it; nothing changes."
                    button="Withdraw"
                    pendingText="Withdrawing…"
                    tone="secondary"
                    needsPassword={needsPassword}
                    lastResult={lastResult}
                    hidden={{ change: String(change.id) }}
                  />
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function shown(key: string, value: SettingValue | undefined, coinsPerDollar: number): string {
  if (value === undefined) return "—";
  return isSettingKey(key) ? formatSettingValue(settingOf(key), value, coinsPerDollar) : JSON.stringify(value);
}
