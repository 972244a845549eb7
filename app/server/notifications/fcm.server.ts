import type { TimeZone } from "~/domain/dates";
import { createPrivateKey, sign, type KeyObject } from "node:crypto";
import { noticeLinkPath, noticeMessage, type UserNotice } from "~/domain/notices";
import type { Env } from "../runtime/env.server";

/**
 * Push through FCM HTTP v1: an OAuth2 access token from the service account (the JWT bearer grant
 * of RFC 7523, an RS256 assertion signed with the account's private key), then one
 * `messages:send` per device token. The endpoints are configurable (FCM_API_URL, FCM_TOKEN_URI),
 * so tests talk to a local server that speaks the same protocol.
 */
export type PushConfig = NonNullable<Env["notifications"]["push"]>;

export const FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
// Google accepts assertions of at most an hour.
const ASSERTION_LIFETIME_SECONDS = 3600;
// A token is replaced this long before it expires, so no message goes out with one that dies on the way.
const TOKEN_EXPIRY_MARGIN_MS = 5 * 60_000;
const REQUEST_TIMEOUT_MS = 10_000;

/** What the person sees, and what the page's service worker gets along with it. */
export interface PushContent {
  title: string;
  body: string;
  /** The page a click opens, or null without an https PUBLIC_URL (FCM refuses any other link). */
  link: string | null;
  /** FCM data values are strings. */
  data: Record<string, string>;
}

/** The outcome of one message to one device token. */
export type PushResult =
  | { outcome: "sent"; messageName: string }
  /** The token reaches no device any more (FCM: UNREGISTERED, or not a token at all): drop it. */
  | { outcome: "unregistered"; detail: string }
  /** Worth trying again later (5xx, 429, the network, an expired or refused access token, ...). */
  | { outcome: "failed"; detail: string; retryAfterSeconds: number | null };

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** The signed JWT a service account trades for an access token (header.claims.signature, RS256). */
export function serviceAccountAssertion(
  account: Pick<PushConfig, "clientEmail" | "privateKeyId" | "tokenUri">,
  privateKey: KeyObject | string,
  nowSeconds: number,
): string {
  const header = { alg: "RS256", typ: "JWT", ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) };
  const claims = {
    iss: account.clientEmail,
    scope: FCM_SCOPE,
    aud: account.tokenUri,
    iat: nowSeconds,
    exp: nowSeconds + ASSERTION_LIFETIME_SECONDS,
  };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  return `${unsigned}.${base64url(sign("sha256", Buffer.from(unsigned), privateKey))}`;
}

/** The push for a notice: the words of app/domain/notices.ts, and a link to the page it is about. */
export function pushForNotice(
  notice: Pick<UserNotice, "id" | "kind" | "data">,
  publicUrl: string | null,
  zone: TimeZone = null,
): PushContent {
  const { title, description } = noticeMessage(notice, new Date(), zone);
  const link = publicUrl?.startsWith("https://") ? new URL(noticeLinkPath(notice), publicUrl).toString() : null;
  return {
    title,
    body: description ?? "",
    link,
    data: { kind: notice.kind, notice_id: String(notice.id), ...(link ? { link } : {}) },
  };
}

