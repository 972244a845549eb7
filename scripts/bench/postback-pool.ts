// The postbacks `npm run bench -- --only=ingest` sends (scripts/bench/ingest.mjs): each one built
// and signed by its network's own simulatedPostback, as that network sends it, so the bench holds
// no signing code of its own. Bundled by ingest.mjs with esbuild (the network modules import
// through `~/`), never part of the app.
import type { OutgoingPostback, PostbackRequest, WallNetwork } from "~/server/walls/network.server";
import { bitlabs } from "~/server/walls/networks/bitlabs.server";
import { cpx } from "~/server/walls/networks/cpx.server";
import { custom } from "~/server/walls/networks/custom.server";
import { lootably } from "~/server/walls/networks/lootably.server";
import { revlum } from "~/server/walls/networks/revlum.server";
import { torox } from "~/server/walls/networks/torox.server";

/** The networks of the mix, GET and POST, hashed URLs and signed parameters; `custom` is the app's own protocol. */
const NETWORKS = [bitlabs, torox, lootably, revlum, cpx, custom] as WallNetwork<unknown>[];

/**
 * The server's WALL_… settings for the mix: the sender allowlist is loopback (the bench sends from
 * this machine with no proxy, so the check runs as in production), no hold, and an allowance far
 * above what one instance can take, so what is measured is the ingestion, not the limit.
 */
export function benchWallSettings(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const network of NETWORKS) {
    const prefix = `WALL_${network.name.toUpperCase()}_`;
    env[`${prefix}ENABLED`] = "true";
    env[`${prefix}ALLOWED_ADDRESSES`] = "127.0.0.1";
    env[`${prefix}HOLD_DAYS`] = "0";
    env[`${prefix}POSTBACKS_PER_MINUTE`] = "1000000";
    // The required ones only: an optional one (an offers API's address or key) turns on more than postbacks.
    for (const setting of network.settings.filter((candidate) => candidate.required))
      env[`${prefix}${setting.suffix}`] = `bench-${network.name}-${setting.suffix}-0123456789`.toLowerCase();
  }
  return env;
}

/** One request of the pool, and what it should leave in provider_postbacks. */
export interface PooledPostback extends OutgoingPostback {
  network: string;
  transactionId: string;
  kind: "credit" | "reversal";
  /** A repeat of a postback sent before (the network retrying). */
  repeat: boolean;
  /** Held for an operator (held_postbacks) rather than recorded: a reversal its network does not sign. */
  held: boolean;
}

/** A postback's signature as the app digests it: its network's signature parameters, in order. */
function signatureOf(network: WallNetwork<unknown>, outgoing: OutgoingPostback): string {
  const [, query = ""] = outgoing.pathAndQuery.split("?");
  const pairs = [...new URLSearchParams(query), ...new URLSearchParams(outgoing.body ?? "")];
  return `${network.name} ${pairs
    .filter(([name]) => network.signature.parameters.includes(name))
    .map(([, value]) => value)
    .join("&")}`;
}

/** Whether the app holds this postback for an operator: the network's own reading of it says so. */
function heldForReview(network: WallNetwork<unknown>, config: unknown, outgoing: OutgoingPostback, appUrl: string) {
  const [, query = ""] = outgoing.pathAndQuery.split("?");
  const request: PostbackRequest = {
    method: outgoing.method,
    url: `${appUrl}${outgoing.pathAndQuery}`,
    query: [...new URLSearchParams(query)],
    body: outgoing.body ? [...new URLSearchParams(outgoing.body)] : [],
    headers: new Headers(outgoing.headers),
  };
  const reading = network.readPostback(request, config);
  return (reading.kind === "credit" || reading.kind === "reversal") && reading.review !== undefined;
}

/** A small deterministic generator, so two runs send the same mix. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `size` postbacks for `wallIds` (people's wall ids; the custom protocol names them by wall id too
 * when it is a wall): credits across the networks in turn, `repeatShare` of them a repeat of a
 * postback sent shortly before (some while the first is still being taken), `reversalShare` a
 * reversal of a credit sent a while before (well taken by then, as networks reverse days later).
 * @public (used by scripts/bench/ingest.mjs through the bundle, which knip cannot follow)
 */
export function postbackPool(options: {
  appUrl: string;
  wallIds: readonly string[];
  size: number;
  repeatShare: number;
  reversalShare: number;
}): PooledPostback[] {
  const settings = benchWallSettings();
  const configs = NETWORKS.map((network) => {
    const prefix = `WALL_${network.name.toUpperCase()}_`;
    const own = Object.fromEntries(
      network.settings.map((setting) => [setting.suffix, settings[prefix + setting.suffix]]),
    );
    return { network, config: network.configure(own) };
  });
  const next = random(19);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const pool: PooledPostback[] = [];
  /** Credits not reversed yet, oldest first. */
  const credits: { index: number; wallUserId: string; coins: number; networkIndex: number; offerId: string }[] = [];
  // Reversals name credits at least this far back: taken long before, even at 50 requests in flight.
  const reversalDistance = 2_000;
  let sequence = 0;
  /** The signatures of the credits of networks whose signature does not bind the transaction. */
  const signaturesSeen = new Set<string>();
  while (pool.length < options.size) {
    const roll = next();
    const earlier = pool.length > 0 ? pool[Math.max(0, pool.length - 1 - Math.floor(next() * 200))] : undefined;
    if (roll < options.repeatShare && earlier) {
      pool.push({ ...earlier, repeat: true });
      continue;
    }
    const oldest = credits[0];
    if (roll < options.repeatShare + options.reversalShare && oldest && oldest.index < pool.length - reversalDistance) {
      const credit = credits.shift()!;
      const { network, config } = configs[credit.networkIndex]!;
      const transactionId = pool[credit.index]!.transactionId;
      // Every network of the mix documents its reversal, so each builds one.
      const reversal = network.simulatedPostback(config, {
        kind: "reversal",
        transactionId,
        wallUserId: credit.wallUserId,
        coins: credit.coins,
        offerId: credit.offerId,
        offerName: "Bench offer",
        appUrl: options.appUrl,
      })!;
      pool.push({
        ...reversal,
        network: network.name,
        transactionId,
        kind: "reversal",
        repeat: false,
        held: heldForReview(network, config, reversal, options.appUrl),
      });
      continue;
    }
    const networkIndex = sequence % configs.length;
    const { network, config } = configs[networkIndex]!;
    const wallUserId = pick(options.wallIds);
    const coins = 10 + Math.floor(next() * 490);
    const transactionId = `bench-${++sequence}`;
    // Each credit its own offer: Torox signs only the offer and the person, and the same signature on
    // a second transaction would be held (a person completes an offer once). Lootably signs the
    // person and the amounts: a coin more until its signature is new.
    const offerId = `offer-${sequence}`;
    let outgoing: OutgoingPostback;
    let credited = coins;
    for (;;) {
      outgoing = network.simulatedPostback(config, {
        kind: "credit",
        transactionId,
        wallUserId,
        coins: credited,
        offerId,
        offerName: "Bench offer",
        appUrl: options.appUrl,
      })!;
      const signature = network.signature.bindsTransaction ? null : signatureOf(network, outgoing);
      if (signature === null || !signaturesSeen.has(signature)) {
        if (signature !== null) signaturesSeen.add(signature);
        break;
      }
      credited += 1;
    }
    credits.push({ index: pool.length, wallUserId, coins: credited, networkIndex, offerId });
    pool.push({
      ...outgoing,
      network: network.name,
      transactionId,
      kind: "credit",
      repeat: false,
      held: false,
    });
  }
  return pool;
}
