// Rupees for UPI users (issue 37, docs/decisions/087): a UPI cash-out is paid in rupees, at the
// rate an owner set (or the rates endpoint reported), fixed when it is asked for. Client-safe.

import { groupDigits, onFirstUse } from "./numbers";

/** Rupees per US dollar and when that rate was set (get_app_config's `inr_rate`; null: none in force). */
export interface InrRate {
  rate: number;
  set_at: string;
}

/** A rate older than this is not used (usd_inr_rate_now in the database says the same). */
export const INR_RATE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

const RUPEES = onFirstUse(
  () =>
    new Intl.NumberFormat("en-IN", {
      style: "currency",
      currency: "INR",
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }),
);

/**
 * Dollars as rupees at `rate`, to the paisa, half up: exactly what create_withdrawal stores
 * (`round(amount * rate, 2)` on numerics). Worked in whole cents and ten-thousandths of a rupee, so
 * 4.90 × 83.25 is ₹407.93, as in the database, not the ₹407.92 of floating point.
 */
export function dollarsToRupees(dollars: number, rate: number): number {
  const product = Math.round(Math.abs(dollars) * 100) * Math.round(rate * 10_000);
  return (Math.sign(dollars) * Math.floor((product + 5_000) / 10_000)) / 100;
}

const WHOLE_PAISE = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * "₹41,520.00", "₹12,34,567.00": Indian grouping (the last three digits, then pairs), two decimals.
 * An amount in whole paise (every amount the app stores) is written out directly, as Intl's en-IN
 * format writes it, with no Intl object (docs/decisions/104); anything finer is left to Intl's rounding.
 */
export function formatRupees(amount: number): string {
  const match = Number.isFinite(amount) ? WHOLE_PAISE.exec(String(Math.abs(amount))) : null;
  if (!match) return RUPEES().format(amount);
  const digits = match[1]!;
  const grouped = digits.length <= 3 ? digits : `${groupDigits(digits.slice(0, -3), 2)},${digits.slice(-3)}`;
  return `${amount < 0 || Object.is(amount, -0) ? "-" : ""}₹${grouped}.${(match[2] ?? "").padEnd(2, "0")}`;
}

/** "≈ ₹415.20": what a dollar amount comes to in rupees. */
export function approximateRupees(dollars: number, rate: number): string {
  return `≈ ${formatRupees(dollarsToRupees(dollars, rate))}`;
}

/** "$1 = ₹83.25": the rate in force, never broken across lines (no-break spaces). */
export function rateLine(rate: number): string {
  return `$1\u00a0=\u00a0${formatRupees(rate).replace(/\.00$/, "")}`;
}
