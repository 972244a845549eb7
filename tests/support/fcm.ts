import { generateKeyPairSync, randomBytes, randomUUID, verify, type KeyObject } from "node:crypto";
import type http from "node:http";
import { scriptedFailures, startHttpStandIn } from "./stand-in";

/**
 * A local stand-in for Google's OAuth2 token endpoint and FCM HTTP v1, written from Google's
 * documentation independently of the app's client. The token endpoint takes the JWT bearer grant
 * (RFC 7523) and checks the assertion's RS256 signature against the service account's public key
 * and its claims (iss, scope, aud, iat, exp); `messages:send` checks the bearer token, the project
 * and the message's shape, and records what it accepts. It can answer 404 UNREGISTERED or 400
 * INVALID_ARGUMENT for chosen device tokens, fail the next N calls (500, 503, 429 with
 * Retry-After) and expire the tokens it issued (401).
 */

export const FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
export const TOKEN_PATH = "/token";

/** A service account with a fresh RSA key pair, shaped like the JSON file Google hands out. */
export function testServiceAccount(projectId = "demo-rewards") {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const json = {
    type: "service_account",
    project_id: projectId,
    private_key_id: randomBytes(20).toString("hex"),
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
    client_email: `rewards-push@${projectId}.iam.gserviceaccount.com`,
    client_id: `1${randomBytes(10).readBigUInt64BE().toString().padStart(20, "0")}`,
    auth_uri: "https://accounts.google.com/o/oauth2/auth",
    // Google's own: the app is pointed at the stand-in with FCM_TOKEN_URI, as docs/notifications.md says.
    token_uri: "https://oauth2.googleapis.com/token",
  };
  return { json, publicKey, text: JSON.stringify(json) };
}

export interface ReceivedPush {
  projectId: string;
  token: string;
  notification: { title: string; body: string };
  webpush?: { fcm_options?: { link?: string } };
  data: Record<string, string>;
  messageName: string;
}

export type FcmFailure = { status: 500 | 503 } | { status: 429; retryAfterSeconds: number };

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

function googleError(code: number, status: string, message: string, details?: unknown[]): Answer {
  return { status: code, body: { error: { code, message, status, ...(details ? { details } : {}) } } };
}

const FCM_ERROR_TYPE = "type.googleapis.com/google.firebase.fcm.v1.FcmError";

