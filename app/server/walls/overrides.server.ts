import type { WallNetwork } from "./network.server";
import {
  readWall,
  secretValues,
  variable,
  WALL_NETWORKS,
  type ConfiguredWall,
  type WallProblem,
} from "./registry.server";

/**
 * What the operator console overrides of a network's settings (wall_settings, docs/offer-walls.md,
 * "Where settings come from"): a value here wins over the environment's WALL_{NAME}_…; null, or a
 * setting left out, leaves the environment's.
 */
export interface WallOverride {
  network: string;
  enabled: boolean | null;
  hold_days: number | null;
  /** "any" or comma-separated addresses, as WALL_{NAME}_ALLOWED_ADDRESSES. */
  allowed_addresses: string | null;
  /** The network's settings that are not secret, by suffix (APP_TOKEN). */
  settings: Record<string, string>;
  /** Its secrets, sealed (sealed-secrets.server.ts), by suffix (APP_SECRET). */
  secrets: Record<string, { sealed: string; hint: string | null }>;
  updated_at: string;
  updated_by: string;
}

/** Opens a sealed secret of a network's setting, or null when it does not open. */
export type OpenSecret = (sealed: string, network: string, setting: string) => string | null;

/** An override with its secrets opened: null for one that does not open (the key changed). */
export type OpenOverride = Omit<WallOverride, "secrets"> & { secrets: Record<string, string | null> };

export function openOverride(override: WallOverride, open: OpenSecret): OpenOverride {
  return {
    ...override,
    secrets: Object.fromEntries(
      Object.entries(override.secrets).map(([suffix, secret]) => [
        suffix,
        open(secret.sealed, override.network, suffix),
      ]),
    ),
  };
}

/**
 * The environment as the server reads it, with one network's console values laid over its
 * WALL_{NAME}_… variables. `unreadable`: the secrets set in the console that do not open: they count
 * as wrong, never as unset, so the environment's old value is not used instead.
 */
export function overlaidSource(
  network: WallNetwork<unknown>,
  env: Record<string, string | undefined>,
  override: OpenOverride | null,
): { source: Record<string, string | undefined>; unreadable: string[] } {
  const source = { ...env };
  const unreadable: string[] = [];
  if (!override) return { source, unreadable };
  if (override.enabled !== null) source[variable(network, "ENABLED")] = String(override.enabled);
  if (override.hold_days !== null) source[variable(network, "HOLD_DAYS")] = String(override.hold_days);
  if (override.allowed_addresses !== null) {
    source[variable(network, "ALLOWED_ADDRESSES")] = override.allowed_addresses;
  }
  for (const [suffix, value] of Object.entries(override.settings)) source[variable(network, suffix)] = value;
  for (const [suffix, value] of Object.entries(override.secrets)) {
    if (value === null) unreadable.push(suffix);
    source[variable(network, suffix)] = value ?? undefined;
  }
  return { source, unreadable };
}

/** A network as the app runs it: its wall when turned on and usable, and why not when it is on but is not. */
export interface WallState {
  network: WallNetwork<unknown>;
  /** Turned on (by the console or the environment), whether or not it is usable. */
  enabled: boolean;
  wall: ConfiguredWall | null;
  /** What keeps a wall that is turned on off, each naming its variable. */
  problems: WallProblem[];
  /** What the console overrides, secrets opened (server memory only: never sent to a page). */
  override: OpenOverride | null;
}

export const UNREADABLE_SECRET =
  "was set in the console but cannot be opened with this server's key (ACCOUNT_HASH_SECRET changed?): set it again";

/**
 * One network's state from the environment and its console override. A wall the console's values
 * leave wrong is off (never run on the environment's values instead); the postback log removes the
 * environment's secrets as well as the console's, so a postback still signed with an old one does
 * not show it.
 */
export function resolveWall(
  network: WallNetwork<unknown>,
  env: Record<string, string | undefined>,
  override: OpenOverride | null,
): WallState {
  const { source, unreadable } = overlaidSource(network, env, override);
  const reading = readWall(network, source);
  const unopened = unreadable.map((suffix) => ({ variable: variable(network, suffix), message: UNREADABLE_SECRET }));
  // An unopened secret is that, not also a missing one.
  const problems = [
    ...unopened,
    ...reading.problems.filter((problem) => !unopened.some((other) => other.variable === problem.variable)),
  ];
  const wall =
    reading.wall && unreadable.length === 0
      ? { ...reading.wall, secrets: [...new Set([...reading.wall.secrets, ...secretValues(network, env)])] }
      : null;
  return { network, enabled: reading.enabled, wall, problems: reading.enabled ? problems : [], override };
}

/** Every network the app knows, in the registry's order, from the environment and the console's overrides. */
export function resolveWalls(
  env: Record<string, string | undefined>,
  overrides: readonly WallOverride[],
  open: OpenSecret,
): WallState[] {
  return WALL_NETWORKS.map((network) => {
    const override = overrides.find((candidate) => candidate.network === network.name);
    return resolveWall(network, env, override ? openOverride(override, open) : null);
  });
}
