// The geometry of the console's charts (docs/operator-console.md, "Dashboard"): pure arithmetic, so
// that the server draws them as SVG (they show without JavaScript) and unit tests can check them.

/** A rectangle in a chart's viewBox units (y grows downwards, as in SVG). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const STEPS = [1, 2, 2.5, 5, 10];

/**
 * The top of a chart's axis: the smallest 1, 2, 2.5 or 5 times a power of ten that is at least
 * `value` (so the axis reads in round numbers); 1 when there is nothing to show.
 */
export function niceCeiling(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  // A hair of tolerance: 0.3 / 0.1 is 2.9999999999999996 in floating point.
  const step = STEPS.find((candidate) => candidate * power >= value * (1 - 1e-12)) ?? 10;
  return step * power;
}

/** The axis labels, top to bottom: the top, its half when that is a whole number (or `fractional`), and 0. */
export function axisValues(max: number, { fractional = false } = {}): number[] {
  const half = max / 2;
  return fractional || Number.isInteger(half) ? [max, half, 0] : [max, 0];
}

/** What each index's columns add up to. */
export function columnTotals(series: readonly (readonly number[])[]): number[] {
  const length = Math.max(0, ...series.map((values) => values.length));
  return Array.from({ length }, (_, index) => series.reduce((sum, values) => sum + Math.max(0, values[index] ?? 0), 0));
}

/**
 * One column per index, its series stacked bottom-up in the order given, in a `width` × `height`
 * viewBox whose top is `max`. Each slot is `width / count` wide; the column leaves `gap` (a fraction
 * of the slot) free, half on each side. Below-zero values count as zero; a column over `max` is cut
 * at the top. The result is per series, per index (zero-height rectangles included).
 */
export function stackedColumns(
  series: readonly (readonly number[])[],
  { width, height, max, gap = 0.25 }: { width: number; height: number; max: number; gap?: number },
): Rect[][] {
  const count = Math.max(0, ...series.map((values) => values.length));
  const slot = count > 0 ? width / count : width;
  const bases = new Array<number>(count).fill(0);
  return series.map((values) =>
    Array.from({ length: count }, (_, index) => {
      const below = bases[index]!;
      const top = Math.min(max, below + Math.max(0, values[index] ?? 0));
      bases[index] = top;
      const y = height - (top / max) * height;
      return {
        x: index * slot + (slot * gap) / 2,
        y,
        width: slot * (1 - gap),
        height: ((top - below) / max) * height,
      };
    }),
  );
}

/** A bar's length as a percentage of the longest (0 to 100): the share bars beside a table's rows. */
export function sharePercent(value: number, max: number): number {
  if (!(max > 0) || !(value > 0)) return 0;
  return Math.min(100, (value / max) * 100);
}
