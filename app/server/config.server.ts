import { memoize } from "./cache.server";
import { getDatabase } from "./db/database.server";

const RATE_TTL_MS = 5 * 60 * 1000;
const coinRate = memoize(RATE_TTL_MS, async () => {
  const db = await getDatabase();
  return (await db.rpc<{ coins_per_dollar: number }>("get_app_config")).coins_per_dollar;
});

/** Coins per dollar, as the database converts them. */
export function getCoinsPerDollar(): Promise<number> {
  return coinRate.get();
}
