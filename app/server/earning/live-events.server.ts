import { subscribeToCompletions } from "../db/live.server";
import { subscribeToCashoutFeed } from "./cashout-feed.server";

const HEARTBEAT_MS = 25_000;
const RECONNECT_MS = 5_000;

/**
 * Open event streams allowed per user in one process. Each holds a socket, a heartbeat timer and a
 * subscriber, so a client that reconnects faster than its old connections are noticed closed (or
 * opens page after page) must not pin them without bound. Five covers a person's few Home and Earn
 * tabs; when a sixth opens, the oldest is closed so that the newest tab keeps working.
 */
export const MAX_STREAMS_PER_USER = 5;

const encoder = new TextEncoder();

/**
 * The last event of a stream the server ends, after which the page must not reconnect: "replaced"
 * (a newer page of the same person took its place) or "signed-out" (the person's sessions ended).
 */
type EndEvent = "replaced" | "signed-out";
/** Ends a stream: with its last event, or with none (the server is shutting down: the page reconnects). */
type End = (event: EndEvent | null) => void;

// Per user, for each open stream the function that ends it, oldest first (a Set keeps insertion
// order). On globalThis so that `remix dev` rebuilds still count the streams opened before.
const store = globalThis as typeof globalThis & { __liveStreams?: Map<string, Set<End>>; __streamsClosed?: boolean };
const openStreams = (store.__liveStreams ??= new Map());

function track(userId: string, end: End) {
  let streams = openStreams.get(userId);
  if (!streams) openStreams.set(userId, (streams = new Set()));
  streams.add(end);
  for (const oldest of streams) {
    if (streams.size <= MAX_STREAMS_PER_USER) break;
    oldest("replaced");
  }
}

function forget(userId: string, end: End) {
  const streams = openStreams.get(userId);
  if (!streams?.delete(end)) return;
  if (streams.size === 0) openStreams.delete(userId);
}

/**
 * The server is shutting down: every open stream ends without an event, so that its page
 * reconnects (to another instance behind the load balancer), and new ones end at once.
 */
export function closeAllStreams(): void {
  store.__streamsClosed = true;
  for (const streams of [...openStreams.values()]) for (const end of [...streams]) end(null);
}

/** The person's sessions ended (log out, deactivation, deletion): their open pages are told so. */
export function endUserStreams(userId: string): void {
  for (const end of [...(openStreams.get(userId) ?? [])]) end("signed-out");
}

/**
 * The server-sent events of one open page of the user: "task-completed" whenever one of their tasks
 * is recorded, "cashout-feed" with the new list when the feed of recent cash-outs changes (`feed`:
 * the page shows it), a last "replaced" or "signed-out" when the server ends it, and a comment every 25 s
 * so that proxies keep the connection. Whichever way the stream ends (the request aborted, even
 * before the stream started; the reader cancelled; a failed write; a newer stream of the same user
 * over the cap; the user's sessions ended), everything it holds is released once: heartbeat,
 * subscription, abort listener and its place among the user's streams.
 */
export function completionEventStream(
  userId: string,
  signal: AbortSignal,
  { feed = false }: { feed?: boolean } = {},
): ReadableStream<Uint8Array> {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let finished = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: (() => void) | undefined;
  let unsubscribeFeed: (() => void) | undefined;

  const finish = () => {
    if (finished) return;
    finished = true;
    signal.removeEventListener("abort", finish);
    clearInterval(heartbeat);
    unsubscribe?.();
    unsubscribeFeed?.();
    forget(userId, end);
    try {
      controller?.close();
    } catch {
      // already closed, cancelled or errored
    }
  };

  const send = (text: string) => {
    if (finished) return;
    try {
      controller?.enqueue(encoder.encode(text));
    } catch {
      finish();
    }
  };

  // The page is told why, so that its EventSource stops reconnecting: a replaced page would in
  // turn evict the next oldest one, round and round; a signed-out one would knock in vain.
  const end: End = (event) => {
    if (event) send(`event: ${event}\ndata: {}\n\n`);
    finish();
  };

  return new ReadableStream<Uint8Array>({
    // Runs synchronously in the constructor, so the abort listener is in place before anything is awaited.
    async start(c) {
      controller = c;
      if (signal.aborted || store.__streamsClosed) return finish();
      signal.addEventListener("abort", finish, { once: true });
      track(userId, end);
      let subscription: Awaited<ReturnType<typeof subscribeToCompletions>>;
      try {
        subscription = await subscribeToCompletions(userId, () => send("event: task-completed\ndata: {}\n\n"));
      } catch (error) {
        finish();
        throw error;
      }
      // Closed while subscribing: nothing may outlive the stream.
      if (finished) return subscription.unsubscribe();
      unsubscribe = subscription.unsubscribe;
      // A page that shows the feed of recent cash-outs (Home, Withdraw) is sent each new list.
      if (feed) {
        unsubscribeFeed = subscribeToCashoutFeed((items) =>
          send(`event: cashout-feed\ndata: ${JSON.stringify(items)}\n\n`),
        );
      }
      heartbeat = setInterval(() => send(": keep-alive\n\n"), HEARTBEAT_MS);
      send(`retry: ${RECONNECT_MS}\n\n`);
    },
    cancel: finish,
  });
}
