import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { cookieValue } from "../http/cookies.server";
import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";

/**
 * The console's second factor (docs/decisions/093): a TOTP authenticator (RFC 6238 over RFC 4226's
 * HOTP: HMAC-SHA1, 30-second steps, 6 digits, one step either way for clocks that drift), and ten
 * recovery codes. The secret is sealed (AES-256-GCM) under a key derived from the server's
 * ACCOUNT_HASH_SECRET before the database keeps it; the database keeps the last step used, so a code
 * passes once, and the recovery codes' keyed hashes. A passed check is remembered by this browser
 * for 12 hours in a signed cookie of the operator's, which logging out clears.
 */

export const TOTP_STEP_SECONDS = 30;
const TOTP_DIGITS = 6;
const SECRET_BYTES = 20;
const RECOVERY_CODES = 10;
const PASSED_COOKIE = "__admin_2fa";
const PASSED_SECONDS = 12 * 60 * 60;
const PASSED_PATTERN = /^([A-Za-z0-9_-]{1,128})\.([0-9]{10})\.([A-Za-z0-9_-]{43})$/;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32, without padding (what authenticator apps read). */
export function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function fromBase32(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const character of text) {
    const index = BASE32.indexOf(character);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226's HOTP of `counter` (RFC 6238: the 30-second step), six digits. */
export function hotp(secret: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac("sha1", secret).update(message).digest();
  const offset = digest[digest.length - 1]! & 15;
  const number = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(number % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, "0");
}

const currentStep = () => Math.floor(Date.now() / 1000 / TOTP_STEP_SECONDS);

function sealKey(): Buffer {
  return createHash("sha256")
    .update(createHmac("sha256", getEnv().accountHashSecret).update("operator-totp-seal").digest())
    .digest();
}

function seal(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealKey(), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64");
}

function unseal(sealed: string): string {
  const bytes = Buffer.from(sealed, "base64");
  const decipher = createDecipheriv("aes-256-gcm", sealKey(), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
}

const keyed = (text: string) => createHmac("sha256", getEnv().accountHashSecret).update(text).digest("hex");
const recoveryHash = (userId: string, code: string) =>
  keyed(`operator-recovery:${userId}:${code.replace(/[\s-]/g, "").toUpperCase()}`);

/** Whether the console asks for the second factor here (always in production; OPERATOR_2FA=off in tests and development only). */
export function twoFactorRequired(): boolean {
  return getEnv().operatorTwoFactor;
}

export interface Enrolment {
  /** The base32 secret, to type into an app that cannot scan. */
  secret: string;
  /** The Key Uri the QR code holds (otpauth://totp/...). */
  uri: string;
}

/**
 * The operator's state: enrolled (a confirmed authenticator), or the enrolment to show: the same
 * secret until a code confirms it (a reload shows the same QR code).
 */
export async function enrolmentOf(userId: string, email: string | null): Promise<"enrolled" | Enrolment> {
  const db = await getDatabase();
  const stored = await db.rpc<{ sealed: string; confirmed: boolean } | null>("operator_totp_of", {
    p_user_id: userId,
  });
  if (stored?.confirmed) return "enrolled";
  let secret = stored ? unseal(stored.sealed) : null;
  if (!secret) {
    secret = base32(randomBytes(SECRET_BYTES));
    await db.rpc("start_operator_totp", { p_user_id: userId, p_sealed: seal(secret) });
  }
  // Google Authenticator's Key Uri Format: the label "Issuer:account", and the issuer again.
  const label = encodeURIComponent(`Rewards:${email ?? userId}`);
  const uri = `otpauth://totp/${label}?secret=${secret}&issuer=Rewards&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_STEP_SECONDS}`;
  return { secret, uri };
}

/** The step a typed code belongs to (now, or one either way), or null when it matches none. */
function matchingStep(secret: string, typed: string): number | null {
  const code = typed.replace(/\s/g, "");
  if (!/^[0-9]{6}$/.test(code)) return null;
  const key = fromBase32(secret);
  const now = currentStep();
  for (const step of [now - 1, now, now + 1]) {
    const expected = Buffer.from(hotp(key, step));
    if (timingSafeEqual(expected, Buffer.from(code))) return step;
  }
  return null;
}

/** Ten codes of eight base32 characters, "ABCD-EF23". */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const code = base32(randomBytes(5));
    return `${code.slice(0, 4)}-${code.slice(4, 8)}`;
  });
}

/**
 * A TOTP code: right, and of a step later than the last one used (else a replay, refused). The
 * first right code confirms the enrolment: the recovery codes it makes are returned, to be shown
 * once; afterwards `recoveryCodes` is null.
 */
export async function checkTotp(
  userId: string,
  typed: string,
): Promise<{ ok: true; recoveryCodes: string[] | null } | { ok: false }> {
  const db = await getDatabase();
  const stored = await db.rpc<{ sealed: string; confirmed: boolean } | null>("operator_totp_of", {
    p_user_id: userId,
  });
  if (!stored) return { ok: false };
  const step = matchingStep(unseal(stored.sealed), typed);
  if (step === null) return { ok: false };
  const recoveryCodes = stored.confirmed ? null : newRecoveryCodes();
  const accepted = await db.rpc<boolean>("use_operator_totp_step", {
    p_user_id: userId,
    p_step: step,
    p_recovery_hashes: recoveryCodes ? recoveryCodes.map((code) => recoveryHash(userId, code)) : null,
  });
  return accepted ? { ok: true, recoveryCodes } : { ok: false };
}

/** A recovery code, used once: how many are left, or null when it is not one (or was used). */
export async function spendRecoveryCode(userId: string, typed: string): Promise<number | null> {
  const db = await getDatabase();
  return db.rpc<number | null>("use_operator_recovery_code", {
    p_user_id: userId,
    p_code_hash: recoveryHash(userId, typed),
  });
}

function passedMac(userId: string, expires: string): string {
  return createHmac("sha256", getEnv().sessionSecret).update(`admin-2fa:${userId}:${expires}`).digest("base64url");
}

/** The cookie that remembers, for 12 hours, that this browser passed the second factor as `userId`. */
export function passedCookie(userId: string): string {
  const expires = String(Math.floor(Date.now() / 1000) + PASSED_SECONDS);
  const secure = getEnv().isProduction ? "; Secure" : "";
  return `${PASSED_COOKIE}=${userId}.${expires}.${passedMac(userId, expires)}; Path=/; Max-Age=${PASSED_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
}

/** The cookie a log out sends: the second factor is asked again at the next sign-in. */
export function clearedPassedCookie(): string {
  return `${PASSED_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`;
}

/** Whether this browser passed the second factor as `userId` in the last 12 hours. */
export function hasPassedTwoFactor(request: Request, userId: string): boolean {
  const match = PASSED_PATTERN.exec(cookieValue(request, PASSED_COOKIE, PASSED_PATTERN) ?? "");
  if (!match || match[1] !== userId || Number(match[2]) <= Date.now() / 1000) return false;
  const expected = Buffer.from(passedMac(userId, match[2]!));
  const given = Buffer.from(match[3]!);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
