/**
 * What the payment rails' clients share (RazorpayX, Tremendous): reading their JSON, and one call
 * tried again on a network error, a 5xx or a 429. A retry sends the very same request, so the
 * rail's own idempotency (a key, an external_id) makes it one payment.
 */

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A non-empty string, or null. */
export const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

export function parseJson(raw: string): unknown {
  try {
    return raw === "" ? null : (JSON.parse(raw) as unknown);
  } catch {
    return null;
  }
}

export interface RailCallOptions {
  /** Tries per call, the first included; network errors, 5xx and 429 are tried again. */
  attempts?: number;
  backoffMs?: (retry: number) => number;
  sleep?: (ms: number) => Promise<void>;
  /** One request's time limit; one that runs out is a network error (and tried again). */
  timeoutMs?: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A caller of one rail's API at `baseUrl` with its `authorization`: each call returns the rail's
 * last answer (its status and JSON), ok or not; when the rail could not be reached on any try,
 * `unreachable` makes the error thrown.
 */
export function railCaller(
  baseUrl: string,
  authorization: string,
  options: RailCallOptions,
  unreachable: (what: string, cause: Error) => Error,
) {
  const attempts = Math.max(1, options.attempts ?? 3);
  const backoffMs = options.backoffMs ?? ((retry: number) => 500 * 2 ** (retry - 1));
  const sleep = options.sleep ?? defaultSleep;
  const timeoutMs = options.timeoutMs ?? 20_000;
  return async function call(
    what: string,
    method: "GET" | "POST",
    path: string,
    body?: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; ok: boolean; payload: unknown }> {
    for (let retry = 0; ; retry += 1) {
      let response: Response;
      try {
        response = await fetch(baseUrl + path, {
          method,
          headers: {
            accept: "application/json",
            authorization,
            ...(body !== undefined ? { "content-type": "application/json" } : {}),
            ...headers,
          },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        if (retry + 1 >= attempts) throw unreachable(what, error as Error);
        await sleep(backoffMs(retry + 1));
        continue;
      }
      const payload = parseJson(await response.text().catch(() => ""));
      const transient = response.status === 429 || response.status >= 500;
      if (transient && retry + 1 < attempts) {
        await sleep(backoffMs(retry + 1));
        continue;
      }
      return { status: response.status, ok: response.ok, payload };
    }
  };
}
