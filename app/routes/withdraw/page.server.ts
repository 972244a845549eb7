import type { TimeZone } from "~/domain/dates";
import { getCashoutFeed } from "~/server/earning/cashout-feed.server";
import { ruleMessage } from "~/domain/rules";
import { RECIPIENT_FIELDS, withdrawFormsSchema } from "./withdrawal-form";
import { verificationEmailSent } from "~/domain/verification-form";
import {
  APPEAL_OF_PAUSED,
  APPEAL_SENT,
  cashOutWait,
  WITHDRAWAL_MESSAGES,
  withdrawalInitiated,
  withdrawalRequestState,
  type CashOutOutlook,
  type PaymentMethod,
} from "~/domain/withdrawals";
import { ensureEmailVerified, requestVerificationEmail } from "~/server/auth/email-verification.server";
import { requireUser } from "~/server/auth/session.server";
import { getAppConfig } from "~/server/runtime/config.server";
import { getEnv } from "~/server/runtime/env.server";
import { submitAppeal } from "~/server/account/support.server";
import { recordNetworkSignal } from "~/server/account/network-signals.server";
import { withdrawalCodeGate } from "./code-step.server";
import { defaultCountry } from "~/domain/giftcards";
import { optionalSection, readTogether, type RequestScope } from "~/server/db/reads.server";
import { requestTimeZone } from "~/server/http/cookies.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import { loadUserSummary, moneyParts, userSummaryCall, type UserSummary } from "~/server/account/users.server";
import type { WithdrawData } from "./WithdrawScreen";
import {
  historyRows,
  lastRecipient,
  cashOutOutlookCall,
  giftCardsCall,
  lastRecipientCall,
  reviewedFirstCall,
  paysRealMoney,
  requestWithdrawal,
  withdrawalsCall,
} from "~/server/withdrawals/requests.server";

