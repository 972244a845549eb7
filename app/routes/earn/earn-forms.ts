import { discriminatedUnion } from "zod/mini";
import { redeemCodeFormSchema } from "~/domain/reward-forms";
import { completeTaskForm, startTaskForm } from "~/domain/task-forms";

/** Earn's forms, read by its action: a task's Start and Complete, and "Redeem" of a promo code. */
export const earnFormSchema = discriminatedUnion("intent", [startTaskForm, completeTaskForm, redeemCodeFormSchema]);
