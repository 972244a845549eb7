import { TASK_COMPLETION_DELAY_MS } from "~/domain/constants";
import { TASK_ID_PATTERN, type Task } from "~/domain/tasks";
import { dbCall } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { read } from "../db/reads.server";
import { getEnv } from "../runtime/env.server";
import { listTasks, type TaskList } from "./provider-offers.server";

/** The user's completed tasks: credited, or waiting for the provider's postback. */
export function taskCompletionsCall(userId: string) {
  return dbCall<Record<string, "pending" | "credited">>("get_task_completions", { p_user_id: userId });
}

/**
 * The tasks with the signed-in user's completed ones marked (and those waiting for the provider);
 * `completions`: their read, if already under way with the page's other reads.
 */
export async function listTasksForUser(
  userId: string,
  completions: Promise<Record<string, "pending" | "credited">> = read(taskCompletionsCall(userId)),
): Promise<TaskList> {
  const [list, completed] = await Promise.all([listTasks(), completions]);
  return {
    ...list,
    tasks: list.tasks.map((task) => {
      const status = Object.hasOwn(completed, task.id) ? completed[task.id] : undefined;
      return { ...task, completed: status !== undefined, pending: status === "pending" };
    }),
  };
}

/** A listed task and who pays it: the offer provider's name for its offers, null for the app's own tasks. */
export type FoundTask = Task & { provider: string | null };

/** A task the server lists now; the browser cannot name a task (or a reward, or a source) of its own. */
export async function findTask(taskId: string): Promise<FoundTask | null> {
  if (!TASK_ID_PATTERN.test(taskId)) return null;
  const list = await listTasks();
  const task = list.tasks.find((candidate) => candidate.id === taskId);
  if (!task) return null;
  return { ...task, provider: list.source === "provider" ? (getEnv().offerProvider?.name ?? null) : null };
}

/** Notes the start (and the reward and source the server chose); a provider offer is paid by its postback only. */
export async function startTask(userId: string, task: FoundTask) {
  const db = await getDatabase();
  return db.rpc<{ task_id: string; already_completed: boolean; status?: "pending" | "credited"; started_at?: string }>(
    "start_task",
    { p_user_id: userId, p_task_id: task.id, p_title: task.title, p_reward: task.reward, p_provider: task.provider },
  );
}

export type CompletionResult = {
  success: boolean;
  task_id: string;
  /** Coins paid now: 0 for a repeat, and for a provider offer (paid by its postback). */
  reward: number;
  /** A provider offer waiting for the provider's confirmation. */
  pending: boolean;
  /** What a pending provider offer is listed at. */
  expected_reward?: number;
  /** The person's identity was paid for this task before, under another account (docs/decisions/064). */
  already_rewarded?: boolean;
  balance?: number;
};

/**
 * docs/product.md, "Earn: the rules": the completion counts only 5 seconds after the start; the database enforces it. The
 * app's own tasks pay then (only while no provider is configured); a provider offer is recorded as
 * pending until the provider's postback.
 */
export async function completeTask(userId: string, taskId: string) {
  const db = await getDatabase();
  return db.rpc<CompletionResult>("complete_task", {
    p_user_id: userId,
    p_task_id: taskId,
    p_min_seconds: TASK_COMPLETION_DELAY_MS / 1000,
    // With a provider configured only its postbacks pay: a start left from the fallback list is refused.
    p_pay_own_tasks: !getEnv().offerProvider,
  });
}

/** The person's start of a task not yet completed, with the database's clock; null without one (decision 069). */
export function taskStartCall(userId: string, taskId: string) {
  return dbCall<{ started_at: string; now: string } | null>("get_task_start", { p_user_id: userId, p_task_id: taskId });
}
