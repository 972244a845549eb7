import { isIP } from "node:net";
import { withoutTrailingSlashes } from "~/domain/text";
import { signalHash } from "./account-hash.server";
import { dbCall } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { clientAddress } from "../http/client-address.server";
import { getEnv } from "../runtime/env.server";
import { logValue } from "../runtime/log.server";
import { isObject, text } from "../withdrawals/payouts/rail-http.server";

/**
 * Network signals (docs/decisions/091): what ipinfo says of the address behind a sign-up, a sign-in
 * or a withdrawal request (`GET /{ip}` with a Bearer token; its `privacy` object's vpn, proxy, tor,
 * relay, hosting and service, and its `country`). Each address is asked at most once a day (kept
 * by a keyed hash); the answer becomes the account's latest signal, which a withdrawal's risk score
 * reads. Bounded by IPINFO_TIMEOUT_MS and never refused for: no answer, an error, or no address is
 * no signal, logged, and the person carries on.
 */

const CACHE_SECONDS = 24 * 60 * 60;
const FLAGS = ["vpn", "proxy", "tor", "relay", "hosting"] as const;

export interface NetworkSignal {
  country: string | null;
  vpn: boolean;
  proxy: boolean;
  tor: boolean;
  relay: boolean;
  hosting: boolean;
  service: string | null;
}

/**
 * ipinfo's answer for one address as a signal, or null when it says nothing of privacy (a plan
 * without privacy detection, or a bogon): a missing flag is not taken as false.
 */
export function signalFromAnswer(answer: unknown): NetworkSignal | null {
  if (!isObject(answer) || !isObject(answer.privacy)) return null;
  const privacy = answer.privacy;
  if (FLAGS.some((flag) => typeof privacy[flag] !== "boolean")) return null;
  const country = text(answer.country);
  return {
    country: country && /^[A-Z]{2}$/.test(country) ? country : null,
    vpn: privacy.vpn === true,
    proxy: privacy.proxy === true,
    tor: privacy.tor === true,
    relay: privacy.relay === true,
    hosting: privacy.hosting === true,
    service: text(privacy.service)?.slice(0, 100) ?? null,
  };
}

async function askIpinfo(address: string): Promise<NetworkSignal | null> {
  const config = getEnv().ipinfo!;
  const response = await fetch(`${withoutTrailingSlashes(config.apiUrl)}/${encodeURIComponent(address)}`, {
    headers: { accept: "application/json", authorization: `Bearer ${config.token}` },
    signal: AbortSignal.timeout(config.timeoutMs),
  });
  if (!response.ok) throw new Error(`ipinfo answered ${response.status}`);
  return signalFromAnswer(await response.json().catch(() => null));
}

/**
 * Looks up the request's address (cached a day) and records it as the account's latest signal;
 * the signal, or null when there is none.
 */
export async function recordNetworkSignal(
  request: Request,
  userId: string,
  context: "signup" | "signin" | "withdrawal",
): Promise<NetworkSignal | null> {
  if (!getEnv().ipinfo) return null;
  const address = clientAddress(request);
  // Only a whole address can be asked about (an IPv6 address is known here by its /64).
  if (!address || isIP(address) === 0) return null;
  try {
    const db = await getDatabase();
    const hash = signalHash("address", address);
    const cached = await db.rpc<NetworkSignal | null>("network_lookup_of", {
      p_address_hash: hash,
      p_max_age_seconds: CACHE_SECONDS,
    });
    const signal = cached ?? (await askIpinfo(address));
    if (!signal) return null;
    await db.rpc("record_network_signal", {
      p_user_id: userId,
      p_context: context,
      p_address_hash: hash,
      p_signal: signal,
      p_fresh: cached === null,
    });
    return signal;
  } catch (error) {
    console.warn(`network signal (${context}): no signal: ${logValue(String((error as Error).message ?? error))}`);
    return null;
  }
}

/**
 * Why the account's offer earnings wait for an operator (its latest network carries a flag the owner
 * ticked in "Networks that pause earning"), or null: Earn says so (docs/decisions/091).
 */
export function earningPausedCall(userId: string) {
  return dbCall<string | null>("network_pause_reason", { p_user_id: userId });
}
