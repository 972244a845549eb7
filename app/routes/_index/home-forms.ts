import { discriminatedUnion } from "zod/mini";
import { checkinFormSchema } from "~/domain/checkin";
import { quickStartFormSchema } from "~/domain/task-forms";
import { sendVerificationFormSchema } from "~/domain/verification-form";

/** Home's forms, read by its action: the daily check-in, a quick task's Start and "Send verification email". */
export const homeFormSchema = discriminatedUnion("intent", [
  checkinFormSchema,
  quickStartFormSchema,
  sendVerificationFormSchema,
]);
