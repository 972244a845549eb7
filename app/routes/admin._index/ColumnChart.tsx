import { ConsoleTable } from "~/components/operator/ConsoleTable";
import { axisValues, columnTotals, niceCeiling, stackedColumns } from "~/domain/chart-geometry";
import { formatDay } from "~/domain/dates";

/** One series of a chart: what it is called, its colour (a fill class) and one whole number per day. */
export interface ChartSeries {
  label: string;
  fill: string;
  /** The legend's swatch (a background class of the same colour). */
  swatch: string;
  values: readonly number[];
}

// The viewBox: 10 units a day wide, 100 high; the SVG stretches to its box (preserveAspectRatio none),
// so it holds only shapes, and every word is HTML beside it.
const SLOT = 10;
const HEIGHT = 100;

/**
 * Columns per day (stacked when there are several series), drawn by the server as SVG: it shows
 * without JavaScript. The SVG is an image named by `summary`; every figure is in the table under it.
 */
export function ColumnChart({
  id,
  title,
  summary,
  days,
  series,
  format,
  minimumTop = 1,
}: {
  id: string;
  title: string;
  /** What the chart shows, in words: the image's text alternative. */
  summary: string;
  /** The days (YYYY-MM-DD), oldest first. */
  days: readonly string[];
  series: readonly ChartSeries[];
  /** Writes a value (and an axis label) out; values are whole numbers (people, or cents). */
  format: (value: number) => string;
  /** The axis's top when every value is smaller (an empty chart of money reads $0 to $1, not to 1 cent). */
  minimumTop?: number;
}) {
  const totals = columnTotals(series.map((one) => one.values));
  const max = niceCeiling(Math.max(minimumTop, ...totals));
  const width = Math.max(1, days.length) * SLOT;
  const columns = stackedColumns(
    series.map((one) => one.values),
    { width, height: HEIGHT, max },
  );
  const ticks = axisValues(max);
  const middle = days[Math.floor((days.length - 1) / 2)];
  return (
    <figure
      className="min-w-0 rounded-2xl border border-line bg-white p-4 shadow-sm sm:p-5"
      data-testid={`chart-${id}`}
    >
      <figcaption className="text-base font-bold">{title}</figcaption>
      {series.length > 1 ? (
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted" aria-label="Colours">
          {series.map((one) => (
            <li key={one.label} className="flex items-center gap-1.5">
              <span aria-hidden="true" className={`size-2.5 rounded-sm ${one.swatch}`} />
              {one.label}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-4 flex gap-2">
        {/* The labels' line boxes (1rem) are centred on the gridlines: the column reaches half a line past the chart. */}
        <div
          aria-hidden="true"
          className="-my-2 flex h-44 w-14 shrink-0 flex-col justify-between text-right text-xs leading-4 text-muted tabular-nums"
        >
          {ticks.map((tick) => (
            <span key={tick} className="whitespace-nowrap">
              {format(tick)}
            </span>
          ))}
        </div>
        <div className="min-w-0 flex-1">
          <svg
            role="img"
            aria-label={summary}
            viewBox={`0 0 ${width} ${HEIGHT}`}
            preserveAspectRatio="none"
            className="block h-40 w-full"
          >
            {ticks.map((tick) => (
              <line
                key={tick}
                x1={0}
                x2={width}
                y1={HEIGHT - (tick / max) * HEIGHT}
                y2={HEIGHT - (tick / max) * HEIGHT}
                className="stroke-gray-200"
                vectorEffect="non-scaling-stroke"
              />
            ))}
            {series.map((one, index) =>
              columns[index]!.map((rect, day) =>
                rect.height > 0 ? (
                  <rect key={`${one.label}-${days[day]}`} {...rect} className={one.fill}>
                    <title>{`${formatDay(days[day]!)}: ${format(one.values[day] ?? 0)}${series.length > 1 ? ` ${one.label.toLowerCase()}` : ""}`}</title>
                  </rect>
                ) : null,
              ),
            )}
          </svg>
          {days.length > 0 ? (
            <div aria-hidden="true" className="mt-1 flex justify-between text-xs text-muted">
              <span>{formatDay(days[0]!)}</span>
              {middle && days.length > 2 ? <span>{formatDay(middle)}</span> : null}
              <span>{formatDay(days.at(-1)!)}</span>
            </div>
          ) : null}
        </div>
      </div>
      <details className="mt-3 text-sm">
        <summary className="inline-flex min-h-11 cursor-pointer items-center font-medium text-brand-700">
          Day by day<span className="sr-only">: {title}</span>
        </summary>
        <div className="mt-2">
          <ConsoleTable
            label={`${title}, day by day`}
            caption={`${title}, day by day, oldest first`}
            columns={["Day", ...series.map((one) => one.label), ...(series.length > 1 ? ["Total"] : [])]}
            minWidth={series.length > 2 ? "min-w-[40rem]" : "min-w-0"}
          >
            {days.map((day, index) => (
              <tr key={day}>
                <td className="px-4 py-2 whitespace-nowrap">{formatDay(day)}</td>
                {series.map((one) => (
                  <td key={one.label} className="px-4 py-2 tabular-nums">
                    {format(one.values[index] ?? 0)}
                  </td>
                ))}
                {series.length > 1 ? (
                  <td className="px-4 py-2 font-semibold tabular-nums">{format(totals[index] ?? 0)}</td>
                ) : null}
              </tr>
            ))}
          </ConsoleTable>
        </div>
      </details>
    </figure>
  );
}
