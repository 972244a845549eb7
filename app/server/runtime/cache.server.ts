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

/**
 * `memoize` per key (a user id, say): each key's value is loaded once and kept for `ttl` ms; a
 * failure is not kept. Expired entries are swept when the map passes `maxEntries`, so memory stays
 * bounded however many keys pass through.
 */
export function memoizeByKey<T>(ttl: number, load: (key: string) => Promise<T>, maxEntries = 10_000) {
  const entries = new Map<string, { value: Promise<T>; expires: number }>();
  return {
    get(key: string): Promise<T> {
      const now = Date.now();
      const entry = entries.get(key);
      if (entry && entry.expires > now) return entry.value;
      if (entries.size >= maxEntries) {
        for (const [other, { expires }] of entries) if (expires <= now) entries.delete(other);
        // Still full of live entries: the oldest go first (a Map keeps insertion order).
        for (const other of entries.keys()) {
          if (entries.size < maxEntries) break;
          entries.delete(other);
        }
      }
      const current = { value: load(key), expires: Number.POSITIVE_INFINITY };
      entries.delete(key);
      entries.set(key, current);
      current.value.then(
        () => (current.expires = Date.now() + ttl),
        () => entries.get(key) === current && entries.delete(key),
      );
      return current.value;
    },
    delete(key: string) {
      entries.delete(key);
    },
  };
}
