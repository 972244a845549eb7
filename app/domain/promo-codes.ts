// Promo codes in the operator console (docs/decisions/095): what a code is, and how its terms are
// typed and checked before the database checks them again (operator_create_promo_code).

/** A code as operator_promo_codes lists it. */
export interface PromoCodeRow {
  id: number;
  code: string;
  coins: number;
  max_uses: number;
  uses: number;
  starts_at: string;
  ends_at: string;
  new_accounts_only: boolean;
  countries: string[];
  created_by: string;
  created_at: string;
  disabled_at: string | null;
  /** Dollars it paid so far. */
  paid: number;
}

export const PROMO_CODE_MESSAGES = {
  code: "A code is 4 to 20 letters and digits, such as WELCOME25",
  coins: "Enter whole coins from 1 to 100,000",
  uses: "Enter how many times it can be used, from 1 to 1,000,000",
  date: "Enter a date as YYYY-MM-DD",
  ends: "The last day must be on or after the first, and not in the past",
  countries: "List countries as two-letter codes separated by commas, such as IN, US (at most 50), or leave it empty",
  reason: "Write the reason (it is kept in the audit log).",
  reasonTooLong: "The reason can be at most 500 characters.",
  codeNotFound: "That code no longer exists",
  failed: "That could not be done. Please try again.",
} as const;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-12-01" as the start of that UTC day, or null when it is no real date. */
export function parseDay(value: string): Date | null {
  const match = DAY.exec(value.trim());
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value.trim() ? date : null;
}

/** "in, US ,gb" as ["IN", "US", "GB"]; null when one is not two letters, or one is twice, or more than 50. */
export function parseCountries(value: string): string[] | null {
  const list = value
    .split(",")
    .map((country) => country.trim().toUpperCase())
    .filter((country) => country !== "");
  if (list.length > 50 || new Set(list).size !== list.length) return null;
  return list.every((country) => /^[A-Z]{2}$/.test(country)) ? list : null;
}

/** Whole numbers as typed: "1,000" or "1000"; null when not one within the bounds. */
export function parseWhole(value: string, min: number, max: number): number | null {
  const text = value.trim().replaceAll(",", "");
  if (!/^\d{1,9}$/.test(text)) return null;
  const number = Number(text);
  return number >= min && number <= max ? number : null;
}