/** The body of `messages:send` for one device. */
export function fcmMessage(token: string, content: PushContent) {
  return {
    message: {
      token,
      notification: { title: content.title, body: content.body },
      ...(content.link ? { webpush: { fcm_options: { link: content.link } } } : {}),
      data: content.data,
    },
  };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => "");
  try {
    return text === "" ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** FCM's error: `{ error: { code, message, status, details: [{ errorCode }, { fieldViolations }] } }`. */
function fcmError(payload: unknown) {
  const error = isObject(payload) && isObject(payload.error) ? payload.error : {};
  const details = Array.isArray(error.details) ? error.details.filter(isObject) : [];
  const errorCode = details.map((detail) => detail.errorCode).find((code) => typeof code === "string") as
    string | undefined;
  const fields = details.flatMap((detail) =>
    Array.isArray(detail.fieldViolations) ? detail.fieldViolations.filter(isObject).map((v) => String(v.field)) : [],
  );
  return {
    code: errorCode ?? (typeof error.status === "string" ? error.status : null),
    message: typeof error.message === "string" ? error.message : "",
    fields,
  };
}

function retryAfterSeconds(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : null;
}

export interface FcmClientOptions {
  fetch?: typeof fetch;
  /** Milliseconds since the epoch (tests move the clock). */
  now?: () => number;
}

/** Throws when the service account's private key cannot be read (the worker then sends no push). */
export function createFcmClient(config: PushConfig, options: FcmClientOptions = {}) {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const privateKey = createPrivateKey(config.privateKey);
  const sendUrl = `${config.apiUrl}/v1/projects/${encodeURIComponent(config.projectId)}/messages:send`;

  let token: { value: string; refreshAt: number } | null = null;
  let tokenInFlight: Promise<string> | null = null;

  async function fetchToken(): Promise<string> {
    const requestedAt = now();
    const response = await doFetch(config.tokenUri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        grant_type: JWT_BEARER_GRANT,
        assertion: serviceAccountAssertion(config, privateKey, Math.floor(requestedAt / 1000)),
      }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const payload = await readJson(response);
    const body = isObject(payload) ? payload : {};
    if (!response.ok || typeof body.access_token !== "string") {
      const reason = [body.error, body.error_description].filter((part) => typeof part === "string").join(": ");
      throw new Error(`access token refused (${response.status}${reason ? ` ${reason}` : ""})`);
    }
    const expiresIn = Number(body.expires_in);
    const lifetimeMs = Number.isFinite(expiresIn) ? expiresIn * 1000 : 0;
    token = { value: body.access_token, refreshAt: requestedAt + Math.max(0, lifetimeMs - TOKEN_EXPIRY_MARGIN_MS) };
    return body.access_token;
  }

  /** The cached token while it is good; sends that need one at the same moment share one request. */
  function accessToken(): Promise<string> {
    if (token && now() < token.refreshAt) return Promise.resolve(token.value);
    tokenInFlight ??= fetchToken().finally(() => (tokenInFlight = null));
    return tokenInFlight;
  }

  async function post(deviceToken: string, content: PushContent, accessTokenValue: string) {
    const response = await doFetch(sendUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${accessTokenValue}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify(fcmMessage(deviceToken, content)),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { response, payload: await readJson(response) };
  }

  return {
    /** Sends one push to one device. Never throws: every failure is an outcome. */
    async send(deviceToken: string, content: PushContent): Promise<PushResult> {
      try {
        let used = await accessToken();
        let { response, payload } = await post(deviceToken, content, used);
        if (response.status === 401) {
          // Revoked or expired early: forget it (unless another send already has) and try once more.
          if (token?.value === used) token = null;
          used = await accessToken();
          ({ response, payload } = await post(deviceToken, content, used));
        }
        if (response.ok) {
          const name = isObject(payload) && typeof payload.name === "string" ? payload.name : "";
          return { outcome: "sent", messageName: name };
        }
        const error = fcmError(payload);
        const detail = `FCM ${response.status} ${error.code ?? ""}${error.message ? `: ${error.message}` : ""}`.trim();
        const tokenRefused =
          error.code === "UNREGISTERED" ||
          (response.status === 400 &&
            error.code === "INVALID_ARGUMENT" &&
            (error.fields.includes("message.token") || /registration token/i.test(error.message)));
        if (tokenRefused) return { outcome: "unregistered", detail };
        return { outcome: "failed", detail, retryAfterSeconds: retryAfterSeconds(response.headers.get("retry-after")) };
      } catch (error) {
        return { outcome: "failed", detail: `FCM: ${(error as Error).message}`, retryAfterSeconds: null };
      }
    },
  };
}
