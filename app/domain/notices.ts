import type { TimeZone } from "./dates";
import type { Flash } from "./flash";
import { formatCoins, formatDollars } from "./money";
import { asSentence } from "./text";
import { bonusState, earnedState, withState, type MoneyState } from "./money-timeline";
import { ticketPath } from "./support";
import { isPaymentMethod, METHOD_NAMES } from "./withdrawals";

export type NoticeKind =
  | "withdrawal_completed"
  | "withdrawal_failed"
  | "referral_credited"
  | "welcome_bonus"
  | "task_reward"
  | "postback_reward"
  | "support_reply"
  | "missing_credit_credited"
  | "policy_change_waiting"
  | "ticket_answered"
  | "earnings_cleared";

/** A notice the database wrote for a user (user_notices), with what its words need. */
export interface UserNotice {
  id: number;
  kind: NoticeKind;
  data: {
    amount?: number | string;
    payment_method?: string;
    reason?: string | null;
    /** A withdrawal refused by an operator, not a failed payment. */
    refused?: boolean;
    coins?: number;
    title?: string;
    /** A support reply: its words, and the ticket it answers (a person's answer: the ticket only). */
    body?: string;
    ticket_kind?: "feedback" | "missing_credit";
    ticket_id?: number;
    /** An offer's credit: when it clears (written since 20261208000000). */
    available_at?: string;
    /** Bonus money (or a correction): whether it was locked when it was added (since 20261208000000). */
    locked?: boolean;
    /** Earnings that cleared: the bonus their clearing unlocked, and a debt they pay first. */
    bonus_unlocked?: number | string;
    carried_debt?: number | string;
  };
  created_at: string;
}

/**
 * Where a credit's money is, from what its notice carries: an offer's credit is pending until it
 * clears, bonus money locked or available. Null for a notice written before notices carried it
 * (its words then name no state rather than guess one).
 */
function creditState(data: UserNotice["data"], now: Date): MoneyState | null {
  if (typeof data.available_at === "string") return earnedState(data.available_at, now);
  if (typeof data.locked === "boolean") return bonusState(data.locked);
  return null;
}

/**
 * The words of a notice: a toast on the next visit, and the title and body of its push and email.
 * Every credit says where its money is (money-timeline.ts), as of `now`, its days in `zone` (the
 * page's; push and email, sent by a worker with no page, write UTC days). They go out from the
 * app's own address, so they hold nothing another person chose (a friend's display name is
 * anyone's to set).
 */
