// Work that every server does on an interval, in the background (docs/architecture.md): one worker
// per name and process, kept across `remix dev` rebuilds.
const store = globalThis as typeof globalThis & {
  __intervalWorkers?: Map<string, ReturnType<typeof setInterval> | null>;
};

/**
 * Runs `work` every `intervalMs` (0: never), one run at a time: a run still going when the next is
 * due makes that one skip. A run that fails is logged as "<name>: <failure>: <why>", and the next
 * one tries again.
 */
export function startIntervalWorker(
  name: string,
  intervalMs: number,
  work: () => Promise<void>,
  failure: string,
): void {
  const workers = (store.__intervalWorkers ??= new Map());
  if (workers.has(name)) return;
  if (intervalMs === 0) {
    workers.set(name, null);
    return;
  }
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    work()
      .catch((error: unknown) => {
        const reason = error instanceof Response ? `database unavailable (HTTP ${error.status})` : error;
        console.error(`${name}: ${failure}:`, reason);
      })
      .finally(() => (running = false));
  };
  const interval = setInterval(run, intervalMs);
  interval.unref();
  workers.set(name, interval);
  process.once("SIGTERM", () => clearInterval(interval));
}
