import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

// The embedded database on a thread of its own (docs/decisions/102). PGlite runs Postgres as
// WebAssembly, and a statement runs to its end before the thread that called it does anything
// else: on the server's main thread, every statement of every page stopped every other request.
// Here the main thread sends each statement to this thread and goes on serving; the two share the
// machine's cores as the app and a Postgres server do.

// What runs on that thread: plain JavaScript, kept in this module (no second bundle to build). It
// opens PGlite, answers each message in order, and reports each NOTIFY on a channel it listens to.
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const failure = (error) => ({
  message: error && typeof error.message === "string" ? error.message : String(error),
  code: error && typeof error.code === "string" ? error.code : undefined,
  detail: error && typeof error.detail === "string" ? error.detail : undefined,
  hint: error && typeof error.hint === "string" ? error.hint : undefined,
});
(async () => {
  const { PGlite } = require(workerData.entry);
  const pglite = await PGlite.create(workerData.dataDir);
  const unlisten = new Map();
  parentPort.on("message", async ({ id, op, sql, values, channel }) => {
    try {
      if (op === "query") {
        const { rows } = await pglite.query(sql, values);
        parentPort.postMessage({ id, rows });
      } else if (op === "exec") {
        await pglite.exec(sql);
        parentPort.postMessage({ id });
      } else if (op === "listen") {
        unlisten.set(id, await pglite.listen(channel, (payload) => parentPort.postMessage({ listener: id, payload })));
        parentPort.postMessage({ id });
      } else if (op === "unlisten") {
        const stop = unlisten.get(channel);
        unlisten.delete(channel);
        if (stop) await stop();
        parentPort.postMessage({ id });
      } else if (op === "close") {
        await pglite.close();
        parentPort.postMessage({ id });
        parentPort.close();
      }
    } catch (error) {
      parentPort.postMessage({ id, error: failure(error) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((error) => parentPort.postMessage({ openFailed: failure(error) }));
`;

interface ThreadFailure {
  message: string;
  code?: string;
  detail?: string;
  hint?: string;
}

type Reply =
  | { ready: true }
  | { openFailed: ThreadFailure }
  | { listener: number; payload: string }
  | { id: number; rows?: unknown[]; error?: ThreadFailure };

/** An error as the drivers give it (message, SQLSTATE code, detail, hint), for `toDbError`. */
function asError(failure: ThreadFailure): Error {
  return Object.assign(new Error(failure.message), { code: failure.code, detail: failure.detail, hint: failure.hint });
}

/** The message `toDbError` takes for "unavailable" (core.server.ts), as PGlite's own. */
const CLOSED = "PGlite is closed";

/** One connection to PGlite running on its own thread: statements are run one at a time, in order. */
export interface PgliteThread {
  query(sql: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(sql: string): Promise<void>;
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface PgliteThreadOptions {
  /** The thread's JavaScript heap, in MB (Node's default when not given; the tests make it small
   * to end a thread as a runaway result would). */
  heapLimitMb?: number;
  /** Called once if the thread ends after it opened without `close()` having been called. */
  onLost?: (error?: Error) => void;
}

export async function openPgliteThread(dataDir: string, options: PgliteThreadOptions = {}): Promise<PgliteThread> {
  // The CommonJS build: the thread's script is a CommonJS script, resolved from this module.
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { dataDir, entry },
    resourceLimits: options.heapLimitMb ? { maxOldGenerationSizeMb: options.heapLimitMb } : undefined,
  });
  const waiting = new Map<number, { resolve: (reply: { rows?: unknown[] }) => void; reject: (error: Error) => void }>();
  const listeners = new Map<number, (payload: string) => void>();
  let nextId = 1;
  let closed = false;
  let opened = false;
  let closing = false;
  // The thread keeps the process alive only while a statement is under way: a command that is
  // done exits even if it never closed the database, as it did with PGlite on its own thread.
  worker.unref();

  const ready = new Promise<void>((resolve, reject) => {
    worker.on("message", (reply: Reply) => {
      if ("ready" in reply) return resolve();
      if ("openFailed" in reply) return reject(asError(reply.openFailed));
      if ("listener" in reply) return listeners.get(reply.listener)?.(reply.payload);
      const settle = waiting.get(reply.id);
      if (!settle) return;
      waiting.delete(reply.id);
      if (waiting.size === 0) worker.unref();
      if (reply.error) settle.reject(asError(reply.error));
      else settle.resolve(reply);
    });
    // The thread is gone (it failed, or was closed): everything waiting fails as "unavailable".
    const gone = (error?: Error) => {
      if (closed) return;
      closed = true;
      if (error) console.error("pglite thread failed:", error.message);
      for (const settle of waiting.values()) settle.reject(new Error(CLOSED));
      waiting.clear();
      reject(error ?? new Error(CLOSED));
      if (opened && !closing) options.onLost?.(error);
    };
    worker.on("error", gone);
    worker.on("exit", () => gone());
  });

  const send = (message: { op: string; sql?: string; values?: unknown[]; channel?: string | number }) => {
    if (closed) return Promise.reject(new Error(CLOSED));
    const id = nextId++;
    if (waiting.size === 0) worker.ref();
    return new Promise<{ rows?: unknown[] }>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      try {
        worker.postMessage({ id, ...message });
      } catch (error) {
        // A value that cannot be sent (DataCloneError): this statement fails, nothing waits on it.
        waiting.delete(id);
        if (waiting.size === 0) worker.unref();
        throw error;
      }
    }).then((reply) => ({ id, rows: reply.rows ?? [] }));
  };

  await ready.catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });
  opened = true;

  return {
    query: async (sql, values = []) => ({ rows: (await send({ op: "query", sql, values })).rows }),
    exec: async (sql) => void (await send({ op: "exec", sql })),
    async listen(channel, onMessage) {
      // The listener's id is the id of the message that asked for it.
      const id = nextId;
      listeners.set(id, onMessage);
      try {
        await send({ op: "listen", channel });
      } catch (error) {
        listeners.delete(id);
        throw error;
      }
      return async () => {
        listeners.delete(id);
        if (!closed) await send({ op: "unlisten", channel: id });
      };
    },
    async close() {
      if (closed) return;
      closing = true;
      await send({ op: "close" }).catch(() => {});
      closed = true;
      await worker.terminate();
    },
  };
}