export function noticeMessage(
  notice: Pick<UserNotice, "kind" | "data">,
  now: Date = new Date(),
  zone: TimeZone = null,
): Flash {
  const amount = formatDollars(notice.data.amount ?? 0);
  // "Your $5.00 PayPal withdrawal", "Your $5.00 gift card withdrawal" (a common noun mid-sentence).
  const method = isPaymentMethod(notice.data.payment_method)
    ? `${notice.data.payment_method === "giftcard" ? "gift card" : METHOD_NAMES[notice.data.payment_method]} `
    : "";
  const coins = formatCoins(Number(notice.data.coins ?? 0));
  const state = creditState(notice.data, now);
  const offer = notice.data.title ? ` for "${notice.data.title}"` : "";
  switch (notice.kind) {
    case "withdrawal_completed":
      return {
        kind: "success",
        title: "Withdrawal completed",
        description: `Your ${amount} ${method}withdrawal has been paid.`,
      };
    case "withdrawal_failed":
      // Refused by an operator after review (docs/decisions/068): the person is told why.
      if (notice.data.refused === true) {
        const said = asSentence(notice.data.reason);
        const reason = said ? ` ${said}` : "";
        return {
          kind: "error",
          title: "Withdrawal refused",
          description: `Your ${amount} ${method}withdrawal was refused after review — ${amount} refunded to your balance.${reason}`,
        };
      }
      return {
        kind: "error",
        title: "Withdrawal not paid",
        description: `Your ${amount} ${method}withdrawal could not be paid — ${amount} refunded to your balance.`,
      };
    case "referral_credited":
      return {
        kind: "success",
        title: "Referral bonus earned",
        description: withState(`A friend you referred qualified: ${amount} referral bonus`, state, zone),
      };
    case "welcome_bonus":
      return {
        kind: "success",
        title: "Welcome bonus",
        description: withState(`You earned ${amount} for joining with a referral code`, state, zone),
      };
    case "task_reward":
      // The words the Earn page shows when a task completes (docs/product.md, "Earn: messages").
      return {
        kind: "success",
        title: "Task Completed",
        description: withState(`You earned ${coins} (${amount})${offer}`, state, zone),
      };
    case "support_reply":
      // An operator's own words (the console's reply form); only operators write them.
      return { kind: "info", title: "Support replied to you", description: notice.data.body ?? "" };
    case "missing_credit_credited":
      // The offer's name is the person's own words, from their report.
      return {
        kind: "success",
        title: "Missing credit added",
        description: withState(
          `Support credited ${coins} (${amount})${offer || " for an offer you reported"}`,
          state,
          zone,
        ),
      };
    case "policy_change_waiting":
      // To owners: no name or reason in it (those are people's words); the console shows them.
      return {
        kind: "info",
        title: "A settings change waits for an owner",
        description: "An owner asked to loosen a money rule. Open the console's Settings to approve or withdraw it.",
      };
    case "ticket_answered":
      // To the operators who answer it: nothing the person wrote (docs/decisions/061); the console shows it.
      return {
        kind: "info",
        title: "A person answered a support ticket",
        description:
          "Their answer is waiting in the support inbox. Open the ticket in the console to read it and reply.",
      };
    case "earnings_cleared":
      return { kind: "success", title: "Earnings cleared", description: clearedWords(notice.data) };
    case "postback_reward":
      return {
        kind: "success",
        title: "Offer completed",
        description: withState(`You earned ${coins} (${amount})${offer || " for completing an offer"}`, state, zone),
      };
  }
}

/**
 * "Your offer earnings of $3.50 cleared — available to withdraw. They unlocked $1.00 of bonus too."
 * Money owed from an earlier account is paid from them first, and the words say so.
 */
function clearedWords(data: UserNotice["data"]): string {
  const debt = Number(data.carried_debt ?? 0);
  const unlocked = Number(data.bonus_unlocked ?? 0);
  const cleared = `Your offer earnings of ${formatDollars(data.amount ?? 0)} cleared`;
  const where =
    debt > 0
      ? `${cleared} — they pay the ${formatDollars(debt)} owed from an earlier account first.`
      : withState(cleared, { kind: "available" });
  return unlocked > 0 ? `${where} They unlocked ${formatDollars(unlocked)} of bonus too.` : where;
}

/** A notice on the notices page: its words, when, the page it is about, and whether it was new. */
export interface ListedNotice extends Flash {
  id: string;
  created_at: string;
  href: string;
  unread: boolean;
}

/** The page a push or email about a notice opens. */
export function noticeLinkPath(notice: Pick<UserNotice, "kind" | "data">): string {
  switch (notice.kind) {
    case "support_reply":
      return notice.data.ticket_kind === "missing_credit" ? "/earn/offers" : "/profile?tab=help";
    case "missing_credit_credited":
      return "/earn/offers";
    case "policy_change_waiting":
      return "/admin/settings";
    case "ticket_answered":
      return notice.data.ticket_kind && Number.isSafeInteger(notice.data.ticket_id)
        ? ticketPath(notice.data.ticket_kind, notice.data.ticket_id!)
        : "/admin/support";
    case "withdrawal_completed":
    case "withdrawal_failed":
      return "/withdraw?history=1";
    case "earnings_cleared":
      return "/withdraw";
    case "referral_credited":
      return "/referral";
    case "task_reward":
      return "/earn";
    case "welcome_bonus":
    case "postback_reward":
      return "/";
  }
}
