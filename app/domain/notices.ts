import type { Flash } from "./flash";
import { formatCoins, formatDollars } from "./money";
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
  | "policy_change_waiting";

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
    /** A support reply: its words, and the ticket it answers. */
    body?: string;
    ticket_kind?: "feedback" | "missing_credit";
  };
  created_at: string;
}

/**
 * The words of a notice: a toast on the next visit, and the title and body of its push and email.
 * They go out from the app's own address, so they hold nothing another person chose (a friend's
 * display name is anyone's to set).
 */
export function noticeMessage(notice: Pick<UserNotice, "kind" | "data">): Flash {
  const amount = formatDollars(notice.data.amount ?? 0);
  const method = isPaymentMethod(notice.data.payment_method) ? `${METHOD_NAMES[notice.data.payment_method]} ` : "";
  const coins = formatCoins(Number(notice.data.coins ?? 0));
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
        const said = notice.data.reason?.trim() ?? "";
        const reason = !said ? "" : /[.!?]$/.test(said) ? ` ${said}` : ` ${said}.`;
        return {
          kind: "error",
          title: "Withdrawal refused",
          description: `Your ${amount} ${method}withdrawal was refused after review, so the money is back in your balance.${reason}`,
        };
      }
      return {
        kind: "error",
        title: "Withdrawal failed",
        description: `Your ${amount} ${method}withdrawal could not be paid, so the money is back in your balance.`,
      };
    case "referral_credited":
      return {
        kind: "success",
        title: "Referral bonus earned",
        description: `A friend you referred qualified: ${amount} has been added to your balance.`,
      };
    case "welcome_bonus":
      return {
        kind: "success",
        title: "Welcome bonus",
        description: `You earned ${amount} for joining with a referral code.`,
      };
    case "task_reward":
      // The words the Earn page shows when a task completes (docs/product.md, "Earn: messages").
      return {
        kind: "success",
        title: "Task Completed",
        description: notice.data.title
          ? `You earned ${coins} (${amount}) for "${notice.data.title}".`
          : `You earned ${coins} (${amount}).`,
      };
    case "support_reply":
      // An operator's own words (the console's reply form); only operators write them.
      return { kind: "info", title: "Support replied to you", description: notice.data.body ?? "" };
    case "missing_credit_credited":
      // The offer's name is the person's own words, from their report.
      return {
        kind: "success",
        title: "Missing credit added",
        description: notice.data.title
          ? `Support credited ${coins} (${amount}) for "${notice.data.title}".`
          : `Support credited ${coins} (${amount}) for an offer you reported.`,
      };
    case "policy_change_waiting":
      // To owners: no name or reason in it (those are people's words); the console shows them.
      return {
        kind: "info",
        title: "A settings change waits for an owner",
        description: "An owner asked to loosen a money rule. Open the console's Settings to approve or withdraw it.",
      };
    case "postback_reward":
      return {
        kind: "success",
        title: "Offer completed",
        description: notice.data.title
          ? `You earned ${coins} (${amount}) for "${notice.data.title}".`
          : `You earned ${coins} (${amount}) for completing an offer.`,
      };
  }
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
    case "withdrawal_completed":
    case "withdrawal_failed":
      return "/withdraw?history=1";
    case "referral_credited":
      return "/referral";
    case "task_reward":
      return "/earn";
    case "welcome_bonus":
    case "postback_reward":
      return "/";
  }
}
