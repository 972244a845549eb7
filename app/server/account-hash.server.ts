import { createHmac } from "node:crypto";
import { getEnv } from "./env.server";

/**
 * A keyed hash (HMAC-SHA256) of an email or payout address, lower-cased and trimmed: what is kept
 * of a deleted account. The key stays with the app, so a copy of the database alone cannot
 * reverse the hashes by trying addresses.
 */
export function accountHash(value: string): string {
  return createHmac("sha256", getEnv().accountHashSecret).update(value.trim().toLowerCase()).digest("hex");
}
