import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";
import { startIntervalWorker } from "../runtime/interval-worker.server";
import { logValue } from "../runtime/log.server";

/**
 * The rupee rate of UPI cash-outs read from a rates endpoint (INR_RATE_URL, docs/decisions/087):
 * a JSON answer with `base` "USD" and `rates.INR`, the rupees one US dollar buys, as Frankfurter (`/v1/latest?base=USD&symbols=INR`) and the Open Exchange Rates family answer.
 * The database applies it only within 5 % of the rate in force (record_inr_rate): a wrong or hostile
 * endpoint cannot set what is paid.
 */

const TIMEOUT_MS = 10_000;

/** The rate in an endpoint's answer, or null when the answer is not one (no USD base, no INR rate). */
export function rateFromAnswer(answer: unknown): number | null {
  if (typeof answer !== "object" || answer === null) return null;
  const { base, rates } = answer as { base?: unknown; rates?: unknown };
  // No base named is no proof the rates are per dollar: refused, as another base is.
  if (base !== "USD") return null;
  if (typeof rates !== "object" || rates === null) return null;
  const rate = (rates as { INR?: unknown }).INR;
  return typeof rate === "number" && Number.isFinite(rate) && rate >= 1 && rate <= 1000 ? rate : null;
}

export type RateRefresh =
  | { applied: true; rate: number }
  | { applied: false; reason: "no_rate_set" | "moved_too_far" | "unreadable"; rate?: number };

/** Asks the endpoint once and hands its rate to the database; throws when the endpoint cannot be read. */
export async function refreshInrRate(url: string): Promise<RateRefresh> {
  const response = await fetch(url, {
    headers: { accept: "application/json" },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`the rates endpoint answered ${response.status}`);
  const rate = rateFromAnswer(await response.json().catch(() => null));
  if (rate === null) return { applied: false, reason: "unreadable" };
  const db = await getDatabase();
  return db.rpc<RateRefresh>("record_inr_rate", { p_rate: rate, p_source: `rates endpoint ${new URL(url).host}` });
}

/** At start and every INR_RATE_INTERVAL_SECONDS, when INR_RATE_URL is set (entry.server.tsx calls it once). */
export function startInrRateRefresh(): void {
  const config = getEnv().inrRate;
  if (!config) return;
  const work = async () => {
    const outcome = await refreshInrRate(config.url);
    if (!outcome.applied) {
      // Left for an owner: the rate in force stays, and goes out of use after seven days.
      console.warn(
        `rupee rate: the endpoint's rate was not applied (${outcome.reason}${outcome.rate ? `, in force ${logValue(String(outcome.rate))}` : ""})`,
      );
    }
  };
  startIntervalWorker("rupee rate", config.intervalMs, work, "could not read the rates endpoint");
  void work().catch((error: unknown) => console.error("rupee rate: could not read the rates endpoint:", error));
}
