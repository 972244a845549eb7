// What the operator console shows of people (docs/operator-console.md, "People"), as
// operator_find_people and operator_person return it: shared by the server module that reads it
// and the pages that draw it.

import type { TicketKind, TicketStatus } from "./support";

/** One account a search found, and which of its keys matched. */
export interface FoundPerson {
  id: string;
  email: string | null;
  display_name: string;
  created_at: string;
  banned: boolean;
  payouts_paused: boolean;
  balance: number;
  matched_by: string;
}

export interface LedgerRow {
  id: number;
  created_at: string;
  description: string;
  transaction_type: string;
  amount: number;
  coins: number | null;
  status: string;
  kind: string | null;
  available_at: string;
}

export interface PersonProfile {
  id: string;
  email: string | null;
  email_verified: boolean;
  display_name: string;
  referral_code: string;
  wall_id: string;
  created_at: string;
  is_active: boolean;
  banned_at: string | null;
  ban_reason: string | null;
  payouts_paused_at: string | null;
  operator_role: string | null;
  balance: number;
  total_earned: number;
  available: number;
  pending: number;
  next_clear_at: string | null;
  bonus_locked: number;
  /** Owed from an earlier account of the same email, not yet paid by offer earnings (decision 078). */
  carried_debt?: number;
}

export interface PersonWithdrawal {
  id: string;
  created_at: string;
  amount: number;
  payment_method: string;
  status: string;
  review_state: string | null;
  risk_score: number | null;
  reference: string | null;
  failure_reason: string | null;
}

export interface LinkedPerson {
  id: string;
  email: string | null;
  created_at: string;
  credited_at: string | null;
}

export interface OfferCredit {
  id: number;
  created_at: string;
  provider: string;
  transaction_id: string;
  kind: "credit" | "reversal";
  offer_name: string | null;
  coins: number;
  amount: number;
  available_at: string | null;
}

export interface PostbackEntry {
  id: number;
  received_at: string;
  network: string;
  verdict: string;
  reason: string | null;
  transaction_id: string | null;
  coins: number | null;
}

export interface SignalSummary {
  kind: "device" | "address";
  count: number;
  first_seen_at: string;
  last_seen_at: string;
}

/** Another account that shares a device, a network or a payout address with this one. */
export interface SharedSignal {
  id: string;
  email: string | null;
  via: string;
}

export interface PersonTicket {
  kind: TicketKind;
  id: number;
  created_at: string;
  subject: string;
  status: TicketStatus | null;
}

export interface PersonAction {
  id: number;
  at: string;
  actor: string;
  action: string;
  reason: string | null;
}

export interface PersonPage {
  profile: PersonProfile;
  ledger: LedgerRow[];
  withdrawals: PersonWithdrawal[];
  referred_by: LinkedPerson | null;
  referrals: (LinkedPerson & { amount: number | null })[];
  referral_count: number;
  offers: OfferCredit[];
  postbacks: PostbackEntry[];
  signals: SignalSummary[];
  linked: SharedSignal[];
  tickets: PersonTicket[];
  actions: PersonAction[];
  /** The `before` of the ledger's next (older) page, or null on the last. */
  olderBefore: number | null;
}

/** A balance adjustment (operator_adjustments): applied, waiting for a second operator, or declined. */
export interface PersonAdjustment {
  id: number;
  amount: number;
  kind: "earned" | "bonus";
  reason: string;
  state: "applied" | "awaiting_approval" | "declined";
  requested_by: string;
  requested_by_user_id: string;
  requested_at: string;
  decided_by: string | null;
  decided_at: string | null;
  decision_reason: string | null;
  missing_credit_report_id: number | null;
}

/** When an adjustment waits for a second operator: the limits and the window they count. */
export interface AdjustmentLimits {
  /** Dollars for one person, either way, in the window. */
  approval_above: number;
  /** Dollars one operator adjusts for everyone together in the window. */
  operator_limit: number;
  window_hours: number;
}
