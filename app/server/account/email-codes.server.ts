import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import {
  EMAIL_CODE_FIELD,
  EMAIL_CODE_LENGTH,
  EMAIL_CODE_MINUTES,
  EMAIL_CODE_PATTERN,
  type EmailCodePurpose,
} from "~/domain/email-codes";
import { signalHash } from "./account-hash.server";
import { readDeviceId } from "../auth/device-id.server";
import { getDatabase } from "../db/database.server";
import { ruleViolation } from "../db/core.server";
import { clientAddress } from "../http/client-address.server";
import { cookieValue } from "../http/cookies.server";
import { requestOrigin } from "../http/same-origin.server";
import { createMailer, type EmailContent } from "../notifications/email.server";
import { getEnv } from "../runtime/env.server";
import { logValue } from "../runtime/log.server";

/**
 * Codes by email (docs/decisions/092): six digits sent to the account's address, asked at a sign-in
 * from a new device, before a withdrawal to an address or from a device no code confirmed, and
 * before deleting the account or turning the sign-in code off. The browser keeps a random challenge
 * in a cookie of the code's purpose; the database keeps only keyed hashes of the challenge and of
 * the code bound to it (start_email_code, check_email_code), the tries and the hourly allowance,
 * so two servers share them. A code is never logged.
 */

const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const END_SESSIONS_PATTERN = /^([0-9]{1,18})\.([A-Za-z0-9_-]{43})$/;

const cookieName = (purpose: EmailCodePurpose) => `__code_${purpose}`;

function keyed(text: string): string {
  return createHmac("sha256", getEnv().accountHashSecret).update(text).digest("hex");
}
const challengeHash = (challenge: string) => keyed(`email-code-challenge:${challenge}`);
const codeHash = (challenge: string, code: string) => keyed(`email-code:${challenge}:${code}`);

