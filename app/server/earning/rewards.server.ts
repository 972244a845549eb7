// Levels and daily goals (docs/decisions/094): the one read Home and the Levels page make, the two
// claims, and the words of what a claim paid. Every rule is in SQL (rewards_status,
// claim_level_bonuses, claim_daily_goal); this module only calls and words.
import { timeUntilNextCheckin } from "~/domain/checkin";
import { formatTime, type TimeZone } from "~/domain/dates";
import { withState, type MoneyState } from "~/domain/money-timeline";
import {
  coinsAndDollars,
  goalsView,
  joinWords,
  levelView,
  type ClaimResult,
  type RewardsStatus,
  type RewardsView,
} from "~/domain/rewards";
import { isRuleKey, ruleMessage } from "~/domain/rules";
import { creditedBonusState } from "../account/users.server";
import { dbCall } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { redirectWithFlash } from "../http/flash.server";
import { getAppConfig } from "../runtime/config.server";
import { WALL_NETWORKS } from "../walls/registry.server";

export function rewardsStatusCall(userId: string) {
  return dbCall<RewardsStatus>("rewards_status", { p_user_id: userId });
}

/** A wall's name as people know it ("adgate" -> "AdGate Media"); an unknown one as stored. */
function wallLabel(network: string): string {
  return WALL_NETWORKS.find((candidate) => candidate.name === network)?.label ?? network;
}

/**
 * The level card's and the goals card's lines, worded here so the page's browser code carries none
 * of it. The goals change at midnight UTC, said in the person's time (`zone`).
 */
export function rewardsView(
  status: RewardsStatus,
  coinsPerDollar: number,
  zone: TimeZone,
  now = new Date(),
): RewardsView {
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
  // "5:30:00 AM" -> "5:30 AM": the seconds of midnight say nothing.
  const at = formatTime(midnight, zone).replace(/:00(?= )/, "");
  return {
    level: levelView(status, coinsPerDollar),
    goals: {
      ...goalsView(status, coinsPerDollar, wallLabel),
      renews: `New goals at ${at}, in ${timeUntilNextCheckin(now)}.`,
    },
  };
}

export async function claimLevelBonuses(userId: string): Promise<ClaimResult> {
  const db = await getDatabase();
  return db.rpc<ClaimResult>("claim_level_bonuses", { p_user_id: userId });
}

export async function claimDailyGoal(userId: string, goalId: string): Promise<ClaimResult> {
  const db = await getDatabase();
  return db.rpc<ClaimResult>("claim_daily_goal", { p_user_id: userId, p_goal_id: goalId });
}

/** The toast of a paid claim: "You got 100 coins ($1.00) for reaching Silver and Gold — locked until …". */
export function claimedWords(
  paid: { coins: number; levels?: string[] },
  coinsPerDollar: number,
  state: MoneyState | null,
): string {
  const what = paid.levels?.length
    ? `You got ${coinsAndDollars(paid.coins, coinsPerDollar)} for reaching ${joinWords(paid.levels)}`
    : `You got ${coinsAndDollars(paid.coins, coinsPerDollar)} for today's goal`;
  return withState(what, state);
}

/**
 * A claim from Home or the Levels page: back to `backTo` with what was paid, or the words of the
 * rule that refused it (nothing paid).
 */
export async function claimReward(
  userId: string,
  form: { intent: "claim-level" } | { intent: "claim-goal"; goalId: string },
  backTo: string,
): Promise<Response | string> {
  const result =
    form.intent === "claim-level" ? await claimLevelBonuses(userId) : await claimDailyGoal(userId, form.goalId);
  // A refusal the catalogue does not word is a broken contract: the generic words, and it is logged.
  if (!result.paid) {
    if (isRuleKey(result.refused)) return ruleMessage(result.refused);
    console.error(`claim: unknown refusal ${JSON.stringify(result.refused)}`);
    return "Please try again later.";
  }
  const [state, config] = await Promise.all([creditedBonusState(userId), getAppConfig()]);
  return redirectWithFlash(backTo, {
    kind: "success",
    title: form.intent === "claim-level" ? "Level bonus claimed" : "Goal bonus claimed",
    description: claimedWords(result, config.coins_per_dollar, state),
  });
}
