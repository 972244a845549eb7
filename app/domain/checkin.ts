import { literal, object } from "zod/mini";

/** Home's check-in form: one button. */
export const checkinFormSchema = object({ intent: literal("checkin") });

const HOUR_MS = 60 * 60 * 1000;

/**
 * The check-in day is the UTC calendar date (the server's clock, so a phone's clock cannot
 * game it). How long until the next one opens, as the card says it: "5 h", or "25 min" in
 * the last hour.
 */
export function timeUntilNextCheckin(now: Date): string {
  const nextUtcMidnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const left = nextUtcMidnight - now.getTime();
  if (left >= HOUR_MS) return `${Math.floor(left / HOUR_MS)} h`;
  return `${Math.max(1, Math.ceil(left / 60_000))} min`;
}
