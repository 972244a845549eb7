import type { ConversationMessage, TicketStatus } from "./support";
// "My offers" (docs/offer-walls.md): what each offer credit is now, in words a person reads.
// Client-safe: the page and its tests share it.

/** One offer credit, as get_offer_credits gives it. */
export interface OfferCredit {
  network: string;
  transaction_id: string;
  offer_name: string | null;
  coins: number;
  credited_at: string;
  available_at: string | null;
  reversed_at: string | null;
  /** A test postback from the console: test coins, in no balance, never withdrawable. */
  test: boolean;
}

/**
 * Reversed when the network took it back; pending while it is held (the network can still take it
 * back, and it cannot be withdrawn yet); available once the hold is over.
 */
export type OfferCreditStatus =
  { kind: "reversed" } | { kind: "pending"; until: string } | { kind: "available" } | { kind: "test" };

export function offerCreditStatus(credit: OfferCredit, now: Date): OfferCreditStatus {
  if (credit.test) return { kind: "test" };
  if (credit.reversed_at !== null) return { kind: "reversed" };
  if (credit.available_at !== null && new Date(credit.available_at) > now) {
    return { kind: "pending", until: credit.available_at };
  }
  return { kind: "available" };
}

/** A missing-credit report, as get_missing_credit_reports gives it. */
export interface MissingCreditReport {
  id: number;
  network: string;
  offer_name: string;
  completed_on: string;
  status: TicketStatus;
  /** What the person wrote they did: the start of the report's conversation. */
  details: string;
  /** Their answers and support's replies, oldest first. */
  messages: ConversationMessage[];
  /** The coins support credited for it (one credit per report), once applied; null before. */
  credited_coins: number | null;
  created_at: string;
}

/** Networks look into the last few weeks only (report_missing_credit refuses older dates). */
export const MISSING_CREDIT_MAX_AGE_DAYS = 90;
