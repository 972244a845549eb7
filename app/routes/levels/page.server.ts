import { claimLevelFormSchema } from "~/domain/reward-forms";
import { levelPerks, levelView, XP_EXPLAINED } from "~/domain/rewards";
import { capitalised } from "~/domain/text";
import { requireUser } from "~/server/auth/session.server";
import { read, type RequestScope } from "~/server/db/reads.server";
import { bannerErrors, parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import { claimReward, rewardsStatusCall } from "~/server/earning/rewards.server";
import { getAppConfig } from "~/server/runtime/config.server";

/**
 * The Levels page (docs/decisions/094): the person's level and XP, and every level with what it
 * pays (its level-up bonus and perks), the levels reached marked; "Claim" while a bonus waits.
 */
export async function loadLevels(request: Request, scope?: RequestScope) {
  const user = await requireUser(request, scope);
  const [status, config] = await Promise.all([read(rewardsStatusCall(user.uid)), getAppConfig()]);
  return {
    level: levelView(status, config.coins_per_dollar),
    explained: XP_EXPLAINED,
    levels: status.levels.map((level, index) => ({
      number: index + 1,
      name: level.name,
      xp: level.xp,
      perks: levelPerks(level, config.coins_per_dollar).map(capitalised),
      reached: index + 1 <= status.level,
      current: index + 1 === status.level,
      bonusClaimed: index + 1 <= status.level && level.bonus_coins > 0 && !status.unclaimed.includes(level.name),
    })),
  };
}

export async function levelsAction(request: Request) {
  const user = await requireUser(request);
  const submission = await parseForm(request, claimLevelFormSchema);
  if (submission.status !== "success") return rejectForm(submission, { formErrors: bannerErrors(submission) });
  try {
    const claimed = await claimReward(user.uid, submission.value, "/levels");
    return typeof claimed === "string" ? rejectForm(submission, { formErrors: [claimed] }) : claimed;
  } catch (error) {
    return replyWithDbError(submission, error, { fallback: "Please try again later.", context: "claim" });
  }
}
