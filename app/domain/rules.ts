// The rules the database enforces, by the stable identifier each `raise exception` carries in
// its HINT (supabase/migrations), and what a person is told when one is broken. This is the
// only place that turns a broken rule into words; nothing reads the database's message text.
import { accountInDebtWords, giveUpLabel, WITHDRAWAL_ON_ITS_WAY } from "./account-deletion";
import { formatDollars } from "./money";
import { tooManyAttemptsMessage } from "./rate-limit";
import { INVALID_REFERRAL_CODE_MESSAGE } from "./referral-code";
import { GOALS_CAPPED, GOALS_OFF, LEVELS_CAPPED, LEVELS_OFF } from "./rewards";
import { invalidSettingMessage, isSettingKey, settingOf } from "./settings";

const RULE_MESSAGES = {
  // docs/product.md, "Home: daily check-in" and "Withdraw: the rules", word for word.
  already_checked_in: "Already checked in today!",
  invalid_amount: "Please enter a valid amount",
  amount_exceeds_balance: "Amount exceeds your available balance",
  below_minimum: (minimum: string) => `Minimum withdrawal amount is $${minimum}`,
  paypal_email_required: "Please enter your PayPal email",
  upi_id_required: "Please enter your UPI ID",
  bank_details_required: "Please enter your bank account details",
  // Beyond the spec (docs/decisions/023, 024): money sent to a typo is lost, and cash-out needs a
  // verified email.
  invalid_paypal_email: "Please enter a valid PayPal email address",
  invalid_upi_id: "Please enter a valid UPI ID, such as name@okhdfcbank",
  bank_details_too_long: "Bank details can be at most 1,000 characters",
  email_not_verified: "Please verify your email address before withdrawing",
  // docs/decisions/065: a reversal took back money already withdrawn.
  negative_balance:
    "Your balance is negative because an offer network reversed a reward. New earnings pay it back first; you can withdraw again once it is above zero.",
  // app_config.withdrawals_per_hour, counted by the shared rate limiter inside create_withdrawal.
  withdrawal_rate_limited: (retryAfterSeconds: string) => tooManyAttemptsMessage(Number(retryAfterSeconds)),
  invalid_referral_code: INVALID_REFERRAL_CODE_MESSAGE,
  // docs/decisions/068: an operator paused the account's cash-outs, or closed the account.
  payouts_paused:
    "Cash-outs are paused on your account while we check its recent activity. Your balance is safe. You can ask us for a review, and follow it in Profile, Help & Support.",
  account_banned:
    "This account has been closed for breaking our terms, and cannot be signed in to. If you think this is a mistake, reply to any email we have sent you.",
  // docs/decisions/064: one account per person (x+1@ and x@, or x.y@gmail and xy@gmail, are one).
  email_identity_taken:
    "An account already exists for this email address, or for another way of writing the same inbox. Please sign in to that account instead.",
  // Profile (docs/product.md, "Profile: help and support" words the feedback rule; the rest are ours).
  feedback_fields_required: "Please fill out all fields",
  feedback_too_long: "Your message can be at most 2,000 characters (your name 100, your email 254)",
  feedback_hidden_characters: "Remove the invisible or control characters: only letters, digits, signs and line breaks",
  // My offers: a missing-credit report (docs/offer-walls.md).
  missing_credit_fields_required: "Please fill out all fields",
  missing_credit_too_long: "The offer's name can be at most 200 characters, and what you did 2,000",
  missing_credit_date_out_of_range: "Please pick the day you completed the offer, within the last 90 days",
  too_many_missing_credit_reports:
    "You have 5 reports waiting for an answer. We answer those first; you can send another once one is answered.",
  invalid_display_name: "Your display name must be 1 to 50 characters",
  // Control, zero-width and text-direction characters (hidden-characters.ts), in a name or a recipient.
  display_name_hidden_characters: "Your display name cannot contain invisible or control characters",
  recipient_hidden_characters: "Payment details cannot contain invisible or control characters",
  invalid_notification_setting: "Unknown notification setting",
  invalid_push_token: "This device's push token was not accepted",
  withdrawal_pending: WITHDRAWAL_ON_ITS_WAY,
  // The amount is read from the refusal where it is known (deletionBlocks).
  account_in_debt: accountInDebtWords(),
  // Deleting with money left, unconfirmed (or less confirmed than the account holds now); the detail is the amount.
  forfeit_unconfirmed: (amount: string) =>
    `Your account holds ${formatDollars(amount)}. Tick “${giveUpLabel(Number(amount))}” to delete it with that money, or withdraw it first.`,
  // Rules the spec does not word.
  unsupported_payment_method: "Please choose a payment method",
  task_not_started: "Task was not started",
  task_not_finished: "Task is not finished yet",
  task_unavailable: "This task is no longer available",
  account_not_found: "Account not found",
  // Rules only the server or an operator can break: a person sees the caller's generic text.
  invalid_reward: "Invalid reward",
  invalid_coins: "Coins must be a positive whole number",
  invalid_hold_days: "A hold is 0 to 365 days",
  invalid_log_limit: "A limit is 1 to 1000 entries",
  user_id_required: "User id is required",
  referral_codes_exhausted: "Could not generate a unique referral code",
  invalid_settlement_status: "Invalid status",
  withdrawal_not_found: "Withdrawal not found",
  withdrawal_not_pending: "Withdrawal is not pending",
  withdrawal_not_approved: "Withdrawal is waiting for review: approve it first",
  withdrawal_sent: "Withdrawal was sent to PayPal: sync it, or settle it by hand once checked in PayPal",
  withdrawal_sending:
    "PayPal is being asked to pay this withdrawal, or was asked and has not answered: pay it again to learn PayPal's answer before refusing it",
  withdrawal_paid_by_razorpayx:
    "RazorpayX is paying this withdrawal: it is settled by RazorpayX's answer, webhook or read-back, not by hand",
  not_a_razorpayx_payout: "This withdrawal is not paid by RazorpayX",
  // Gift cards through Tremendous (docs/decisions/089).
  giftcard_not_offered: "Please choose a gift card from the list",
  giftcard_rate_unavailable:
    "Cards sold in rupees are not available right now because today's rupee rate is not set. Choose a card in dollars, or try again later.",
  giftcard_amount_not_offered: (amounts: string) =>
    `This card comes in ${amounts}. Enter a dollar amount that makes one of these values.`,
  not_a_giftcard: "This withdrawal is not a gift card",
  withdrawal_paid_by_tremendous:
    "Tremendous is delivering this gift card: it is settled by Tremendous's answer, webhook or read-back, not by hand",
  invalid_giftcard_catalogue: "Tremendous's catalogue had no card the app can offer; the last good list is kept",
  // An appeal before any ban (docs/decisions/090).
  nothing_to_appeal:
    "There is nothing to review here: only paused cash-outs and a cash-out refused at review can be appealed.",
  appeal_open: "You already asked for a review of this. Follow it, and add to it, in Profile, Help & Support.",
  unknown_appeal_reason: "That reason is not one of this withdrawal's",
  invalid_network_signal: "Invalid network signal",
  // Levels and daily goals (docs/decisions/094): refusals the claim functions answer with.
  no_level_bonus: "There is no level bonus to claim yet. Reach the next level to unlock its bonus.",
  levels_off: LEVELS_OFF,
  levels_cap_reached: LEVELS_CAPPED,
  goal_not_today: "That goal is not one of today's. Today's goals are on Home.",
  goal_not_done: "This goal is not done yet. Its progress is on Home.",
  goal_already_claimed: "You already claimed this goal today.",
  goals_off: GOALS_OFF,
  goals_cap_reached: GOALS_CAPPED,
  // Promo codes (docs/decisions/095): each refusal says why.
  promo_code_unknown: "That code does not exist. Check how it is spelled.",
  promo_code_not_started: "That code does not work yet. Try again when its offer starts.",
  promo_code_ended: "That code has expired.",
  promo_code_used_up: "That code has been used as many times as it can be.",
  promo_code_redeemed: "You already used that code.",
  promo_code_new_accounts: "That code is only for accounts made after it was announced.",
  promo_code_country: "That code is not available in your country.",
  promo_code_own: "Operators cannot use a code they made.",
  promo_code_rate_limited: (retryAfterSeconds: string) => tooManyAttemptsMessage(Number(retryAfterSeconds)),
  codes_off: "Promo codes are paused for now.",
  codes_cap_reached: "Promo codes have reached this month's budget. They start again on the 1st.",
  invalid_promo_code: "A code is 4 to 20 letters and digits",
  invalid_promo_code_terms:
    "Check the code's terms: 1 to 100,000 coins, 1 to 1,000,000 uses, an end after its start and in the future, countries as two-letter codes",
  promo_code_taken: "There is already a code with these letters",
  promo_code_not_found: "That code no longer exists",
  // Monthly prizes (docs/decisions/097): the console's decision on a held prize.
  prize_award_not_found: "That prize is not in the list of any settled month",
  prize_award_decided: "This prize was already decided. Reload the page to see what was done.",
  reward_needs_identity:
    "Your account is still being set up for rewards. Sign out and sign in again, then try once more.",
  // Codes by email (docs/decisions/092).
  email_code_no_address: "Your account has no email address to send a code to. Please write to support.",
  email_code_rate_limited: (retryAfterSeconds: string) => tooManyAttemptsMessage(Number(retryAfterSeconds)),
  email_code_required: "Enter the code we emailed you first.",
  invalid_choice: "Choose on or off",
  // Featured offers (docs/decisions/100): the server's notes of a fetched catalogue, never a person's input.
  invalid_network: "Unknown offer wall",
  invalid_offer_ids: "Offer ids must be a list",
  // The console's authenticator (docs/decisions/093).
  totp_already_enrolled: "An authenticator is already set up",
  invalid_recovery_codes: "Ten recovery codes are needed",
  not_an_operator: "This account holds no operator role",
  invalid_payout_request: "Invalid payout request",
  invalid_payout_status: "Invalid payout status",
  invalid_rate: "Enter rupees per dollar from 1 to 1,000",
  operator_required: "Operator name required",
  reason_required: "A reason is required",
  invalid_reason: "The reason must be at most 500 characters, without hidden characters",
  audit_append_only: "The operator actions cannot be changed",
  // The operator console's roles (docs/operator-console.md): support < finance < owner.
  invalid_operator_role: "The role must be owner, finance or support",
  operator_role_required: "Your operator role does not allow this",
  operator_self_action: "Operators cannot do this to their own account",
  invalid_withdrawal_view: "Unknown list of withdrawals",
  // Balance adjustments in the console (docs/operator-console.md, "People").
  invalid_adjustment: "Enter an amount in dollars with at most two decimals, not zero, such as 5.00 or -2.50",
  invalid_adjustment_kind: "Choose earned or bonus money",
  adjustment_exceeds_earned: "This debit is more than the account was ever credited of that kind",
  adjustment_not_found: "Adjustment not found",
  second_operator_required: "Another operator must approve or decline an adjustment you asked for",
  ticket_already_credited: "This ticket was credited already: one credit per ticket",
  test_postbacks_exhausted: "No more test postbacks through this wall today: the limit is in Settings",
  invalid_refusal: "Unknown refused action",
  setting_change_not_found: "That settings change no longer exists",
  second_owner_required: "Another owner must approve a change you asked for",
  invalid_account_action: "Unknown account action",
  // The support inbox (docs/operator-console.md, "Support inbox").
  invalid_ticket_view: "Unknown list of tickets",
  ticket_not_found: "Ticket not found",
  ticket_person_gone: "The account that sent this was deleted: there is nobody to reply to",
  ticket_message_required: "Write the message.",
  invalid_ticket_message: "A message can be at most 2,000 characters, without hidden characters",
  invalid_ticket_status: "The status must be open, waiting or resolved",
  // A person's answer to their own ticket (docs/product.md, "Profile: help and support").
  ticket_answer_required: "Please write your answer",
  ticket_answer_too_long: "Your answer can be at most 2,000 characters",
  ticket_answer_hidden_characters: "Your answer cannot contain invisible or control characters",
  ticket_resolved:
    "This conversation is resolved and can no longer be answered. To ask something new, write to us from Help & Support.",
  // The console's settings (docs/operator-console.md, "Settings"); the detail names the setting.
  invalid_setting: (setting: string) =>
    isSettingKey(setting) ? invalidSettingMessage(settingOf(setting)) : "This value is not allowed for the setting",
  unknown_setting: "There is no such setting",
  invalid_settings: "Settings are sent as an object of names and values",
  settings_changed:
    "Someone else saved the settings since you opened this page, so nothing was saved. Each field's “Now” line shows the current value: check your changes and save again.",
  // Offer walls in the console (docs/operator-console.md, "Walls"): the app checks first, with its own words.
  unknown_wall: "Unknown offer wall",
  invalid_wall_setting: "A wall setting is not valid",
  invalid_test_postback: "Invalid test postback",
  // Postbacks the network vouches for (docs/offer-walls.md, "Reversals", "Held postbacks").
  reversal_names_no_credit: "The reversal names no credit of this person on this network",
  reversal_exceeds_credit: "The reversal takes back more than its credit paid",
  signature_digest_required: "A signature digest is required",
  invalid_decision: "Choose approve or reject.",
  held_postback_not_found: "This held postback is no longer waiting. Reload the page.",
  held_postback_decided: "This held postback is no longer waiting. Reload the page.",
  ledger_append_only: "The transaction history cannot be changed",
  invalid_rate_limit: "Invalid rate limit",
  invalid_delivery_claim: "Invalid delivery claim",
  invalid_delivery_outcome: "Invalid delivery outcome",
} satisfies Record<string, string | ((detail: string) => string)>;

export type RuleKey = keyof typeof RULE_MESSAGES;

export const RULE_KEYS = /* @__PURE__ */ Object.keys(RULE_MESSAGES) as RuleKey[];

export function isRuleKey(value: unknown): value is RuleKey {
  return typeof value === "string" && Object.hasOwn(RULE_MESSAGES, value);
}

/** The words for a broken rule; `detail` carries the value a message needs (a minimum amount). */
export function ruleMessage(rule: RuleKey, detail?: string | null): string {
  const message = RULE_MESSAGES[rule];
  return typeof message === "function" ? message(detail ?? "") : message;
}
