import { getDatabase } from "./database.server";

/**
 * Notifications from the database (pg_notify), listened to once per process and channel:
 * `completed_tasks` (payload: the user id; the live refresh of open Home and Earn pages, docs/product.md, "App shell"),
 * `app_config` (the constants changed; cached copies are dropped), `user_notices` (wakes the
 * notification workers) and `sessions_ended` (payload: the user id; log out, deactivation or
 * deletion: every instance forgets that person's verified sessions and closes their streams).
 */
const RETRY_MS = 5_000;

/**
 * Called with each notification's payload, or with null when the channel is listened to again
 * after its connection was lost (a database restart): what was announced in between is unknown,
 * so everything counts as changed.
 */
type Handler = (payload: string | null) => void;

interface Channel {
  handlers: Set<Handler>;
  listening: Promise<boolean> | null;
  /** Listened to before: a later listen follows a gap in which notifications may have been missed. */
  listened?: boolean;
}

// On globalThis so that `remix dev` rebuilds keep one listener per channel.
const store = globalThis as typeof globalThis & { __liveChannels?: Map<string, Channel> };
const channels: Map<string, Channel> = (store.__liveChannels ??= new Map());

function ensureListening(name: string, channel: Channel): Promise<boolean> {
  channel.listening ??= (async () => {
    const db = await getDatabase();
    if (!db.listen) return false;
    await db.listen(
      name,
      (payload) => channel.handlers.forEach((handler) => handler(payload)),
      () => {
        // The connection dropped: listen again shortly (pages keep their EventSource open).
        channel.listening = null;
        setTimeout(() => void ensureListening(name, channel), RETRY_MS);
      },
    );
    if (channel.listened) channel.handlers.forEach((handler) => handler(null));
    channel.listened = true;
    return true;
  })().catch((error: unknown) => {
    console.error(
      `live refresh: cannot listen on ${name}:`,
      error instanceof Response ? `HTTP ${error.status}` : error,
    );
    // Keep trying while anyone listens (the database may be restarting).
    setTimeout(() => {
      channel.listening = null;
      if (channel.handlers.size > 0) void ensureListening(name, channel);
    }, RETRY_MS);
    return false;
  });
  return channel.listening;
}

/**
 * Calls `handler` with the payload of every `pg_notify(name, payload)`, and with null after a gap
 * (see Handler). `live` is false where the transport cannot listen (supabase-js) or the database
 * cannot be reached now.
 */
export async function subscribeToChannel(
  name: string,
  handler: Handler,
): Promise<{ live: boolean; unsubscribe: () => void }> {
  const channel = channelNamed(name);
  channel.handlers.add(handler);
  return { live: await ensureListening(name, channel), unsubscribe: () => channel.handlers.delete(handler) };
}

function channelNamed(name: string): Channel {
  let channel = channels.get(name);
  if (!channel) channels.set(name, (channel = { handlers: new Set(), listening: null }));
  return channel;
}

type Notify = () => void;

// Completions are fanned out per user, so a notification costs the same however many pages are open.
const storeCompletions = globalThis as typeof globalThis & {
  __completionSubscribers?: Map<string, Set<Notify>>;
  __completionDispatch?: Handler;
};
const completionSubscribers: Map<string, Set<Notify>> = (storeCompletions.__completionSubscribers ??= new Map());
const completions = channelNamed("completed_tasks");
// One dispatcher, kept across `remix dev` rebuilds (adding the same function twice is a no-op).
// After a gap every open page is told to refresh: its completions may have been missed.
completions.handlers.add(
  (storeCompletions.__completionDispatch ??= (userId) => {
    if (userId !== null) return completionSubscribers.get(userId)?.forEach((notify) => notify());
    for (const set of completionSubscribers.values()) set.forEach((notify) => notify());
  }),
);

/** Calls `notify` whenever one of the user's tasks is recorded as completed; returns an unsubscribe. */
export async function subscribeToCompletions(
  userId: string,
  notify: Notify,
): Promise<{ live: boolean; unsubscribe: () => void }> {
  // Tried again on every subscription while the database cannot listen.
  const live = await ensureListening("completed_tasks", completions);
  let set = completionSubscribers.get(userId);
  if (!set) completionSubscribers.set(userId, (set = new Set()));
  set.add(notify);
  const subscribed = set;
  return {
    live,
    unsubscribe: () => {
      subscribed.delete(notify);
      if (subscribed.size === 0) completionSubscribers.delete(userId);
    },
  };
}

/** Read-only, for tests and diagnostics: how many completion subscriptions are open, across all users. */
export function liveSubscriberCount(): number {
  let count = 0;
  for (const set of completionSubscribers.values()) count += set.size;
  return count;
}

const SESSIONS_ENDED = "sessions_ended";

/**
 * Calls `handler` with the user id whenever a person's sessions end on any instance (docs/security.md,
 * "Sessions"), and with null after a gap (anyone's may have ended). `live` is false where the
 * transport cannot listen: sessions then end everywhere only when the verification cache expires.
 */
export function subscribeToSessionEnds(handler: (userId: string | null) => void) {
  return subscribeToChannel(SESSIONS_ENDED, handler);
}

/** Tells every instance, this one included, that the user's sessions ended (sent on commit). */
export async function announceSessionsEnded(userId: string): Promise<void> {
  const db = await getDatabase();
  await db.rpc("announce_sessions_ended", { p_user_id: userId });
}
