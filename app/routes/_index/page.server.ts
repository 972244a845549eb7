import { checkinDayStates, checkinStreakLine, checkinWords, timeUntilNextCheckin } from "~/domain/checkin";
import { getCashoutFeed } from "~/server/earning/cashout-feed.server";
import { homeFormSchema } from "./home-forms";
import { QUICK_TASK_COUNT } from "~/domain/constants";
import { requireUser } from "~/server/auth/session.server";
import { checkIn, checkinStatusCall, type CheckinStatus } from "~/server/earning/checkin.server";
import { getAppConfig } from "~/server/runtime/config.server";
import { requestTimeZone } from "~/server/http/cookies.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { bannerErrors, parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import { getLeaderboard } from "~/server/earning/leaderboard.server";
import { optionalSection, readTogether, type RequestScope } from "~/server/db/reads.server";
import { findTask, listTasksForUser, taskCompletionsCall } from "~/server/earning/tasks.server";
import { referralStatusCall } from "~/server/earning/referrals.server";
import { claimReward, rewardsStatusCall, rewardsView } from "~/server/earning/rewards.server";
import { invitationChecklist } from "~/domain/referral-promise";
import { ensureEmailVerified, requestVerificationEmail } from "~/server/auth/email-verification.server";
import {
  EMAIL_VERIFIED_FLASH,
  notVerifiedYet,
  verificationEmailSent,
  VERIFIED_CHECK_PARAM,
} from "~/domain/verification-form";
import { creditedBonusState, loadUserSummary, moneyParts, userSummaryCall } from "~/server/account/users.server";
import { homeGreeting } from "~/domain/greeting";
import { firstOfferLine, firstSteps } from "~/domain/first-run";
import { ruleMessage } from "~/domain/rules";
import { cashOutHint } from "~/domain/withdrawals";
import { coinsToDollars, formatDollars } from "~/domain/money";

const LEADERBOARD_TEASER_SIZE = 3;

async function loadCheckinCard(checkinStatus: Promise<CheckinStatus>) {
  const [status, config] = await Promise.all([checkinStatus, getAppConfig()]);
  const dollars = (coins: number) => formatDollars(coinsToDollars(coins, config.coins_per_dollar));
  const streak = {
    streakDay: status.streak_day,
    checkedInToday: status.checked_in_today,
    bonusCoins: status.bonus_coins,
    bonusPaidToday: status.bonus_paid_today,
  };
  return {
    coins: config.checkin_coins,
    dollars: dollars(config.checkin_coins),
    checkedInToday: status.checked_in_today,
    days: checkinDayStates(streak),
    streakLine: checkinStreakLine(streak, dollars),
    bonusCoins: status.bonus_coins,
    nextCheckinIn: timeUntilNextCheckin(new Date()),
  };
}

/**
 * docs/product.md, "Home". The balance is the page (no balance, no Home); the check-in card, the quick
 * tasks and the leaderboard teaser each load on their own and show their own failure.
 */
