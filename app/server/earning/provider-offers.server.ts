import { fallbackTasks, isListableOffer, offerToTask, type ExternalOffer, type Task } from "~/domain/tasks";
import { memoize } from "../runtime/cache.server";
import { getEnv } from "../runtime/env.server";

// docs/product.md, "Earn: the rules": offers are fresh for 5 minutes (OFFER_REFRESH_SECONDS). While the provider is failing,
// what is served (the last good list, or nothing) is kept for 30 seconds at most, so pages stay
// fast and the provider is tried again soon. The fallback list has nothing to refresh.
const FALLBACK_TTL_MS = 5 * 60 * 1000;
const RETRY_TTL_MS = 30 * 1000;
// Both tries together: a provider that accepts and never answers holds Home and Earn this long
// before they show the last good list (tests/resilience/outages.test.ts: within 3 s).
const PROVIDER_DEADLINE_MS = 1_500;

/**
 * `load` tried twice, both within PROVIDER_DEADLINE_MS, each failure logged after `label`; null
 * when neither succeeded. The offer walls' catalogues are fetched the same way (walls/offers.server.ts).
 */
export async function fetchWithinDeadline<T>(
  label: string,
  load: (signal: AbortSignal) => Promise<T>,
): Promise<T | null> {
  const deadline = AbortSignal.timeout(PROVIDER_DEADLINE_MS);
  for (let attempt = 1; attempt <= 2 && !deadline.aborted; attempt++) {
    try {
      return await load(deadline);
    } catch (error) {
      console.error(`${label}, attempt ${attempt}:`, (error as Error).message);
    }
  }
  return null;
}

/** How long a fetched list is served: `refreshMs` when fresh; while its source fails, RETRY_TTL_MS at most, so it is tried again soon. */
export const servedForMs = (fresh: boolean, refreshMs: number) =>
  fresh ? refreshMs : Math.min(refreshMs, RETRY_TTL_MS);

/** The configured offer provider when `name` is it (the {provider} of /api/{provider}/...), else null. */
export function configuredProvider(name: string | undefined) {
  const provider = getEnv().offerProvider;
  return provider && provider.name === name ? provider : null;
}

export interface TaskList {
  tasks: Task[];
  /**
   * "fallback": no provider is configured, the spec's own tasks (docs/product.md, "Earn: the tasks"). "provider": the provider's
   * offers, fresh or the last good list while it fails. "unavailable": a provider is configured and
   * no list of its offers has been had yet (no tasks: the fallback tasks never stand in for it).
   */
  source: "provider" | "fallback" | "unavailable";
  /** The provider's offers as it sent them (empty otherwise). */
  offers: ExternalOffer[];
}

async function fetchProviderOffers(
  apiUrl: string,
  apiKey: string | null,
  signal: AbortSignal,
): Promise<ExternalOffer[]> {
  const response = await fetch(apiUrl, {
    headers: { accept: "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    signal,
  });
  if (!response.ok) throw new Error(`Offer provider answered ${response.status}`);
  const payload = (await response.json()) as { offers?: ExternalOffer[] } | ExternalOffer[];
  const offers = Array.isArray(payload) ? payload : payload.offers;
  if (!Array.isArray(offers)) throw new Error("Offer provider sent no offers array");
  // An offer worth more than MAX_REWARD_COINS is a provider's mistake: not listed, so never started.
  return offers.filter(isListableOffer);
}

const FALLBACK = (): TaskList => ({ tasks: fallbackTasks(), source: "fallback", offers: [] });
const UNAVAILABLE = (): TaskList => ({ tasks: [], source: "unavailable", offers: [] });

/**
 * The provider's last good list, by provider name. A stalled or failing refresh keeps serving it:
 * switching to the fallback list would switch payment rules (fallback tasks pay after five
 * seconds, the provider's offers only by its postback), so one stalled fetch made tasks pay that
 * nobody confirmed.
 */
let lastGood: { provider: string; list: TaskList } | null = null;

/**
 * Offers from the configured provider (one retry, both within PROVIDER_DEADLINE_MS), cached 5
 * minutes (OFFER_REFRESH_SECONDS); while it fails, its last good list (or none), tried again after 30 seconds. Without a
 * provider, the spec's fallback list.
 */
const taskList = memoize<{ list: TaskList; fresh: boolean }>(
  (loaded) => {
    const refreshMs = getEnv().offerProvider?.refreshMs;
    if (refreshMs === undefined) return FALLBACK_TTL_MS;
    return servedForMs(loaded.fresh, refreshMs);
  },
  async () => {
    const provider = getEnv().offerProvider;
    if (!provider) return { list: FALLBACK(), fresh: true };
    const offers = await fetchWithinDeadline(`offer provider ${provider.name}`, (signal) =>
      fetchProviderOffers(provider.apiUrl, provider.apiKey, signal),
    );
    if (offers) {
      const list: TaskList = { tasks: offers.map(offerToTask), source: "provider", offers };
      lastGood = { provider: provider.name, list };
      return { list, fresh: true };
    }
    const kept = lastGood?.provider === provider.name ? lastGood.list : null;
    return { list: kept ?? UNAVAILABLE(), fresh: false };
  },
);

export async function listTasks(): Promise<TaskList> {
  return (await taskList.get()).list;
}

/** Forgets every list, the last good one included (tests). */
export function clearTaskCache() {
  taskList.clear();
  lastGood = null;
}
