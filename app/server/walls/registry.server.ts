import { isIP } from "node:net";
import { DEFAULT_POSTBACKS_PER_MINUTE } from "../runtime/env.server";
import type { WallNetwork, WallSettings } from "./network.server";
import { adgate } from "./networks/adgate.server";
import { adgem } from "./networks/adgem.server";
import { ayetstudios } from "./networks/ayetstudios.server";
import { bitlabs } from "./networks/bitlabs.server";
import { cpx } from "./networks/cpx.server";
import { custom } from "./networks/custom.server";
import { lootably } from "./networks/lootably.server";
import { revlum } from "./networks/revlum.server";
import { torox } from "./networks/torox.server";

/** Every network the app can take postbacks from, by name. */
export const WALL_NETWORKS: readonly WallNetwork<unknown>[] = [
  bitlabs,
  ayetstudios,
  adgate,
  torox,
  lootably,
  revlum,
  adgem,
  cpx,
  custom,
] as WallNetwork<unknown>[];

/** A network the operator turned on, with its settings checked. */
export interface ConfiguredWall {
  network: WallNetwork<unknown>;
  /** What the network's methods get (its settings, checked). */
  config: unknown;
  /**
   * Where its postbacks may come from (the socket's address, or the one TRUST_PROXY's proxies report):
   * empty means from anywhere, which a network whose signature does not bind the transaction gets
   * only with WALL_{NAME}_ANY_SENDER=true as well.
   */
  allowedAddresses: readonly string[];
  /** Postbacks are taken from any address (the console warns when the signature does not bind the transaction). */
  anySender: boolean;
  /** Days its credits are held before they can be withdrawn; null: the app's default. */
  holdDays: number | null;
  postbacksPerMinute: number;
  /**
   * The offer provider of OFFER_PROVIDER (app/server/walls/postback-route.server.ts), not a wall: its
   * postbacks name people by account id, as its protocol always has, and their offer_id is a task
   * of its offers list. A wall's name people by wall id, and their offers are the network's own.
   */
  isOfferProvider: boolean;
  /** Where people ask the network about a missing credit (WALL_{NAME}_SUPPORT_URL), when the operator gives one. */
  supportUrl: string | null;
  /** The names of the secret settings' values, so the postback log can remove them. */
  secrets: readonly string[];
}

export interface WallProblem {
  variable: string;
  message: string;
}

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** WALL_{NAME}_{SUFFIX}: the variable of one of a network's settings. */
export const variable = (network: WallNetwork<unknown>, suffix: string) =>
  `WALL_${network.name.toUpperCase()}_${suffix}`;

/** An https address, when the variable is set. */
function httpsUrl(source: Record<string, string | undefined>, name: string, problems: WallProblem[]): string | null {
  const value = source[name]?.trim();
  if (!value) return null;
  if (URL.canParse(value) && new URL(value).protocol === "https:") return value;
  problems.push({ variable: name, message: "must be an https:// address" });
  return null;
}

function wholeNumber(
  source: Record<string, string | undefined>,
  name: string,
  bounds: { min: number; max: number },
  problems: WallProblem[],
): number | null {
  const value = source[name]?.trim();
  if (!value) return null;
  if (!/^[0-9]{1,9}$/.test(value) || Number(value) < bounds.min || Number(value) > bounds.max) {
    problems.push({ variable: name, message: `must be a whole number from ${bounds.min} to ${bounds.max}` });
    return null;
  }
  return Number(value);
}

/** What reading one network's settings found: its wall when it is turned on and right, else what is wrong. */
export interface WallReading {
  /** Turned on by WALL_{NAME}_ENABLED (or the console's value standing in for it). */
  enabled: boolean;
  wall: ConfiguredWall | null;
  problems: WallProblem[];
}

/**
 * One network's settings from `source`, WALL_{NAME}_{SETTING} (the network module lists them),
 * plus WALL_{NAME}_ALLOWED_ADDRESSES (comma-separated; the network's published addresses when
 * unset, "any" for none, which a network whose signature does not bind the transaction also needs
 * WALL_{NAME}_ANY_SENDER=true for), WALL_{NAME}_HOLD_DAYS, WALL_{NAME}_POSTBACKS_PER_MINUTE and
 * WALL_{NAME}_SUPPORT_URL, checked only when WALL_{NAME}_ENABLED is true. Whatever is wrong comes
 * back as problems naming the variable, and the wall is not turned on.
 */
