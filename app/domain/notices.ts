import type { Flash } from "./flash";
import { formatDollars } from "./money";
import { isPaymentMethod, METHOD_NAMES } from "./withdrawals";

/** A notice the database wrote for a user (user_notices), with what its words need. */
export interface UserNotice {
  id: number;
  kind: "withdrawal_completed" | "withdrawal_failed" | "referral_credited" | "welcome_bonus";
  data: { amount?: number | string; payment_method?: string; reason?: string | null; friend?: string };
  created_at: string;
}

/** The words of a notice, shown as a toast on the next visit (and later sent by push and email). */
export function noticeMessage(notice: UserNotice): Flash {
  const amount = formatDollars(notice.data.amount ?? 0);
  const method = isPaymentMethod(notice.data.payment_method) ? `${METHOD_NAMES[notice.data.payment_method]} ` : "";
  switch (notice.kind) {
    case "withdrawal_completed":
      return {
        kind: "success",
        title: "Withdrawal completed",
        description: `Your ${amount} ${method}withdrawal has been paid.`,
      };
    case "withdrawal_failed":
      return {
        kind: "error",
        title: "Withdrawal failed",
        description: `Your ${amount} ${method}withdrawal could not be paid, so the money is back in your balance.`,
      };
    case "referral_credited":
      return {
        kind: "success",
        title: "Referral bonus earned",
        description: `${notice.data.friend ?? "Your friend"} qualified: ${amount} has been added to your balance.`,
      };
    case "welcome_bonus":
      return {
        kind: "success",
        title: "Welcome bonus",
        description: `You earned ${amount} for joining with a referral code.`,
      };
  }
}
