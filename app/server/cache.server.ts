/**
 * A value kept in this process, loaded once even when requests arrive together. `ttl` may depend
 * on the value (e.g. keep a fallback for less time than a real answer). A failure is not kept.
 */
export function memoize<T>(ttl: number | ((value: T) => number), load: () => Promise<T>) {
  let entry: { value: Promise<T>; expires: number } | undefined;
  return {
    get(): Promise<T> {
      if (!entry || entry.expires <= Date.now()) {
        const value = load();
        const current = { value, expires: Number.POSITIVE_INFINITY };
        entry = current;
        value.then(
          (resolved) => (current.expires = Date.now() + (typeof ttl === "function" ? ttl(resolved) : ttl)),
          () => {
            if (entry === current) entry = undefined;
          },
        );
      }
      return entry.value;
    },
    clear() {
      entry = undefined;
    },
  };
}