export async function loadHome(request: Request, scope?: RequestScope) {
  const user = await requireUser(request, scope);
  // Home's own reads in one round trip with the root's notices; each section still fails on its own.
  const [summaryRead, checkinRead, completionsRead, referralRead, rewardsRead] = readTogether(
    [
      userSummaryCall(user.uid),
      checkinStatusCall(user.uid),
      taskCompletionsCall(user.uid),
      referralStatusCall(user.uid),
      rewardsStatusCall(user.uid),
    ],
    scope,
  );
  const [summary, config, checkin, tasks, leaders, referral, rewards, feed] = await Promise.all([
    loadUserSummary(user, summaryRead),
    optionalSection("home: coin rate", getAppConfig()),
    optionalSection("home: check-in", loadCheckinCard(checkinRead)),
    optionalSection("home: tasks", listTasksForUser(user.uid, completionsRead)),
    optionalSection("home: leaderboard", getLeaderboard(user.uid, LEADERBOARD_TEASER_SIZE)),
    optionalSection("home: referral status", referralRead),
    optionalSection("home: levels and goals", rewardsRead),
    optionalSection("home: cash-out feed", getCashoutFeed()),
  ]);
  // The profile remembers a verification once seen; "Check again" and the verification email's
  // link (/?verified=1) ask the identity provider, so a plain Home view costs no call to it. The
  // parameter only asks: what is shown is the provider's answer.
  const checkAgain = new URL(request.url).searchParams.get(VERIFIED_CHECK_PARAM) === "1";
  const emailVerified = checkAgain
    ? await ensureEmailVerified(user.uid, summary.email_verified)
    : summary.email_verified;
  // docs/product.md, "Home: verifying the email": verified, Home again with "Email verified" and no card.
  if (checkAgain && emailVerified) throw await redirectWithFlash("/", EMAIL_VERIFIED_FLASH);
  return {
    email: summary.email,
    emailVerified,
    verificationNotice: checkAgain ? notVerifiedYet(summary.email) : null,
    greeting: homeGreeting(summary.created_at, new Date()),
    displayName: summary.display_name || "User",
    money: moneyParts(summary),
    coinsPerDollar: config?.coins_per_dollar ?? null,
    cashOutHint: config ? cashOutHint(summary, config.min_withdrawal) : null,
    totalEarned: summary.total_earned,
    referralBonus: summary.referral_earned,
    referralPending: referral?.pending_amount ?? 0,
    // Until both bonuses are paid: what the person and their friend get, and the steps left.
    // (Worded here: Home's browser code carries no referral rules.)
    invitation: referral?.invited ? invitationChecklist(referral.invited) : null,
    checkin,
    quickTasks:
      tasks && tasks.source !== "unavailable"
        ? tasks.tasks.filter((task) => !task.completed).slice(0, QUICK_TASK_COUNT)
        : null,
    leaders,
    // Until an account's first offer pays, and unless a friend's invitation shows its own steps:
    // what a first offer can pay, and how (docs/decisions/096).
    firstStep:
      !referral?.invited && rewards && rewards.xp === 0 && summary.pending <= 0 && config && tasks
        ? {
            offer: firstOfferLine(
              tasks.tasks.reduce((most, task) => Math.max(most, task.completed ? 0 : task.reward), 0),
              config.coins_per_dollar,
            ),
            steps: firstSteps(`${formatDollars(config.min_withdrawal.upi)} with UPI`),
          }
        : null,
    // The level card and today's goals (docs/decisions/094); null when they failed to load.
    rewards: rewards && config ? rewardsView(rewards, config.coins_per_dollar, requestTimeZone(request)) : null,
    // Recent cash-outs (docs/decisions/098), one copy per server; null when it failed to load.
    feed: feed && { items: feed, now: Date.now() },
  };
}

/** Home's forms: the daily check-in, a quick task's Start and "Send verification email". */
export async function homeAction(request: Request) {
  const user = await requireUser(request);
  const submission = await parseForm(request, homeFormSchema);
  // Buttons with hidden fields: what is wrong shows in the form's banner.
  if (submission.status !== "success") return rejectForm(submission, { formErrors: bannerErrors(submission) });
  if (submission.value.intent === "send-verification") {
    const refused = await requestVerificationEmail(user.uid, request);
    if (refused) return rejectForm(submission, { formErrors: [refused] });
    const { email } = await loadUserSummary(user);
    return redirectWithFlash("/", verificationEmailSent(email));
  }
  if (submission.value.intent === "checkin") {
    try {
      const result = await checkIn(user.uid);
      const [state, config] = await Promise.all([creditedBonusState(user.uid), getAppConfig()]);
      return redirectWithFlash("/", {
        kind: "success",
        title: "Checked in!",
        description: checkinWords(result, config.coins_per_dollar, state),
      });
    } catch (error) {
      return replyWithDbError(submission, error, { fallback: "Please try again later.", context: "check-in" });
    }
  }
  if (submission.value.intent === "claim-level" || submission.value.intent === "claim-goal") {
    try {
      const claimed = await claimReward(user.uid, submission.value, "/");
      return typeof claimed === "string" ? rejectForm(submission, { formErrors: [claimed] }) : claimed;
    } catch (error) {
      return replyWithDbError(submission, error, { fallback: "Please try again later.", context: "claim" });
    }
  }
  const task = await findTask(submission.value.taskId);
  if (!task) return rejectForm(submission, { formErrors: [ruleMessage("task_unavailable")] });
  // docs/product.md, "Home: quick tasks": starting a quick task shows an info message and goes to /earn.
  return redirectWithFlash(`/earn?task=${encodeURIComponent(task.id)}`, {
    kind: "info",
    title: `Starting "${task.title}"`,
    description: "Finish the task to collect your coins.",
  });
}