export function readWall(network: WallNetwork<unknown>, source: Record<string, string | undefined>): WallReading {
  const problems: WallProblem[] = [];
  const enabledName = variable(network, "ENABLED");
  const enabled = source[enabledName]?.trim();
  if (!enabled || enabled === "false") return { enabled: false, wall: null, problems };
  if (enabled !== "true") {
    problems.push({ variable: enabledName, message: "must be true or false" });
    return { enabled: false, wall: null, problems };
  }
  const settings: Record<string, string | undefined> = {};
  for (const setting of network.settings) {
    const name = variable(network, setting.suffix);
    const value = source[name]?.trim() || undefined;
    if (value === undefined) {
      if (setting.required) problems.push({ variable: name, message: `is required: ${setting.meaning}` });
      continue;
    }
    if (setting.minLength !== undefined && value.length < setting.minLength) {
      problems.push({ variable: name, message: `must be at least ${setting.minLength} characters` });
    }
    if (setting.url && !isHttpUrl(value)) {
      problems.push({ variable: name, message: "must be an http or https URL" });
    }
    settings[setting.suffix] = value;
  }
  for (const setting of network.settings) {
    if (setting.with && settings[setting.suffix] !== undefined && settings[setting.with] === undefined) {
      const needed = network.settings.find((other) => other.suffix === setting.with);
      problems.push({
        variable: variable(network, setting.with),
        message: `is required with ${variable(network, setting.suffix)}: ${needed?.meaning ?? setting.with}`,
      });
    }
  }
  const addressesName = variable(network, "ALLOWED_ADDRESSES");
  const anySenderName = variable(network, "ANY_SENDER");
  const listed = source[addressesName]?.trim();
  const anySender = source[anySenderName]?.trim() === "true";
  let allowedAddresses: string[] = [...network.senderAddresses];
  if (listed === "any") {
    allowedAddresses = [];
    // A signature that does not bind the transaction and the amount can be replayed by anyone who
    // has seen one postback: from any address only when the operator says so twice.
    if (!network.signature.bindsTransaction && !anySender) {
      problems.push({
        variable: addressesName,
        message: `is "any", but ${network.label}'s signature does not cover the transaction and the amount: set ${anySenderName}=true as well to accept postbacks from any address`,
      });
    }
  } else if (!listed && allowedAddresses.length === 0 && !network.signature.bindsTransaction) {
    problems.push({
      variable: addressesName,
      message: `is required: ${network.label} publishes no addresses and its signature does not cover the transaction and the amount, so list the addresses its postbacks come from (or "any" with ${anySenderName}=true)`,
    });
  } else if (listed) {
    allowedAddresses = listed.split(",").map((address) => address.trim());
    const wrong = allowedAddresses.filter((address) => isIP(address) === 0);
    if (wrong.length > 0) {
      problems.push({
        variable: addressesName,
        message: `not an IP address: ${wrong.join(", ")} ("any" allows every address)`,
      });
    }
  }
  const holdDays = wholeNumber(source, variable(network, "HOLD_DAYS"), { min: 0, max: 365 }, problems);
  const postbacksPerMinute =
    wholeNumber(source, variable(network, "POSTBACKS_PER_MINUTE"), { min: 1, max: 1_000_000 }, problems) ??
    DEFAULT_POSTBACKS_PER_MINUTE;
  const supportUrl = httpsUrl(source, variable(network, "SUPPORT_URL"), problems);
  if (problems.length > 0) return { enabled: true, wall: null, problems };
  return {
    enabled: true,
    problems,
    wall: {
      network,
      config: network.configure(settings as WallSettings),
      allowedAddresses,
      anySender: allowedAddresses.length === 0,
      holdDays,
      postbacksPerMinute,
      isOfferProvider: false,
      supportUrl,
      secrets: secretValues(network, source),
    },
  };
}

/** The values of the network's secret settings that `source` sets (the postback log removes them). */
export function secretValues(network: WallNetwork<unknown>, source: Record<string, string | undefined>): string[] {
  // An optional secret left unset is no secret: "" would blank every empty parameter in the log.
  return network.settings.flatMap((setting) => {
    const value = setting.secret ? source[variable(network, setting.suffix)]?.trim() : undefined;
    return value ? [value] : [];
  });
}

/**
 * The walls WALL_{NAME}_ENABLED=true turns on, from the environment alone, and every problem. The
 * server does not start while there is one (app/entry.server.tsx and the operator commands pass the
 * problems to checkEnv, app/server/runtime/env.server.ts, which names them with the rest of the
 * environment's); the console's settings are laid over these once the database is open
 * (configured.server.ts).
 */
export function readWalls(source: Record<string, string | undefined>): {
  walls: ConfiguredWall[];
  problems: WallProblem[];
} {
  const readings = WALL_NETWORKS.map((network) => readWall(network, source));
  return {
    walls: readings.flatMap((reading) => (reading.wall ? [reading.wall] : [])),
    problems: readings.flatMap((reading) => reading.problems),
  };
}