export async function startFcmStandIn({
  publicKey,
  clientEmail,
  projectId = "demo-rewards",
}: {
  publicKey: KeyObject;
  clientEmail: string;
  projectId?: string;
}) {
  const accessTokens = new Map<string, number>(); // token → expires at (ms)
  const unregistered = new Set<string>();
  const invalid = new Set<string>();
  const failures = scriptedFailures<FcmFailure>();
  const received: ReceivedPush[] = [];
  const refusedAssertions: string[] = [];
  const state = { tokenTtlSeconds: 3599, tokensIssued: 0 };
  let url = "";

  function refuseAssertion(description: string): Answer {
    refusedAssertions.push(description);
    return { status: 400, body: { error: "invalid_grant", error_description: description } };
  }

  /** Google's checks of a JWT bearer assertion (https://developers.google.com/identity/protocols/oauth2/service-account). */
  function issueToken(body: string): Answer {
    const form = new URLSearchParams(body);
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
      return { status: 400, body: { error: "unsupported_grant_type", error_description: "Invalid grant_type" } };
    }
    const parts = (form.get("assertion") ?? "").split(".");
    if (parts.length !== 3)
      return refuseAssertion("Invalid JWT: Token must be a short-lived token and in a reasonable timeframe");
    const [headerPart, claimsPart, signaturePart] = parts as [string, string, string];
    let header: Record<string, unknown>;
    let claims: Record<string, unknown>;
    try {
      header = JSON.parse(Buffer.from(headerPart, "base64url").toString("utf8")) as Record<string, unknown>;
      claims = JSON.parse(Buffer.from(claimsPart, "base64url").toString("utf8")) as Record<string, unknown>;
    } catch {
      return refuseAssertion("Invalid JWT: not JSON");
    }
    if (header.alg !== "RS256") return refuseAssertion(`Invalid JWT: alg ${String(header.alg)}`);
    const signed = verify(
      "sha256",
      Buffer.from(`${headerPart}.${claimsPart}`),
      publicKey,
      Buffer.from(signaturePart, "base64url"),
    );
    if (!signed) return refuseAssertion("Invalid JWT Signature.");
    const now = Math.floor(Date.now() / 1000);
    if (claims.iss !== clientEmail) return refuseAssertion("Invalid JWT: iss is not the service account");
    if (claims.aud !== url + TOKEN_PATH) return refuseAssertion(`Invalid JWT: aud ${String(claims.aud)}`);
    if (typeof claims.scope !== "string" || !claims.scope.split(" ").includes(FCM_SCOPE)) {
      return refuseAssertion("Invalid JWT: the scope does not include firebase.messaging");
    }
    const iat = Number(claims.iat);
    const exp = Number(claims.exp);
    if (!Number.isInteger(iat) || !Number.isInteger(exp) || iat > now + 60 || exp <= now || exp - iat > 3600) {
      return refuseAssertion(
        "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe",
      );
    }
    const token = `ya29.${randomBytes(24).toString("base64url")}`;
    accessTokens.set(token, Date.now() + state.tokenTtlSeconds * 1000);
    state.tokensIssued += 1;
    return { status: 200, body: { access_token: token, expires_in: state.tokenTtlSeconds, token_type: "Bearer" } };
  }

  function authorised(request: http.IncomingMessage): boolean {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    const expiresAt = token ? accessTokens.get(token) : undefined;
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  const isText = (value: unknown) => typeof value === "string";

  function send(project: string, body: string): Answer {
    if (project !== projectId) {
      return googleError(
        403,
        "PERMISSION_DENIED",
        `Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/${project}'`,
      );
    }
    let message: Record<string, unknown> | undefined;
    try {
      message = (JSON.parse(body) as { message?: Record<string, unknown> }).message;
    } catch {
      return googleError(400, "INVALID_ARGUMENT", "Invalid JSON payload received.");
    }
    const notification = message?.notification as Record<string, unknown> | undefined;
    const data = (message?.data ?? {}) as Record<string, unknown>;
    const link = (message?.webpush as { fcm_options?: { link?: unknown } } | undefined)?.fcm_options?.link;
    const invalidArgument = (description: string, field: string) =>
      googleError(400, "INVALID_ARGUMENT", description, [
        { "@type": FCM_ERROR_TYPE, errorCode: "INVALID_ARGUMENT" },
        { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field, description }] },
      ]);
    if (!message || !isText(message.token))
      return invalidArgument("Recipient of the message is not set.", "message.token");
    if (!notification || !isText(notification.title) || !isText(notification.body)) {
      return invalidArgument("Invalid notification", "message.notification");
    }
    if (typeof data !== "object" || Object.values(data).some((value) => !isText(value))) {
      return invalidArgument("Invalid value at 'message.data': values must be strings", "message.data");
    }
    if (link !== undefined && !(isText(link) && (link as string).startsWith("https://"))) {
      return invalidArgument("Invalid link: HTTPS is required", "message.webpush.fcm_options.link");
    }
    const token = message.token as string;
    if (invalid.has(token)) {
      return googleError(400, "INVALID_ARGUMENT", "The registration token is not a valid FCM registration token", [
        { "@type": FCM_ERROR_TYPE, errorCode: "INVALID_ARGUMENT" },
      ]);
    }
    if (unregistered.has(token)) {
      return googleError(404, "NOT_FOUND", "Requested entity was not found.", [
        { "@type": FCM_ERROR_TYPE, errorCode: "UNREGISTERED" },
      ]);
    }
    const messageName = `projects/${projectId}/messages/${randomUUID()}`;
    received.push({
      projectId: project,
      token,
      notification: notification as ReceivedPush["notification"],
      ...(message.webpush ? { webpush: message.webpush as ReceivedPush["webpush"] } : {}),
      data: data as Record<string, string>,
      messageName,
    });
    return { status: 200, body: { name: messageName } };
  }

  function route(request: http.IncomingMessage, path: string, body: string): Answer {
    if (request.method === "POST" && path === TOKEN_PATH) return issueToken(body);
    const target = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(path);
    if (request.method !== "POST" || !target) return googleError(404, "NOT_FOUND", "Not found");
    if (!authorised(request)) {
      return googleError(
        401,
        "UNAUTHENTICATED",
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
      );
    }
    return send(decodeURIComponent(target[1]!), body);
  }

  const server = await startHttpStandIn(({ request, incoming, json }) => {
    const failure = failures.take(request.path);
    const answer: Answer = failure
      ? failure.status === 429
        ? {
            ...googleError(429, "RESOURCE_EXHAUSTED", "Quota exceeded", [
              { "@type": FCM_ERROR_TYPE, errorCode: "QUOTA_EXCEEDED" },
            ]),
            headers: { "retry-after": String(failure.retryAfterSeconds) },
          }
        : googleError(
            failure.status,
            failure.status === 500 ? "INTERNAL" : "UNAVAILABLE",
            "The service is currently unavailable.",
            [{ "@type": FCM_ERROR_TYPE, errorCode: failure.status === 500 ? "INTERNAL" : "UNAVAILABLE" }],
          )
      : route(incoming, request.path, request.body);
    json(answer.status, answer.body, { "content-type": "application/json; charset=UTF-8", ...answer.headers });
  });
  url = server.url;

  return {
    url,
    state,
    requests: server.requests,
    refusedAssertions,
    /** The environment that points the app's push at this stand-in (with FIREBASE_SERVICE_ACCOUNT). */
    env: { FCM_API_URL: url, FCM_TOKEN_URI: url + TOKEN_PATH },
    /** Every push accepted, in order. */
    received,
    /** The pushes accepted for one device token. */
    pushesTo: (token: string) => received.filter((push) => push.token === token),
    /** FCM answers 404 UNREGISTERED for this device token from now on. */
    unregister: (token: string) => void unregistered.add(token),
    /** FCM answers 400 INVALID_ARGUMENT ("not a valid FCM registration token") for it. */
    markInvalid: (token: string) => void invalid.add(token),
    /** The next `count` calls (to paths matching `path`, if given) fail as `failure` says. */
    failNext: failures.failNext,
    clearFailures: failures.clearFailures,
    /** Every access token issued so far stops working (FCM answers 401). */
    expireAccessTokens() {
      for (const token of accessTokens.keys()) accessTokens.set(token, 0);
    },
    close: server.close,
  };
}

export type FcmStandIn = Awaited<ReturnType<typeof startFcmStandIn>>;
