import { getDatabase } from "./database.server";

/**
 * Live refresh (spec §4): the database announces each completed_tasks insert with
 * pg_notify('completed_tasks', user_id); this process listens once and tells that user's open pages.
 */
const CHANNEL = "completed_tasks";
const RETRY_MS = 5_000;

type Notify = () => void;

interface LiveState {
  subscribers: Map<string, Set<Notify>>;
  listening: Promise<boolean> | null;
}

// On globalThis so that `remix dev` rebuilds keep one listener.
const store = globalThis as typeof globalThis & { __liveState?: LiveState };
const state: LiveState = (store.__liveState ??= { subscribers: new Map(), listening: null });

function ensureListening(): Promise<boolean> {
  state.listening ??= (async () => {
    const db = await getDatabase();
    if (!db.listen) return false;
    await db.listen(
      CHANNEL,
      (userId) => state.subscribers.get(userId)?.forEach((notify) => notify()),
      () => {
        // The connection dropped: listen again shortly (pages keep their EventSource open).
        state.listening = null;
        setTimeout(() => void ensureListening(), RETRY_MS);
      },
    );
    return true;
  })().catch((error: unknown) => {
    console.error("live refresh: cannot listen:", error);
    setTimeout(() => (state.listening = null), RETRY_MS);
    return false;
  });
  return state.listening;
}

/** Calls `notify` whenever one of the user's tasks is recorded as completed; returns an unsubscribe. */
export async function subscribeToCompletions(
  userId: string,
  notify: Notify,
): Promise<{ live: boolean; unsubscribe: () => void }> {
  const live = await ensureListening();
  let set = state.subscribers.get(userId);
  if (!set) state.subscribers.set(userId, (set = new Set()));
  set.add(notify);
  return {
    live,
    unsubscribe: () => {
      set.delete(notify);
      if (set.size === 0) state.subscribers.delete(userId);
    },
  };
}
