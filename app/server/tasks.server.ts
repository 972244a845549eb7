import { TASK_COMPLETION_DELAY_MS } from "~/domain/constants";
import { TASK_ID_PATTERN, type Task } from "~/domain/tasks";
import { getDatabase } from "./db/database.server";
import { listTasks, type TaskList } from "./offers.server";

/** The tasks with the signed-in user's completed ones marked. */
export async function listTasksForUser(userId: string): Promise<TaskList> {
  const db = await getDatabase();
  const [list, completed] = await Promise.all([
    listTasks(),
    db.rpc<string[]>("get_completed_task_ids", { p_user_id: userId }),
  ]);
  const done = new Set(completed);
  return { ...list, tasks: list.tasks.map((task) => ({ ...task, completed: done.has(task.id) })) };
}

/** A task the server lists now; the browser cannot name a task (or a reward) of its own. */
export async function findTask(taskId: string): Promise<Task | null> {
  if (!TASK_ID_PATTERN.test(taskId)) return null;
  return (await listTasks()).tasks.find((task) => task.id === taskId) ?? null;
}

export async function startTask(userId: string, task: Task) {
  const db = await getDatabase();
  return db.rpc<{ task_id: string; already_completed: boolean; started_at?: string }>("start_task", {
    p_user_id: userId,
    p_task_id: task.id,
    p_title: task.title,
    p_reward: task.reward,
  });
}

/** Spec §4: the completion counts only 5 seconds after the start; the database enforces it. */
export async function completeTask(userId: string, taskId: string) {
  const db = await getDatabase();
  return db.rpc<{ success: boolean; task_id: string; reward: number; balance?: number }>("complete_task", {
    p_user_id: userId,
    p_task_id: taskId,
    p_min_seconds: TASK_COMPLETION_DELAY_MS / 1000,
  });
}
