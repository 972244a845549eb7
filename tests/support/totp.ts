import { createHmac } from "node:crypto";

// RFC 6238 TOTP written out from the RFC (HMAC-SHA1 over RFC 4226's counter, 30-second steps, six
// digits), apart from the app's own code: what an authenticator app shows an operator
// (docs/decisions/093).

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function decodeBase32(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const character of text.replace(/\s/g, "")) {
    value = (value << 5) | BASE32.indexOf(character);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}
/** The current 30-second step (RFC 6238's T). */
export const stepNow = () => Math.floor(Date.now() / 30_000);
/**
 * RFC 6238 (HMAC-SHA1, 30 s, 6 digits) for `step`. A test names its steps outright, so a 30-second
 * boundary passing mid-test changes nothing (the app accepts one step either way).
 */
export function totp(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac("sha1", decodeBase32(secret)).update(counter).digest();
  const at = digest[19]! & 15;
  return String((digest.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}
