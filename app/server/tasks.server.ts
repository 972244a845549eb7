import { fallbackTasks, offerToTask, TASK_ID_PATTERN, type ExternalOffer, type Task } from "~/domain/tasks";
import { TASK_COMPLETION_DELAY_MS } from "~/domain/constants";
import { memoize } from "./cache.server";
import { getDatabase } from "./db.server";
import { getEnv } from "./env.server";

// Spec §7: offers are fresh for 5 minutes. While the provider is failing, the fallback list is
// kept for 30 seconds so that pages stay fast and the provider is tried again soon.
const OFFERS_TTL_MS = 5 * 60 * 1000;
const FALLBACK_TTL_MS = 30 * 1000;
const PROVIDER_TIMEOUT_MS = 8_000;

export interface TaskList {
  tasks: Task[];
  /** "fallback" when no provider is configured or it failed (spec §7). */
  source: "provider" | "fallback";
  /** The provider's offers as it sent them (empty for the fallback list). */
  offers: ExternalOffer[];
}

async function fetchProviderOffers(apiUrl: string, apiKey: string | null): Promise<ExternalOffer[]> {
  const response = await fetch(apiUrl, {
    headers: { accept: "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`Offer provider answered ${response.status}`);
  const payload = (await response.json()) as { offers?: ExternalOffer[] } | ExternalOffer[];
  const offers = Array.isArray(payload) ? payload : payload.offers;
  if (!Array.isArray(offers)) throw new Error("Offer provider sent no offers array");
  return offers.filter((offer) => offer && offer.name && TASK_ID_PATTERN.test(String(offer.offer_id)));
}

/** Offers from the configured provider (one retry), cached 5 minutes; else the spec's fallback list. */
const FALLBACK: () => TaskList = () => ({ tasks: fallbackTasks(), source: "fallback", offers: [] });

const taskList = memoize<TaskList>(
  (list) => (list.source === "provider" || !getEnv().offerProvider ? OFFERS_TTL_MS : FALLBACK_TTL_MS),
  async () => {
    const provider = getEnv().offerProvider;
    if (!provider) return FALLBACK();
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        const offers = await fetchProviderOffers(provider.apiUrl, provider.apiKey);
        return { tasks: offers.map(offerToTask), source: "provider", offers };
      } catch (error) {
        console.error(`offer provider ${provider.name}, attempt ${attempt}:`, (error as Error).message);
      }
    }
    return FALLBACK();
  },
);

export function listTasks(): Promise<TaskList> {
  return taskList.get();
}

export function clearTaskCache() {
  taskList.clear();
}

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
