/**
 * Polls `check` until it returns a value other than undefined or false, instead of sleeping for
 * a fixed time; fails with `what` after `timeoutMs`.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  { what, timeoutMs = 10_000, intervalMs = 100 }: { what: string; timeoutMs?: number; intervalMs?: number },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}

const MINUTE_MS = 60_000;

/**
 * Runs `section` inside one clock minute, for limits counted per whole minute (a count that starts
 * over midway proves nothing). It starts at once when `needMs` of the minute is left, else at the
 * top of the next; when the section still ends in another minute (a busy machine), it is run again
 * from the top of the next minute, whose count its first run has not touched, up to three times.
 * The section returns what it saw; the caller asserts on that afterwards.
 */
export async function withinOneMinute<T>(section: () => Promise<T>, { needMs }: { needMs: number }): Promise<T> {
  let fromTheTop = MINUTE_MS - (Date.now() % MINUTE_MS) < needMs;
  for (let attempt = 1; ; attempt++) {
    if (fromTheTop) await new Promise((resolve) => setTimeout(resolve, MINUTE_MS - (Date.now() % MINUTE_MS) + 100));
    const minute = Math.floor(Date.now() / MINUTE_MS);
    const seen = await section();
    if (Math.floor(Date.now() / MINUTE_MS) === minute) return seen;
    if (attempt === 3) throw new Error("three runs in a row did not fit in one minute");
    fromTheTop = true;
  }
}