function challengeCookie(purpose: EmailCodePurpose, value: string, maxAge: number): string {
  const secure = getEnv().isProduction ? "; Secure" : "";
  return `${cookieName(purpose)}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

/** The cookie that forgets a purpose's challenge (once its code passed, or the person gave up). */
export function clearedChallengeCookie(purpose: EmailCodePurpose): string {
  return challengeCookie(purpose, "", 0);
}

function challengeOf(request: Request, purpose: EmailCodePurpose): string | null {
  return cookieValue(request, cookieName(purpose), CHALLENGE_PATTERN);
}

/** The keyed hash of this browser's device id (docs/decisions/064), or null when it has none. */
export function deviceHashOf(request: Request): string | null {
  const device = readDeviceId(request);
  return device ? signalHash("device", device) : null;
}

/** The code this browser is waiting for, for `purpose`: whose, to which address, and whether it is spent. */
export interface OpenCode {
  id: number;
  userId: string;
  email: string | null;
  recipientHash: string | null;
  locked: boolean;
}

export async function openCode(request: Request, purpose: EmailCodePurpose): Promise<OpenCode | null> {
  const challenge = challengeOf(request, purpose);
  if (!challenge) return null;
  const db = await getDatabase();
  const open = await db.rpc<{
    id: number;
    user_id: string;
    purpose: string;
    email: string | null;
    recipient_hash: string | null;
    locked: boolean;
  } | null>("email_code_challenge", { p_challenge_hash: challengeHash(challenge) });
  if (!open || open.purpose !== purpose) return null;
  return {
    id: Number(open.id),
    userId: open.user_id,
    email: open.email,
    recipientHash: open.recipient_hash,
    locked: open.locked,
  };
}

/** "j•••@example.com": where the code went, without showing the whole address on a shared screen. */
export function maskedEmail(email: string | null): string {
  if (!email) return "your email address";
  const at = email.lastIndexOf("@");
  if (at < 1) return email;
  return `${email[0]}•••${email.slice(at)}`;
}

/** "Chrome on Android": what the email says of the device that asked, from its User-Agent. */
export function deviceDescription(userAgent: string | null): string {
  const agent = userAgent ?? "";
  const has = (text: string) => agent.includes(text);
  const browser = has("Edg/")
    ? "Edge"
    : has("OPR/")
      ? "Opera"
      : has("SamsungBrowser/")
        ? "Samsung Internet"
        : has("Firefox/")
          ? "Firefox"
          : has("Chrome/") || has("CriOS/")
            ? "Chrome"
            : has("Safari/")
              ? "Safari"
              : null;
  const system = has("Android")
    ? "Android"
    : has("iPhone")
      ? "iPhone"
      : has("iPad")
        ? "iPad"
        : has("CrOS")
          ? "ChromeOS"
          : has("Windows")
            ? "Windows"
            : has("Mac OS X") || has("Macintosh")
              ? "macOS"
              : has("Linux")
                ? "Linux"
                : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "an unknown browser";
}

const REGIONS = new Intl.DisplayNames("en", { type: "region" });

/** Where the request came from, as far as the app can tell: "203.0.113.10 (Netherlands)". */
function placeOf(request: Request, country: string | null): string {
  const address = clientAddress(request);
  const region = country ? REGIONS.of(country) : undefined;
  if (!address) return region ?? "an address we could not see";
  return region ? `${address} (${region})` : address;
}

/** The "end every session" link of a code's email: its id, signed, so only the email can name it. */
function endSessionsToken(codeId: number): string {
  return `${codeId}.${createHmac("sha256", getEnv().accountHashSecret).update(`end-sessions:${codeId}`).digest("base64url")}`;
}

/** The code an end-sessions link names, or null when the link was not made here. */
export function codeOfEndSessionsToken(token: string | null): number | null {
  const match = END_SESSIONS_PATTERN.exec(token ?? "");
  if (!match) return null;
  const expected = Buffer.from(endSessionsToken(Number(match[1])).split(".")[1]!);
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? Number(match[1]) : null;
}

export const END_SESSIONS_PATH = "/end-sessions";

/** The email of a code: the digits, what they are for, where and from what the request came, and the way out. */
export function emailForCode(options: {
  code: string;
  what: string;
  at: Date;
  device: string;
  place: string;
  endSessionsUrl: string;
}): EmailContent {
  const when = `${options.at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const lines = [
    "Hi there,",
    "",
    `Your code to ${options.what} is:`,
    "",
    options.code,
    "",
    `It works once, for ${EMAIL_CODE_MINUTES} minutes, on the device that asked for it.`,
    "",
    `Asked for on ${when} from ${options.device}, at ${options.place}.`,
    "",
    "Not you? Someone knows your password. End every session of your account:",
    options.endSessionsUrl,
    'Then choose a new password with "Forgot password?" on the sign-in page.',
    "",
    "--",
    "We never ask for this code by phone, chat or email. Do not give it to anyone.",
    "",
  ];
  const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
  const paragraph = (content: string, style = "") => `<p${style ? ` style="${style}"` : ""}>${content}</p>`;
  const html = [
    "<!doctype html>",
    '<html><body style="font-family:system-ui,-apple-system,sans-serif;line-height:1.5;color:#111827">',
    paragraph("Hi there,"),
    paragraph(`Your code to ${escape(options.what)} is:`),
    paragraph(escape(options.code), "font-size:28px;font-weight:700;letter-spacing:6px"),
    paragraph(`It works once, for ${EMAIL_CODE_MINUTES} minutes, on the device that asked for it.`),
    paragraph(`Asked for on ${escape(when)} from ${escape(options.device)}, at ${escape(options.place)}.`),
    paragraph(
      `Not you? Someone knows your password. <a href="${escape(options.endSessionsUrl)}">End every session of your account</a>, ` +
        "then choose a new password with “Forgot password?” on the sign-in page.",
    ),
    "<hr>",
    paragraph(
      "We never ask for this code by phone, chat or email. Do not give it to anyone.",
      "color:#6b7280;font-size:12px",
    ),
    "</body></html>",
  ].join("\n");
  return { subject: `${options.code} is your Rewards code`, text: lines.join("\n"), html };
}

let mailer: ReturnType<typeof createMailer> | null | undefined;
function codeMailer() {
  if (mailer === undefined) {
    const config = getEnv().notifications.email;
    mailer = config ? createMailer(config) : null;
  }
  return mailer;
}

export type SentCode =
  | { ok: true; setCookie: string; sentTo: string }
  /** 429: too many codes this hour; 400: the account cannot get one; 503: it could not be sent. */
  | { ok: false; message: string; status: 400 | 429 | 503 };

export const CODE_NOT_SENT = "We could not send your code. Please try again in a moment.";

/**
 * Makes a code for `purpose` (ending the account's earlier one for it), sends it and gives this
 * browser the challenge. Refused: too many codes this hour, no address, or no way to send email
 * (fail closed: a code that cannot be sent is not skipped).
 */
export async function sendEmailCode(
  request: Request,
  options: {
    userId: string;
    purpose: EmailCodePurpose;
    what: string;
    recipientHash?: string | null;
    country?: string | null;
  },
): Promise<SentCode> {
  const send = codeMailer();
  if (!send) {
    console.error("email code: not sent: SMTP_URL is not set, and codes by email are asked for");
    return { ok: false, message: CODE_NOT_SENT, status: 503 };
  }
  const challenge = randomBytes(32).toString("base64url");
  const code = String(randomInt(0, 10 ** EMAIL_CODE_LENGTH)).padStart(EMAIL_CODE_LENGTH, "0");
  const db = await getDatabase();
  let started: { id: number; email: string };
  try {
    started = await db.rpc<{ id: number; email: string }>("start_email_code", {
      p_user_id: options.userId,
      p_purpose: options.purpose,
      p_challenge_hash: challengeHash(challenge),
      p_code_hash: codeHash(challenge, code),
      p_device_hash: deviceHashOf(request),
      p_recipient_hash: options.recipientHash ?? null,
    });
  } catch (error) {
    const violation = ruleViolation(error);
    if (
      violation?.rule === "email_code_rate_limited" ||
      violation?.rule === "email_code_no_address" ||
      violation?.rule === "account_banned"
    ) {
      return {
        ok: false,
        message: violation.message,
        status: violation.rule === "email_code_rate_limited" ? 429 : 400,
      };
    }
    throw error;
  }
  const origin = getEnv().publicUrl ?? requestOrigin(request);
  const content = emailForCode({
    code,
    what: options.what,
    at: new Date(),
    device: deviceDescription(request.headers.get("user-agent")),
    place: placeOf(request, options.country ?? null),
    endSessionsUrl: `${origin}${END_SESSIONS_PATH}?${new URLSearchParams({ link: endSessionsToken(Number(started.id)) })}`,
  });
  const result = await send.send(started.email, content);
  if (result.outcome !== "sent") {
    console.error(`email code (${options.purpose}): not sent: ${logValue(result.detail)}`);
    return { ok: false, message: CODE_NOT_SENT, status: 503 };
  }
  return {
    ok: true,
    setCookie: challengeCookie(options.purpose, challenge, EMAIL_CODE_MINUTES * 60),
    sentTo: maskedEmail(started.email),
  };
}

export type CheckedCode =
  { outcome: "passed"; userId: string } | { outcome: "wrong" | "locked" | "expired"; message: string };

/** The words for a code that did not pass. */
export const CODE_MESSAGES = {
  format: `Enter the ${EMAIL_CODE_LENGTH}-digit code from the email.`,
  wrong: (triesLeft: number) =>
    `That code is not right. ${triesLeft === 1 ? "1 try is" : `${triesLeft} tries are`} left before you need a new code.`,
  locked: "Too many wrong codes. Send yourself a new code.",
  expired: "This code has expired or was replaced. Send yourself a new code.",
  signInAgain: "Your code has expired. Please sign in again.",
} as const;

/**
 * Checks the typed code against this browser's challenge for `purpose`: each code checked uses a
 * try, whatever the answer (an entry that is not six digits is no guess, and uses none). A
 * withdrawal's code passes only for the payout address it was sent for.
 */
export async function checkEmailCode(
  request: Request,
  purpose: EmailCodePurpose,
  typed: string,
  recipientHash: string | null = null,
): Promise<CheckedCode> {
  const challenge = challengeOf(request, purpose);
  if (!challenge) return { outcome: "expired", message: CODE_MESSAGES.expired };
  // Pasted as "123 456" or "123-456" is the same code.
  const digits = typed.replace(/[\s-]/g, "");
  if (!EMAIL_CODE_PATTERN.test(digits)) return { outcome: "wrong", message: CODE_MESSAGES.format };
  const db = await getDatabase();
  const checked = await db.rpc<{
    outcome: "passed" | "wrong" | "locked" | "expired";
    user_id?: string;
    tries_left?: number;
  }>("check_email_code", {
    p_challenge_hash: challengeHash(challenge),
    p_purpose: purpose,
    p_code_hash: codeHash(challenge, digits),
    p_recipient_hash: recipientHash,
  });
  switch (checked.outcome) {
    case "passed":
      return { outcome: "passed", userId: checked.user_id! };
    case "wrong":
      return { outcome: "wrong", message: CODE_MESSAGES.wrong(Number(checked.tries_left)) };
    case "locked":
      return { outcome: "locked", message: CODE_MESSAGES.locked };
    default:
      return { outcome: "expired", message: CODE_MESSAGES.expired };
  }
}

/** Where a refused code's words go in its form's reply: a wrong code on the code's field, the rest on the banner. */
export function codeRefusal(checked: Exclude<CheckedCode, { outcome: "passed" }>) {
  return checked.outcome === "wrong"
    ? { fieldErrors: { [EMAIL_CODE_FIELD]: [checked.message] } }
    : { formErrors: [checked.message] };
}

/** Whether a withdrawal to `recipientHash` from this browser asks a code first, and why. */
export async function withdrawalCodeNeeded(request: Request, userId: string, recipientHash: string | null) {
  if (!getEnv().emailCodes) return null;
  const db = await getDatabase();
  return db.rpc<"new_address" | "new_device" | "code_age" | null>("withdrawal_code_needed", {
    p_user_id: userId,
    p_device_hash: deviceHashOf(request),
    p_recipient_hash: recipientHash,
  });
}

/** Whether a sign-in of `userId` from a device it has not used asks a code (its own choice, else the setting). */
export async function signInCodeOn(userId: string): Promise<boolean> {
  if (!getEnv().emailCodes) return false;
  const db = await getDatabase();
  return db.rpc<boolean>("signin_code_on", { p_user_id: userId });
}

/** The account an end-sessions link names (its open codes end), or null for a link too old or not ours. */
export async function endSessionsAccount(token: string | null): Promise<string | null> {
  const codeId = codeOfEndSessionsToken(token);
  if (codeId === null) return null;
  const db = await getDatabase();
  return db.rpc<string | null>("end_email_code_account", { p_code_id: codeId });
}
