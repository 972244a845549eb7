import { authHref } from "~/domain/urls";
import { coinsToDollars } from "~/domain/money";
import { isReferralCode, normalizeReferralCode } from "~/domain/referral-code";
import { invitationLanding } from "~/domain/referral-promise";
import { getSessionUser } from "~/server/auth/session.server";
import { firstOfferWords } from "~/server/earning/first-run.server";
import { referralCodeExists } from "~/server/earning/referrals.server";
import { getAppConfig } from "~/server/runtime/config.server";

/**
 * The share link's page, /join/CODE (docs/decisions/096): what the invited person gets and how, and
 * Create account (Sign Up with the code). A code no account has says so and still lets them sign up;
 * someone signed in is told the invitation is for new accounts.
 */
export async function loadJoin(request: Request, rawCode: string | undefined) {
  const code = normalizeReferralCode(rawCode ?? null);
  const valid = code !== null && isReferralCode(code) && (await referralCodeExists(code));
  const [signedIn, config, firstOffer] = await Promise.all([
    getSessionUser(request).then((user) => user !== null),
    getAppConfig(),
    firstOfferWords(),
  ]);
  const landing = invitationLanding({
    reward: config.referral.reward,
    welcomeBonus: config.referral.welcome_bonus,
    qualifyingCoins: config.referral.qualifying_coins,
    qualifyingEarned: config.referral.requires_earned
      ? coinsToDollars(config.referral.qualifying_coins, config.coins_per_dollar)
      : null,
  });
  return {
    valid,
    signedIn,
    landing,
    firstOffer,
    coinRate: `${config.coins_per_dollar} coins = $1.00`,
    signUpHref: authHref("signup", "/", valid ? code : null),
  };
}
