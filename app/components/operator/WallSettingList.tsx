import { SOURCE_LABELS, type SettingSource, type WallSettingRow } from "~/domain/operator-walls";

const SOURCE_TONES: Record<SettingSource, string> = {
  console: "bg-brand-50 text-brand-700 ring-brand-200",
  environment: "bg-gray-50 text-muted ring-line",
  default: "bg-white text-muted ring-line",
};

/** Where a wall's setting comes from: the console's value, the environment's, or the default. */
function Source({ source }: { source: SettingSource }) {
  return (
    <span className={`ml-2 inline-block rounded-md px-1.5 text-xs font-medium ring-1 ${SOURCE_TONES[source]}`}>
      {SOURCE_LABELS[source]}
    </span>
  );
}

/**
 * A wall's settings in the operator console (the list of walls, a wall's page): each value, where it
 * comes from and, with `variables`, the environment variable it stands for. A secret's value is only
 * ever its mask. Label above value on a phone, beside it from `sm`.
 */
export function WallSettingList({ rows, variables = false }: { rows: readonly WallSettingRow[]; variables?: boolean }) {
  return (
    <dl className="divide-y divide-line text-sm">
      {rows.map((row) => (
        <div
          key={row.variable}
          data-testid="wall-setting"
          className="grid gap-0.5 py-2 sm:grid-cols-[9rem_minmax(0,1fr)] sm:gap-4"
        >
          <dt className="text-muted">{row.label}</dt>
          <dd className="min-w-0">
            <span className={`[overflow-wrap:anywhere] ${row.secret && row.value !== "Not set" ? "font-mono" : ""}`}>
              {row.value}
            </span>
            <Source source={row.source} />
            {variables ? (
              <span className="block font-mono text-xs text-muted [overflow-wrap:anywhere]">{row.variable}</span>
            ) : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