/** docs/product.md, "Withdraw"; the history sheet (`?history=1`) and the bank method (`?method=bank`) are URL state. */
export async function loadWithdraw(request: Request, scope?: RequestScope) {
  const user = await requireUser(request, scope);
  const url = new URL(request.url);
  const historyOpen = url.searchParams.get("history") === "1";
  const zone = requestTimeZone(request);
  // Gift cards (docs/decisions/089): those of the country asked for (?country=), else the person's guessed one.
  const giftCardCountries = getEnv().tremendous?.countries ?? [];
  const askedCountry = url.searchParams.get("country")?.toUpperCase() ?? "";
  const giftCardCountry = giftCardCountries.includes(askedCountry)
    ? askedCountry
    : defaultCountry(zone, giftCardCountries);
  // The balance, the last recipient, the history and the gift cards in one round trip; only the
  // email check waits for the profile.
  const [summaryRead, lastRead, reviewedFirstRead, outlookRead, historyRead, giftCardsRead] = readTogether(
    [
      userSummaryCall(user.uid),
      lastRecipientCall(user.uid),
      reviewedFirstCall(user.uid),
      cashOutOutlookCall(user.uid),
      historyOpen ? withdrawalsCall(user.uid) : null,
      giftCardsCall(giftCardCountry),
    ],
    scope,
  );
  const [summary, config, last, reviewedFirst, outlook, history, giftCards, feed] = await Promise.all([
    loadUserSummary(user, summaryRead),
    getAppConfig(),
    optionalSection("withdraw: last recipient", lastRecipient(lastRead)),
    // Unreadable: the line is left out (it only adds to the notice the spec requires).
    optionalSection("withdraw: first review", reviewedFirstRead!),
    // Unreadable: the form stays open, and a post too small is refused with the rule's words.
    optionalSection("withdraw: cash-out outlook", outlookRead!),
    historyOpen ? optionalSection("withdraw: history", historyRows(historyRead, zone)) : null,
    // Unreadable: no gift card is offered this time (the other methods stand).
    optionalSection("withdraw: gift cards", giftCardsRead),
    // Recent cash-outs (docs/decisions/098), one copy per server; unreadable: the card says so.
    optionalSection("withdraw: cash-out feed", getCashoutFeed()),
  ]);
  const emailVerified = await ensureEmailVerified(user.uid, summary.email_verified);
  return {
    money: moneyParts(summary),
    coinsPerDollar: config.coins_per_dollar,
    // Said before the person tries (words from the server: rules.ts stays out of the browser); the
    // form cannot be sent while there is one.
    cashOutNotice: cashOutNotice(summary, outlook, config.min_withdrawal, zone),
    email: summary.email,
    emailVerified,
    minimums: config.min_withdrawal,
    // UPI is paid in rupees at this rate, fixed when asked for: shown beside the dollars.
    inrRate: config.inr_rate ? Number(config.inr_rate.rate) : null,
    // docs/product.md, "Withdraw: fields": bank is not offered in the selector; a link with ?method=bank reaches its form.
    bankOffered: url.searchParams.get("method") === "bank",
    historyOpen,
    history,
    // The form starts with the last withdrawal's method and recipient (a refused post keeps what was typed).
    lastRecipient: last,
    reviewedFirst: reviewedFirst === true,
    // "Ask for a review" (?appeal=paused, or a refused withdrawal's id; docs/decisions/090): its form.
    appeal: appealAsked(url, summary.payouts_paused),
    // Offered while this country has cards, or another country may (its link is on the form).
    giftCards:
      giftCards && (giftCards.length > 0 || giftCardCountries.length > 1)
        ? {
            country: giftCardCountry,
            countries: giftCardCountries,
            cards: giftCards,
            // A country's link was followed: the form opens on the gift cards.
            chosen: giftCardCountries.includes(askedCountry),
          }
        : null,
    feed: feed && { items: feed, now: Date.now() },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The review the URL asks for: of paused cash-outs (while they are), or of one withdrawal. */
function appealAsked(url: URL, paused: boolean): WithdrawData["appeal"] {
  const of = url.searchParams.get("appeal");
  if (of === APPEAL_OF_PAUSED) return paused ? { of } : null;
  return of && UUID.test(of) ? { of: of.toLowerCase() } : null;
}

/**
 * Why no cash-out can be sent now, and what to do: cash-outs paused by an operator (with the way to
 * ask for a review), a balance below zero, or too little available yet ("Wait until Dec 5", "Earn $1.00
 * more"). Null when a cash-out is possible.
 */
function cashOutNotice(
  summary: UserSummary,
  outlook: CashOutOutlook | null,
  minimums: Record<PaymentMethod, number>,
  zone: TimeZone,
): WithdrawData["cashOutNotice"] {
  if (summary.payouts_paused) {
    return { tone: "warning", title: null, message: ruleMessage("payouts_paused"), appealLink: true };
  }
  if (summary.balance < 0) {
    return { tone: "warning", title: null, message: ruleMessage("negative_balance"), appealLink: false };
  }
  const wait = outlook ? cashOutWait(outlook, summary, minimums, zone) : null;
  return wait ? { tone: "info", title: wait.title, message: wait.detail, appealLink: false } : null;
}

// Where each broken rule of create_withdrawal is shown; the others (negative_balance, the hourly
// limit) are the whole form's, on its banner.
const RULE_FIELDS = {
  invalid_amount: "amount",
  amount_exceeds_balance: "amount",
  below_minimum: "amount",
  unsupported_payment_method: "method",
  paypal_email_required: "paypalEmail",
  invalid_paypal_email: "paypalEmail",
  upi_id_required: "upiId",
  invalid_upi_id: "upiId",
  bank_details_required: "bankDetails",
  bank_details_too_long: "bankDetails",
  giftcard_not_offered: "giftcardProduct",
  giftcard_rate_unavailable: "giftcardProduct",
  giftcard_amount_not_offered: "amount",
} as const;

/** The withdrawal's own posts: the form, and its code step's code and new code (decision 092). */
const WITHDRAWAL_INTENTS: readonly string[] = ["withdraw", "withdraw-code", "withdraw-resend"];

/** The withdrawal request, and "Send verification email" for an unverified address. */
export async function withdrawAction(request: Request) {
  const user = await requireUser(request);
  const submission = await parseForm(request, withdrawFormsSchema);
  const summary = await loadUserSummary(user);
  // An unverified account's page has no withdrawal form to show field messages on, and the
  // database checks the verified email before anything else too.
  if (
    WITHDRAWAL_INTENTS.includes(String(submission.payload.intent)) &&
    !(await ensureEmailVerified(user.uid, summary.email_verified))
  ) {
    return rejectForm(submission, { formErrors: [ruleMessage("email_not_verified")] });
  }
  if (submission.status !== "success") return rejectForm(submission);

  if (submission.value.intent === "appeal") {
    const { appealOf, message } = submission.value;
    const withdrawalId =
      appealOf === APPEAL_OF_PAUSED ? null : UUID.test(appealOf) ? appealOf.toLowerCase() : undefined;
    if (withdrawalId === undefined) return rejectForm(submission, { formErrors: [ruleMessage("nothing_to_appeal")] });
    try {
      await submitAppeal(user.uid, withdrawalId, message);
      return redirectWithFlash("/profile?tab=help", APPEAL_SENT);
    } catch (error) {
      return replyWithDbError(submission, error, {
        fields: {
          ticket_answer_required: "message",
          ticket_answer_too_long: "message",
          ticket_answer_hidden_characters: "message",
        },
        fallback: WITHDRAWAL_MESSAGES.tryLater,
        context: "appeal",
      });
    }
  }

  if (submission.value.intent === "send-verification") {
    const refused = await requestVerificationEmail(user.uid, request);
    if (refused) return rejectForm(submission, { formErrors: [refused] });
    return redirectWithFlash("/withdraw", verificationEmailSent(summary.email));
  }

  const { amount, method, paypalEmail, upiId, bankDetails, giftcardProduct } = submission.value;
  // Gift cards are sold only while Tremendous is configured (a card listed before stays unsold); the
  // page then has no gift card field, so the words go on the form's banner.
  if (method === "giftcard" && !getEnv().tremendous) {
    return rejectForm(submission, { formErrors: [ruleMessage("giftcard_not_offered")] });
  }
  // The network this request comes from joins its risk score (decision 091); no answer, no signal.
  const signal = await recordNetworkSignal(request, user.uid, "withdrawal");
  // A code by email first, where the address, the device or the last code asks for one (decision 092).
  const gate = await withdrawalCodeGate(
    request,
    user.uid,
    submission,
    submission.value,
    summary.email,
    signal?.country ?? null,
  );
  if (!gate.go) return gate.answer;
  try {
    const withdrawal = await requestWithdrawal(
      user.uid,
      { amount, method, paypalEmail, upiId, bankDetails, giftcardProduct },
      summary.email,
    );
    return redirectWithFlash(
      "/withdraw",
      {
        kind: "success",
        title: WITHDRAWAL_MESSAGES.submitted + (paysRealMoney(withdrawal.payment_method) ? "" : " (TEST MODE)"),
        description: `${withdrawalInitiated(amount)} ${withdrawalRequestState(withdrawal)}`,
      },
      gate.setCookie ? { "Set-Cookie": gate.setCookie } : undefined,
    );
  } catch (error) {
    return replyWithDbError(submission, error, {
      // A hidden character is refused in whichever recipient the chosen method uses.
      fields: { ...RULE_FIELDS, recipient_hidden_characters: RECIPIENT_FIELDS[method] },
      fallback: WITHDRAWAL_MESSAGES.tryLater,
      context: "withdrawal",
    });
  }
}
