import { randomBytes } from "node:crypto";
import type { DocumentFeature } from "~/domain/document-policy";
import type { Env } from "../runtime/env.server";

/** A fresh nonce for one document's scripts (128 random bits). */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

// What Firebase's web SDKs reach from the page (firebase 12, read from its sources): Google sign-in
// loads Google's script loader, which frames the auth domain's helper page and calls the Identity
// Toolkit; with the Auth emulator, the frame and the calls go to the emulator instead. Web push
// asks the installations and registrations APIs for the device's token.
const GOOGLE_SCRIPT_LOADER = "https://apis.google.com";
const GOOGLE_AUTH_APIS = ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"];
const FCM_APIS = ["https://firebaseinstallations.googleapis.com", "https://fcmregistrations.googleapis.com"];

// Every powerful browser feature the app does not use is off, for it and for anything it could
// ever frame. Left at their default (this origin only): clipboard-write and web-share, which copy
// and share the referral link (some browsers warn about `web-share` as unknown), and
// clipboard-read, which always asks the person first. Notifications are asked for by permission,
// not by this policy.
const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "camera=()",
  "display-capture=()",
  "encrypted-media=()",
  "fullscreen=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "idle-detection=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "picture-in-picture=()",
  "publickey-credentials-get=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
].join(", ");

type PolicyEnv = Pick<Env, "isProduction" | "firebase">;

/**
 * The Content-Security-Policy of a document that needs `features`. Scripts run only from this
 * origin or with this response's nonce; styles likewise: the app's stylesheet is inline in the
 * document with the nonce (components/InlineStylesheet.tsx), and the app sets no style
 * attributes; nothing may frame the app, and forms post only to it.
 */
export function contentSecurityPolicy(
  nonce: string,
  features: ReadonlySet<DocumentFeature>,
  env: PolicyEnv,
  devOrigin: string | undefined = process.env.REMIX_DEV_ORIGIN,
  stylesheetHash: string | null = null,
  frameOrigins: readonly string[] = [],
): string {
  const script = ["'self'", `'nonce-${nonce}'`];
  // The stylesheet's hash as well as the nonce: a root error boundary re-renders the whole document
  // in the browser, which cannot know the nonce, so it puts the same CSS back and the hash allows it.
  const style = ["'self'", `'nonce-${nonce}'`, ...(stylesheetHash ? [stylesheetHash] : [])];
  const connect = ["'self'"];
  // An offer wall's page frames that network's wall, and nothing else does (docs/offer-walls.md).
  const frame: string[] = [...frameOrigins];
  // The app's one service worker (/service-worker.js: the offline page, and push), registered from
  // every page; no other worker, and none from elsewhere.
  const worker = ["'self'"];
  // Style attributes: none in the app; Google's script loader may style its hidden iframe with one.
  let styleAttributes: string[] | null = null;

  if (features.has("google-sign-in")) {
    const emulator = env.firebase.emulatorHost ? `http://${env.firebase.emulatorHost}` : null;
    script.push(GOOGLE_SCRIPT_LOADER);
    frame.push(emulator ?? `https://${env.firebase.authDomain}`);
    connect.push(...(emulator ? [emulator] : GOOGLE_AUTH_APIS));
    styleAttributes = ["'unsafe-inline'"];
  }
  if (features.has("web-push")) connect.push(...FCM_APIS);
  // `remix dev` (development only): its live-reload runtime and socket.
  if (!env.isProduction && devOrigin) {
    const origin = new URL(devOrigin);
    script.push(origin.origin);
    connect.push(origin.origin, `ws://${origin.host}`);
  }

  const directives: [string, string[]][] = [
    ["default-src", ["'self'"]],
    ["script-src", script],
    ["style-src", style],
    ...(styleAttributes ? ([["style-src-attr", styleAttributes]] as [string, string[]][]) : []),
    ["img-src", ["'self'"]],
    ["font-src", ["'self'"]],
    ["connect-src", connect],
    ["frame-src", frame],
    ["worker-src", worker],
    ["manifest-src", ["'self'"]],
    ["object-src", []],
    ["base-uri", []],
    ["form-action", ["'self'"]],
    ["frame-ancestors", []],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.length ? sources.join(" ") : "'none'"}`).join("; ");
}

/** Every document's security headers (entry.server.tsx sets them on pages, error pages and the 404 page alike). */
export function documentSecurityHeaders(
  nonce: string,
  features: ReadonlySet<DocumentFeature>,
  env: PolicyEnv,
  stylesheetHash: string | null = null,
  frameOrigins: readonly string[] = [],
): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(nonce, features, env, undefined, stylesheetHash, frameOrigins),
    ...otherHeaders(env),
  };
}

/**
 * The headers of a document made without React and without any script (the offline page): nothing
 * may load but this origin's images and the one inline stylesheet whose hash is `styleHash`.
 */
export function staticDocumentSecurityHeaders(styleHash: string, env: PolicyEnv): Record<string, string> {
  const policy = [
    "default-src 'none'",
    `style-src ${styleHash}`,
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return { "Content-Security-Policy": policy, ...otherHeaders(env) };
}

function otherHeaders(env: PolicyEnv): Record<string, string> {
  return {
    "Permissions-Policy": PERMISSIONS_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // For browsers older than `frame-ancestors`.
    "X-Frame-Options": "DENY",
    // Production is served over HTTPS (browsers ignore this header over plain HTTP). One year,
    // without includeSubDomains: other hosts of the same domain are not this app's to decide.
    ...(env.isProduction ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
  };
}
