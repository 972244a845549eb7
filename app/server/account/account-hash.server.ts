import { createHmac } from "node:crypto";
import { canonicalEmail } from "~/domain/identity";
import { getEnv } from "../runtime/env.server";

/**
 * A keyed hash (HMAC-SHA256) of an email or payout address, lower-cased and trimmed: what is kept
 * of a deleted account. The key stays with the app, so a copy of the database alone cannot
 * reverse the hashes by trying addresses.
 */
export function accountHash(value: string): string {
  return createHmac("sha256", getEnv().accountHashSecret).update(value.trim().toLowerCase()).digest("hex");
}

/**
 * The identity of an email address (docs/decisions/064): the keyed hash of its canonical form, so
 * every alias of one inbox has the same one. Null for a value that is not an address.
 */
export function identityHash(email: string | null | undefined): string | null {
  const canonical = email ? canonicalEmail(email) : null;
  return canonical ? accountHash(canonical) : null;
}

/** A keyed hash of a device id or address range (case kept: a device id is case-sensitive). */
export function signalHash(kind: "device" | "address", value: string): string {
  return createHmac("sha256", getEnv().accountHashSecret).update(`${kind}:${value}`).digest("hex");
}

/**
 * A keyed digest of an offer wall's postback signature (postback_log, postback_signatures): the same
 * signature always has the same digest, so a signature used twice is seen, but the digest signs
 * nothing and, keyed, cannot be checked against guesses from a copy of the database.
 */
export function signatureDigest(network: string, signature: string): string {
  return createHmac("sha256", getEnv().accountHashSecret)
    .update(`postback-signature:${network}:${signature}`)
    .digest("hex");
}

/**
 * The console's own test postback (operator/walls.server.ts, sendTestPostback) is sent by the app to
 * itself over loopback, where no network's sender allowlist can hold it: it carries this tag in
 * OWN_TEST_POSTBACK_HEADER, a keyed digest of its exact method and target that only the app can make,
 * so its sender check is skipped for it alone (walls/postbacks.server.ts).
 */
export function ownTestPostbackTag(method: string, target: string): string {
  return createHmac("sha256", getEnv().accountHashSecret).update(`own-test-postback:${method}:${target}`).digest("hex");
}

export const OWN_TEST_POSTBACK_HEADER = "x-rewards-console-test";
