import { stateBadge, stateTone, type MoneyState } from "~/domain/money-timeline";
import { useTimeZone } from "~/lib/time-zone";

const TONE_STYLES = {
  green: "bg-emerald-50 text-emerald-700",
  amber: "bg-amber-50 text-amber-800",
  red: "bg-red-50 text-red-700",
  grey: "bg-gray-100 text-gray-700",
} as const;

/**
 * Where an amount's money is, as a badge: one state a row, in the money timeline's words
 * (docs/decisions/080). `fallback` names a state the timeline does not know, in grey.
 */
export function MoneyStateBadge({ state, fallback = null }: { state: MoneyState | null; fallback?: string | null }) {
  const zone = useTimeZone();
  const words = state ? stateBadge(state, zone) : fallback;
  if (!words) return null;
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${TONE_STYLES[state ? stateTone(state) : "grey"]}`}
      data-testid="money-state"
    >
      {words}
    </span>
  );
}
