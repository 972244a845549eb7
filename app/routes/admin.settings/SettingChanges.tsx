import { ConsoleEmpty, ConsolePager, ConsoleTable } from "~/components/operator/ConsoleTable";
import { formatTimestamp } from "~/domain/dates";
import { formatSettingValue, isSettingKey, settingOf, type SettingChange, type SettingValue } from "~/domain/settings";

/** A value in words; a column the console no longer lists, as stored. */
function valueText(setting: string, value: SettingValue): string {
  return isSettingKey(setting) ? formatSettingValue(settingOf(setting), value) : JSON.stringify(value);
}

/** The audit of setting changes, newest first, paged by URL (`?before=<id>`). */
export function SettingChanges({
  changes,
  olderBefore,
  paged,
}: {
  changes: readonly SettingChange[];
  olderBefore: number | null;
  paged: boolean;
}) {
  return (
    <div className="space-y-3">
      {changes.length === 0 ? (
        <ConsoleEmpty>{paged ? "No older changes." : "No setting has been changed in the console yet."}</ConsoleEmpty>
      ) : (
        <ConsoleTable
          label="Setting changes"
          caption="Changes of settings, newest first"
          columns={["When", "Operator", "Setting", "Before → after", "Reason"]}
          minWidth="min-w-[56rem]"
        >
          {changes.map((change) => (
            <tr key={change.id} data-testid="setting-change" className="align-top">
              <td className="px-4 py-3 whitespace-nowrap tabular-nums">{formatTimestamp(change.at)}</td>
              <td className="px-4 py-3 [overflow-wrap:anywhere]">
                {change.actor}
                {change.actor_user_id ? <span className="block text-xs text-muted">{change.actor_user_id}</span> : null}
              </td>
              <td className="min-w-[15rem] px-4 py-3">
                <span className="font-medium">
                  {isSettingKey(change.setting) ? settingOf(change.setting).label : change.setting}
                </span>
                <span className="block font-mono text-xs text-muted [overflow-wrap:anywhere]">{change.setting}</span>
              </td>
              <td className="min-w-[11rem] px-4 py-3 [overflow-wrap:anywhere]">
                {`${valueText(change.setting, change.before)} → ${valueText(change.setting, change.after)}`}
              </td>
              <td className="px-4 py-3 [overflow-wrap:anywhere]">{change.reason ?? "—"}</td>
            </tr>
          ))}
        </ConsoleTable>
      )}
      <ConsolePager
        label="Setting changes pages"
        newest={paged ? { to: "/admin/settings", label: "Newest changes" } : null}
        older={olderBefore !== null ? { to: `/admin/settings?before=${olderBefore}`, label: "Older changes" } : null}
      />
    </div>
  );
}
