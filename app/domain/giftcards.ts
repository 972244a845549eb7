// Gift cards through Tremendous (issue 37, docs/decisions/089): the cards offered, what amounts
// each takes, and which country's cards a person sees first. Client-safe.
import { formatDollars } from "./money";
import { formatRupees } from "./rupees";

/** The money a card can be sold in here: the app prices dollars, and rupees at its rate. */
export type GiftCardCurrency = "USD" | "INR";

/** A card as giftcard_catalogue lists it: its amounts (SKUs) in its own money. */
export interface GiftCard {
  id: string;
  name: string;
  currency: GiftCardCurrency;
  skus: { min: number | string; max: number | string }[];
  min_value: number | string;
  image_url: string | null;
}

/** "$25.00", "₹500.00": an amount in a card's own money. */
export function formatCardValue(currency: GiftCardCurrency, amount: number | string): string {
  return currency === "INR" ? formatRupees(Number(amount)) : formatDollars(Number(amount));
}

/** "$5.00 to $500.00", "₹500.00 or ₹1,000.00": the amounts a card takes (giftcard_amounts_text in SQL). */
export function cardAmounts(card: Pick<GiftCard, "currency" | "skus">): string {
  return [...card.skus]
    .sort((a, b) => Number(a.min) - Number(b.min))
    .map(({ min, max }) =>
      Number(min) === Number(max)
        ? formatCardValue(card.currency, min)
        : `${formatCardValue(card.currency, min)} to ${formatCardValue(card.currency, max)}`,
    )
    .join(" or ");
}

/** The countries whose cards can be offered, by name (TREMENDOUS_COUNTRIES names which are). */
export const COUNTRY_NAMES: Record<string, string> = {
  US: "United States",
  IN: "India",
  GB: "United Kingdom",
  CA: "Canada",
  AU: "Australia",
  DE: "Germany",
  FR: "France",
};

export function countryName(code: string): string {
  return COUNTRY_NAMES[code] ?? code;
}

/**
 * The country whose cards a person sees first: India for the Indian time zone, else the first one
 * offered (the app stores no country; the person can switch on the form).
 */
export function defaultCountry(zone: string | null | undefined, offered: readonly string[]): string {
  const guess = zone === "Asia/Kolkata" || zone === "Asia/Calcutta" ? "IN" : null;
  return guess && offered.includes(guess) ? guess : (offered[0] ?? "US");
}
