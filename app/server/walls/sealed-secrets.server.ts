import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Offer walls' secrets set in the operator console are kept sealed in the database
 * (docs/decisions/076-wall-secrets-sealed-by-the-app.md): AES-256-GCM with a key derived from
 * ACCOUNT_HASH_SECRET, which the app holds and the database never sees, so a dump of the database
 * alone (a backup, a replica, a read-only role) does not hold them. The network and the setting are
 * the cipher's associated data: a sealed value copied onto another setting or network does not open.
 */

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keys = new Map<string, Buffer>();

/** The sealing key for `secret` (HKDF-SHA256, its own label: the hashes keyed by the same secret never share it). */
function sealingKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "rewards-app", "offer wall secrets v1", 32));
    keys.set(secret, key);
  }
  return key;
}

const associatedData = (network: string, setting: string) => Buffer.from(`${network}:${setting}`, "utf8");

/** `value` sealed for the setting `setting` (its variable's suffix, APP_SECRET) of `network`: "v1.<base64url>". */
export function sealWallSecret(value: string, network: string, setting: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(secret), iv);
  cipher.setAAD(associatedData(network, setting));
  const sealed = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")}`;
}

/** The value sealWallSecret sealed, or null when it does not open (another key, another setting, altered). */
export function openWallSecret(sealed: string, network: string, setting: string, secret: string): string | null {
  if (!sealed.startsWith(`${VERSION}.`)) return null;
  const bytes = Buffer.from(sealed.slice(VERSION.length + 1), "base64url");
  if (bytes.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", sealingKey(secret), bytes.subarray(0, IV_BYTES));
    decipher.setAAD(associatedData(network, setting));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** What the console may show of a secret: its last four characters when it has 12 or more, else nothing. */
export function secretHint(value: string): string | null {
  return value.length >= 12 ? value.slice(-4) : null;
}
