import type { DbCall } from "./core.server";
import { getDatabase } from "./database.server";

type ResultOf<C> = C extends DbCall<infer T> ? T : null;

/**
 * A page's reads in one round trip instead of one each (a page's cost is mostly its round trips).
 * Each answer is its own promise, so a page still shows what loaded: when the statement fails
 * for any reason but an outage (a 503 for all), each call is run again alone and fails or
 * succeeds on its own. A null stands for a section the page does not show; it answers null.
 */
export function readTogether<const Calls extends readonly (DbCall<unknown> | null)[]>(
  calls: Calls,
): { [K in keyof Calls]: Promise<ResultOf<Calls[K]>> } {
  const wanted = calls.filter((call): call is DbCall<unknown> => call !== null);
  const batch = getDatabase().then((db) => db.rpcBatch(wanted));
  let position = 0;
  const answers = calls.map((call) => {
    if (call === null) return Promise.resolve(null);
    const index = position++;
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
  return answers as { [K in keyof Calls]: Promise<ResultOf<Calls[K]>> };
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
