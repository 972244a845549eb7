import type { DbCall } from "./core.server";
import { getDatabase } from "./database.server";

type ResultOf<C> = C extends DbCall<infer T> ? T : null;
type Answers<Calls extends readonly (DbCall<unknown> | null)[]> = { [K in keyof Calls]: Promise<ResultOf<Calls[K]>> };

/**
 * What the loaders of one request have in common: Remix hands each its own Request but all of them
 * the same load context object, which is what this is.
 */
export type RequestScope = object;

interface Waiting {
  calls: DbCall<unknown>[];
  settle: { resolve: (value: unknown) => void; reject: (reason: unknown) => void }[];
}
const waitingByRequest = new WeakMap<RequestScope, Waiting>();

/**
 * A page's reads in one round trip instead of one each (a page's cost is mostly its round trips).
 * Each answer is its own promise, so a page still shows what loaded: when the statement fails
 * for any reason but an outage (a 503 for all), each call is run again alone and fails or
 * succeeds on its own. A null stands for a section the page does not show; it answers null.
 *
 * With `scope` (the request's load context), the reads every loader of the request asks for in the
 * same turn of the event loop go together: the root's notices and the page's reads are one
 * statement. They are sent once the turn's other work is done (setImmediate), when the loaders
 * running side by side have all asked; a read asked later goes in a statement of its own.
 */
export function readTogether<const Calls extends readonly (DbCall<unknown> | null)[]>(
  calls: Calls,
  scope?: RequestScope,
): Answers<Calls> {
  const wanted = calls.filter((call): call is DbCall<unknown> => call !== null);
  const sent = scope === undefined ? send(wanted) : join(scope, wanted);
  let position = 0;
  return calls.map((call) => (call === null ? Promise.resolve(null) : sent[position++])) as Answers<Calls>;
}

/** `calls` as one statement now: each call's answer. */
function send(calls: readonly DbCall<unknown>[]): Promise<unknown>[] {
  if (calls.length === 0) return [];
  const batch = getDatabase().then((db) => db.rpcBatch(calls));
  return calls.map((call, index) => {
    const answer = batch.then(
      (results) => results[index],
      async (error: unknown) => {
        if (error instanceof Response) throw error;
        return (await getDatabase()).rpc(call.fn, call.args);
      },
    );
    // A page that fails early leaves some answers unread: not an unhandled rejection.
    answer.catch(() => {});
    return answer;
  });
}

/** `calls` added to what the request's loaders send together at the end of this turn. */
function join(scope: RequestScope, calls: readonly DbCall<unknown>[]): Promise<unknown>[] {
  if (calls.length === 0) return [];
  let waiting = waitingByRequest.get(scope);
  if (!waiting) {
    const group: Waiting = { calls: [], settle: [] };
    waitingByRequest.set(scope, group);
    setImmediate(() => {
      waitingByRequest.delete(scope);
      send(group.calls).forEach((answer, index) => {
        const { resolve, reject } = group.settle[index]!;
        answer.then(resolve, reject);
      });
    });
    waiting = group;
  }
  const joined = waiting;
  return calls.map((call) => {
    joined.calls.push(call);
    const answer = new Promise<unknown>((resolve, reject) => joined.settle.push({ resolve, reject }));
    answer.catch(() => {});
    return answer;
  });
}

/** One call on its own. */
export async function read<T>(call: DbCall<T>): Promise<T> {
  return (await getDatabase()).rpc<T>(call.fn, call.args);
}

/**
 * A part of a page that may fail on its own: its data, or null (logged) so that the rest of the
 * page still shows, each section with its own failure state. A thrown Response (the database or
 * Firebase unreachable: the 503 page; a session that ended: sign-in) is the whole page's answer
 * and passes through.
 */
export async function optionalSection<T>(what: string, load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error(`${what} failed to load:`, error);
    return null;
  }
}
