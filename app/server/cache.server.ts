/** A value kept in this process for `ttl` milliseconds, loaded once even when requests arrive together. */
export function memoize<T>(ttl: number | (() => number), load: () => Promise<T>) {
  const ttlMs = () => (typeof ttl === "function" ? ttl() : ttl);
  let entry: { value: Promise<T>; expires: number } | undefined;
  return {
    get(): Promise<T> {
      if (!entry || entry.expires <= Date.now()) {
        const value = load();
        entry = { value, expires: Date.now() + ttlMs() };
        // A failure is not kept: the next call tries again.
        value.catch(() => {
          if (entry?.value === value) entry = undefined;
        });
      }
      return entry.value;
    },
    clear() {
      entry = undefined;
    },
  };
}
