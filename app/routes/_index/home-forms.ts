import { discriminatedUnion } from "zod/mini";
import { checkinFormSchema } from "~/domain/checkin";
import { claimGoalFormSchema, claimLevelFormSchema } from "~/domain/reward-forms";
import { quickStartFormSchema } from "~/domain/task-forms";
import { sendVerificationFormSchema } from "~/domain/verification-form";

/**
 * Home's forms, read by its action: the daily check-in, a quick task's Start, "Send verification
 * email", and the claims of a level's bonus and of a daily goal.
 */
export const homeFormSchema = discriminatedUnion("intent", [
  checkinFormSchema,
  quickStartFormSchema,
  sendVerificationFormSchema,
  claimLevelFormSchema,
  claimGoalFormSchema,
]);
