import { getEnv } from "../runtime/env.server";

/** A failure reported by the identity provider, with its code (EMAIL_EXISTS, NETWORK_REQUEST_FAILED, ...). */
export class IdentityError extends Error {
  name = "IdentityError";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface PasswordSignIn {
  idToken: string;
  localId: string;
  email: string;
  displayName?: string;
}

function identityBaseUrl(): string {
  const { emulatorHost } = getEnv().firebase;
  return emulatorHost
    ? `http://${emulatorHost}/identitytoolkit.googleapis.com`
    : "https://identitytoolkit.googleapis.com";
}

const REQUEST_TIMEOUT_MS = 10_000;

/** Calls the Identity Toolkit REST API (the same endpoints the Firebase web SDK uses). */
async function callIdentity<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const url = `${identityBaseUrl()}${path}?key=${encodeURIComponent(getEnv().firebase.apiKey)}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: body ? { "content-type": "application/json" } : undefined,
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch {
    throw new IdentityError("NETWORK_REQUEST_FAILED", "The identity service could not be reached");
  }
  const payload = (await response.json().catch(() => ({}))) as { error?: { message?: string } } & T;
  if (!response.ok) {
    // The provider's message is "CODE" or "CODE : human readable text".
    const raw = payload.error?.message ?? `HTTP_${response.status}`;
    const [code, ...rest] = raw.split(" : ");
    throw new IdentityError(code!.trim(), rest.join(" : ").trim());
  }
  return payload;
}

export function signInWithPassword(email: string, password: string) {
  return callIdentity<PasswordSignIn>("POST", "/v1/accounts:signInWithPassword", {
    email,
    password,
    returnSecureToken: true,
    clientType: "CLIENT_TYPE_WEB",
  });
}

/** Exchanges a custom token made by firebase-admin for an ID token (the server acting as the user). */
export function signInWithCustomToken(token: string) {
  return callIdentity<{ idToken: string }>("POST", "/v1/accounts:signInWithCustomToken", {
    token,
    returnSecureToken: true,
  });
}

/**
 * Asks the provider to e-mail the user a verification link (it needs the user's own ID token).
 * `continueUrl` is where the provider's page sends the person once the link is opened: the
 * `url` of Firebase's action code settings, which the web SDK sends as this request's
 * `continueUrl` (@firebase/auth, `_setActionCodeSettingsOnRequest`; Identity Toolkit REST
 * reference, `accounts.sendOobCode`). Its domain must be one of the project's authorised domains
 * ("Passing State in Email Actions", Firebase docs); the provider refuses another with
 * UNAUTHORIZED_DOMAIN.
 */
export async function sendVerificationEmail(idToken: string, continueUrl?: string): Promise<void> {
  await callIdentity("POST", "/v1/accounts:sendOobCode", { requestType: "VERIFY_EMAIL", idToken, continueUrl });
}

export async function sendPasswordResetEmail(email: string): Promise<void> {
  await callIdentity("POST", "/v1/accounts:sendOobCode", { requestType: "PASSWORD_RESET", email });
}

const DOMAINS_TTL_MS = 10 * 60 * 1000;
let domainsCache: { domains: string[]; expires: number } | undefined;

/** The project's authorised domains (GET /v1/projects), cached for ten minutes. */
export async function getAuthorizedDomains(): Promise<string[] | null> {
  const override = getEnv().authorizedDomainsOverride;
  if (override?.length) return override;
  if (domainsCache && domainsCache.expires > Date.now()) return domainsCache.domains;
  try {
    const { authorizedDomains } = await callIdentity<{ authorizedDomains?: string[] }>("GET", "/v1/projects");
    const domains = (authorizedDomains ?? []).map((domain) => domain.toLowerCase());
    domainsCache = { domains, expires: Date.now() + DOMAINS_TTL_MS };
    return domains;
  } catch {
    return null; // Unknown: show no banner rather than a wrong one.
  }
}

/** Whether a request's host name may use the provider's sign-in (popup, redirects, reset links). */
export async function isDomainAuthorized(hostname: string): Promise<boolean> {
  const domains = await getAuthorizedDomains();
  if (!domains) return true;
  // Firebase matches host names exactly: a listed domain does not cover its subdomains.
  return domains.includes(hostname.toLowerCase());
}
