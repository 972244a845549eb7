import { FEED_SIZE, type FeedItem } from "~/domain/cashout-feed";
import { feedAction } from "~/domain/cashout-feed-words";
import { getDatabase } from "../db/database.server";
import { memoize } from "../runtime/cache.server";
import { getEnv } from "../runtime/env.server";

// The live feed of recent cash-outs (docs/decisions/098): one copy per server, read again every
// CASHOUT_FEED_REFRESH_SECONDS, whatever the number of pages showing it; open pages are sent the
// new list when it changes (live-events.server.ts).

interface Feed {
  items: FeedItem[];
  /** The items' ids in order: what tells a changed list from the same one. */
  key: string;
}

const feed = memoize<Feed>(
  () => getEnv().cashoutFeedRefreshMs,
  async () => {
    const rows = await (await getDatabase()).rpc<Omit<FeedItem, "action">[]>("cashout_feed", { p_limit: FEED_SIZE });
    const items = rows.map((row) => ({ ...row, action: feedAction(row) }));
    return { items, key: items.map((item) => item.id).join() };
  },
);

/** The feed as Home and Withdraw show it. */
export async function getCashoutFeed(): Promise<FeedItem[]> {
  return (await feed.get()).items;
}

/** Whether the person's cash-outs show in the feed (Settings). */
export async function inCashoutFeed(userId: string): Promise<boolean> {
  return (await (await getDatabase()).rpc<boolean | null>("in_cashout_feed", { p_user_id: userId })) ?? true;
}

/** A person joined or left the feed: this server reads it again at once (the others within the refresh). */
export async function setInCashoutFeed(userId: string, inFeed: boolean): Promise<void> {
  await (await getDatabase()).rpc("set_in_cashout_feed", { p_user_id: userId, p_in_feed: inFeed });
  feed.clear();
}

type Listener = (items: FeedItem[]) => void;
const store = globalThis as typeof globalThis & {
  __feedListeners?: Set<Listener>;
  __feedPoll?: ReturnType<typeof setInterval> | null;
  __feedKey?: string | null;
};
const listeners = (store.__feedListeners ??= new Set());

async function poll() {
  try {
    // Read anew, not the copy pages share: a page's read just before this tick would keep that copy
    // fresh past it, and a new cash-out would reach open pages one tick late. Pages get this read.
    feed.clear();
    const { items, key } = await feed.get();
    if (store.__feedKey === undefined || store.__feedKey === null) {
      store.__feedKey = key;
      return;
    }
    if (key === store.__feedKey) return;
    store.__feedKey = key;
    for (const listener of [...listeners]) listener(items);
  } catch (error) {
    console.error("cash-out feed: could not read it:", error instanceof Response ? `HTTP ${error.status}` : error);
  }
}

/**
 * Calls `listener` with the new list whenever the feed changes, while it is subscribed. One poll a
 * process, at the feed's refresh interval, only while some page listens: what it returns stops it.
 */
export function subscribeToCashoutFeed(listener: Listener): () => void {
  listeners.add(listener);
  if (!store.__feedPoll) {
    store.__feedKey = null;
    store.__feedPoll = setInterval(() => void poll(), Math.max(1_000, getEnv().cashoutFeedRefreshMs));
    store.__feedPoll.unref();
    void poll();
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && store.__feedPoll) {
      clearInterval(store.__feedPoll);
      store.__feedPoll = null;
    }
  };
}
