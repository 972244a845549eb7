// The forms of levels, daily goals and promo codes (buttons, checked by the server only): apart from
// app/domain/rewards.ts so that pages showing levels and goals do not ship zod.
import { literal, object, regex, string } from "zod/mini";

const GOAL_GONE = "That goal is not one of today's. Today's goals are on Home.";

/** "Claim" on the level card (Home) and the Levels page: every level bonus reached and not paid. */
export const claimLevelFormSchema = object({ intent: literal("claim-level") });

/** "Claim" beside one of today's goals, by its id in app_config.daily_goals. */
export const claimGoalFormSchema = object({
  intent: literal("claim-goal"),
  goalId: string(GOAL_GONE).check(regex(/^[a-z0-9-]{1,32}$/, GOAL_GONE)),
});

export const PROMO_CODE_FORMAT = "Enter the code as it was given: 4 to 20 letters and digits.";

/** "Redeem" of a promo code on Earn (docs/decisions/095): letters and digits, any case, spaces around allowed. */
export const redeemCodeFormSchema = object({
  intent: literal("redeem-code"),
  code: string(PROMO_CODE_FORMAT).check(regex(/^\s*[A-Za-z0-9]{4,20}\s*$/, PROMO_CODE_FORMAT)),
});
