import { isIPv4 } from "node:net";
import { signalHash } from "./account-hash.server";
import { deviceId } from "../auth/device-id.server";
import { getDatabase } from "../db/database.server";
import { clientAddress } from "../http/client-address.server";
import { requestTimeZone } from "../http/cookies.server";

/**
 * The range a client address belongs to (docs/decisions/064): an IPv4 address by its /24, an IPv6
 * one by its /64 (clientAddress already keys IPv6 by its /64). One household or one small office
 * is usually one range, while a single address changes with every reconnection.
 */
export function addressRange(request: Request): string | null {
  const address = clientAddress(request);
  if (!address) return null;
  if (!isIPv4(address)) return address;
  return `${address.split(".").slice(0, 3).join(".")}.0/24`;
}

/**
 * Records the browser's device id and (behind our trusted proxies only) its address range as keyed
 * hashes for the account that just signed up or in, and the time zone it reported (push and email
 * name the person's own days, docs/decisions/085); returns the cookie that gives a browser without
 * one its device id.
 */
export async function recordSignInSignals(request: Request, userId: string): Promise<string | null> {
  const device = deviceId(request);
  const range = addressRange(request);
  const signals = [{ kind: "device", hash: signalHash("device", device.id) }];
  if (range) signals.push({ kind: "address", hash: signalHash("address", range) });
  const db = await getDatabase();
  await Promise.all([
    db.rpc("record_account_signals", { p_user_id: userId, p_signals: signals }),
    db.rpc("record_time_zone", { p_user_id: userId, p_time_zone: requestTimeZone(request) }),
  ]);
  return device.setCookie;
}
