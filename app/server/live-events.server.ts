import { subscribeToCompletions } from "./db/live.server";

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

// Per user, a close function for each open stream, oldest first (a Set keeps insertion order).
// On globalThis so that `remix dev` rebuilds still count the streams opened before.
const store = globalThis as typeof globalThis & { __liveStreams?: Map<string, Set<() => void>> };
const openStreams = (store.__liveStreams ??= new Map());

function track(userId: string, close: () => void) {
  let streams = openStreams.get(userId);
  if (!streams) openStreams.set(userId, (streams = new Set()));
  streams.add(close);
  for (const oldest of streams) {
    if (streams.size <= MAX_STREAMS_PER_USER) break;
    oldest();
  }
}

function forget(userId: string, close: () => void) {
  const streams = openStreams.get(userId);
  if (!streams?.delete(close)) return;
  if (streams.size === 0) openStreams.delete(userId);
}

/**
 * The server-sent events of one open page of the user: "task-completed" whenever one of their tasks
 * is recorded, and a comment every 25 s so that proxies keep the connection. Whichever way the stream
 * ends (the request aborted, even before the stream started; the reader cancelled; a failed write; a
 * newer stream of the same user over the cap), everything it holds is released once: heartbeat,
 * subscription, abort listener and its place among the user's streams.
 */
export function completionEventStream(userId: string, signal: AbortSignal): ReadableStream<Uint8Array> {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let finished = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: (() => void) | undefined;

  const finish = () => {
    if (finished) return;
    finished = true;
    signal.removeEventListener("abort", finish);
    clearInterval(heartbeat);
    unsubscribe?.();
    forget(userId, evict);
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

  // Over the cap: tell the page it was replaced by a newer one, so its EventSource stops
  // reconnecting (which would in turn evict the next oldest page, round and round).
  const evict = () => {
    send("event: replaced\ndata: {}\n\n");
    finish();
  };

  return new ReadableStream<Uint8Array>({
    // Runs synchronously in the constructor, so the abort listener is in place before anything is awaited.
    async start(c) {
      controller = c;
      if (signal.aborted) return finish();
      signal.addEventListener("abort", finish, { once: true });
      track(userId, evict);
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
      heartbeat = setInterval(() => send(": keep-alive\n\n"), HEARTBEAT_MS);
      send(`retry: ${RECONNECT_MS}\n\n`);
    },
    cancel: finish,
  });
}
