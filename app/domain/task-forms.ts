// The task forms' schemas, apart from app/domain/tasks.ts so that pages listing tasks do not ship
// zod: these forms are buttons, checked by the server only.
import { literal, object, regex, string } from "zod/mini";
import { TASK_ID_PATTERN } from "./tasks";

const TASK_GONE = "This task is no longer available";
const taskId = string(TASK_GONE).check(regex(TASK_ID_PATTERN, TASK_GONE));

/** The task dialog's forms on Earn: Start Task, then Complete Task (app/routes/earn/earn-forms.ts). */
export const startTaskForm = object({ intent: literal("start"), taskId });
export const completeTaskForm = object({ intent: literal("complete"), taskId });

/** A quick task's Start (or Watch) button on Home. */
export const quickStartFormSchema = object({ intent: literal("start-task"), taskId });

/** POST /api/{provider}/complete: which task (the user comes from the session). */
export const completeTaskRequestSchema = object({ taskId });
