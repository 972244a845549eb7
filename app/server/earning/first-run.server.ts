// The first-run hook (docs/decisions/096): the most the offers listed now pay, from the task list
// Earn shows (cached, app/server/earning/provider-offers.server.ts).
import { firstOfferLine } from "~/domain/first-run";
import { getAppConfig } from "../runtime/config.server";
import { listTasks } from "./provider-offers.server";

/** "Your first offer can pay up to 250 coins ($2.50).", or null when no offer is listed or the list cannot be read. */
export async function firstOfferWords(): Promise<string | null> {
  try {
    const [list, config] = await Promise.all([listTasks(), getAppConfig()]);
    const best = list.tasks.reduce((most, task) => Math.max(most, task.reward), 0);
    return firstOfferLine(best, config.coins_per_dollar);
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("first offer: the task list failed to load:", error);
    return null;
  }
}
