import { daysSince } from "~/domain/dates";
import { coinsToDollars } from "~/domain/money";
import { referralName } from "~/domain/referrals";
import { requireUser } from "~/server/auth/session.server";
import { getAppConfig } from "~/server/runtime/config.server";
import { requestOrigin } from "~/server/http/same-origin.server";
import { readTogether, type RequestScope } from "~/server/db/reads.server";
import { referralsCall } from "~/server/earning/referrals.server";
import { loadUserSummary, userSummaryCall } from "~/server/account/users.server";

/** Refer & Earn (docs/product.md, "Refer"): the code and its share link, how it works, and the people referred. */
export async function loadReferral(request: Request, scope?: RequestScope) {
  const user = await requireUser(request, scope);
  const now = new Date();
  const [summaryRead, referralsRead] = readTogether([userSummaryCall(user.uid), referralsCall(user.uid)], scope);
  const [summary, config, referrals] = await Promise.all([
    loadUserSummary(user, summaryRead),
    getAppConfig(),
    // docs/product.md, "Refer: messages": a failed list is shown empty, with the spec's message.
    referralsRead.then(
      (rows) =>
        rows.map((row) => ({
          id: row.id,
          name: referralName(row),
          // Counted here, so the server's HTML and the browser agree on the day.
          days: daysSince(row.created_at, now),
          credited: row.credited,
          amount: row.amount,
        })),
      (error: unknown) => {
        if (error instanceof Response) throw error;
        console.error("referrals failed to load:", error);
        return null;
      },
    ),
  ]);
  const code = summary.referral_code || null;
  return {
    code,
    // The invitation's own page, which says what the friend gets (docs/decisions/096).
    shareUrl: code ? `${requestOrigin(request)}/join/${code}` : null,
    reward: config.referral.reward,
    welcomeBonus: config.referral.welcome_bonus,
    qualifyingCoins: config.referral.qualifying_coins,
    // Strict settings (docs/decisions/067): the friend's cleared offer earnings, in dollars, count.
    qualifyingEarned: config.referral.requires_earned
      ? coinsToDollars(config.referral.qualifying_coins, config.coins_per_dollar)
      : null,
    referrals,
  };
}
