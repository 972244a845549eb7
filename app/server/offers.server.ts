import { fallbackTasks, isListableOffer, offerToTask, type ExternalOffer, type Task } from "~/domain/tasks";
import { memoize } from "./cache.server";
import { getEnv } from "./env.server";

// Spec §7: offers are fresh for 5 minutes. While the provider is failing, the fallback list is
// kept for 30 seconds so that pages stay fast and the provider is tried again soon.
const OFFERS_TTL_MS = 5 * 60 * 1000;
const FALLBACK_TTL_MS = 30 * 1000;
// Both tries together: a provider that accepts and never answers holds Home and Earn this long
// before they show the fallback list (tests/resilience/outages.test.ts: within 3 s).
const PROVIDER_DEADLINE_MS = 1_500;

/** The configured offer provider when `name` is it (the {provider} of /api/{provider}/...), else null. */
export function configuredProvider(name: string | undefined) {
  const provider = getEnv().offerProvider;
  return provider && provider.name === name ? provider : null;
}

export interface TaskList {
  tasks: Task[];
  /** "fallback" when no provider is configured or it failed (spec §7). */
  source: "provider" | "fallback";
  /** The provider's offers as it sent them (empty for the fallback list). */
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

const FALLBACK: () => TaskList = () => ({ tasks: fallbackTasks(), source: "fallback", offers: [] });

/**
 * Offers from the configured provider (one retry, both within PROVIDER_DEADLINE_MS), cached 5
 * minutes; else the spec's fallback list.
 */
const taskList = memoize<TaskList>(
  (list) => (list.source === "provider" || !getEnv().offerProvider ? OFFERS_TTL_MS : FALLBACK_TTL_MS),
  async () => {
    const provider = getEnv().offerProvider;
    if (!provider) return FALLBACK();
    const deadline = AbortSignal.timeout(PROVIDER_DEADLINE_MS);
    for (let attempt = 1; attempt <= 2 && !deadline.aborted; attempt++) {
      try {
        const offers = await fetchProviderOffers(provider.apiUrl, provider.apiKey, deadline);
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
