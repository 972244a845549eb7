import { memoize } from "../runtime/cache.server";
import type { Database } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { subscribeToChannel } from "../db/live.server";
import { getEnv } from "../runtime/env.server";
import { openWallSecret } from "./sealed-secrets.server";
import { resolveWalls, type WallOverride, type WallState } from "./overrides.server";
import type { ConfiguredWall } from "./registry.server";

/**
 * The offer walls as every part of the app reads them (postbacks, Earn, My offers, the wall pages,
 * `npm run walls`): the environment's WALL_{NAME}_… with the operator console's overrides laid over
 * them (docs/offer-walls.md, "Where settings come from"). A change in the console is announced by
 * the database (pg_notify('wall_settings')) and every server drops its copy at once; where the
 * transport cannot listen (supabase-js), a copy lives WALLS_TTL_MS at most.
 */
export const WALLS_TTL_MS = 30_000;

/** The walls of `db`'s console overrides over `env`, secrets opened with `keySecret` (ACCOUNT_HASH_SECRET). */
export async function loadWallStates(
  db: Database,
  env: Record<string, string | undefined>,
  keySecret: string,
): Promise<WallState[]> {
  const overrides = await db.rpc<WallOverride[]>("wall_overrides");
  return resolveWalls(env, overrides, (sealed, network, setting) =>
    openWallSecret(sealed, network, setting, keySecret),
  );
}

/** What was last said about each network that is turned on but cannot run, so it is logged when it changes only. */
const reported = new Map<string, string>();

function reportProblems(states: readonly WallState[]) {
  for (const state of states) {
    const said = state.problems.map((problem) => `${problem.variable}: ${problem.message}`).join("; ");
    if (said === (reported.get(state.network.name) ?? "")) continue;
    reported.set(state.network.name, said);
    if (said) console.error(`offer wall ${state.network.name} is off: ${said}`);
    else console.warn(`offer wall ${state.network.name}: its settings are right again`);
  }
}

let listening: Promise<unknown> | null = null;

const states = memoize(WALLS_TTL_MS, async () => {
  // Listening before reading: a change made while this read runs is not missed.
  listening ??= subscribeToChannel("wall_settings", () => states.clear());
  await listening;
  const loaded = await loadWallStates(await getDatabase(), process.env, getEnv().accountHashSecret);
  reportProblems(loaded);
  return loaded;
});

/** Every network, with its settings as they are now. */
export function currentWallStates(): Promise<WallState[]> {
  return states.get();
}

/** The walls turned on and usable now. */
export async function currentWalls(): Promise<ConfiguredWall[]> {
  return (await states.get()).flatMap((state) => (state.wall ? [state.wall] : []));
}

/** The wall turned on as `name` (the {provider} of /api/{provider}/postback), or null. */
export async function configuredWall(name: string | undefined): Promise<ConfiguredWall | null> {
  if (name === undefined) return null;
  return (await currentWalls()).find((wall) => wall.network.name === name) ?? null;
}

/**
 * Drops this server's copy now: a change just made here shows on the very next request, before the
 * database's announcement arrives (the others drop theirs when it does).
 */
export function forgetCurrentWalls(): void {
  states.clear();
}
