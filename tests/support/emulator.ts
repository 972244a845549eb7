/** Direct calls to the Firebase Auth emulator (what Google's servers would do in production). */
export function emulatorHost(): string {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!host) throw new Error("FIREBASE_AUTH_EMULATOR_HOST is not set: run the tests through `npm test`");
  return host;
}

const PROJECT_ID = process.env.FIREBASE_PROJECT_ID ?? "demo-rewards";

async function identity<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/${path}?key=demo-api-key`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const payload = (await response.json()) as T & { error?: { message: string } };
  if (!response.ok) throw new Error(payload.error?.message ?? `HTTP ${response.status}`);
  return payload;
}

/** Signs in "with Google" the way the emulator's popup does, returning a fresh ID token. */
export async function googleIdToken(profile: { sub: string; email: string; name?: string }) {
  const claims = JSON.stringify({ ...profile, email_verified: true });
  const result = await identity<{ idToken: string; localId: string }>("accounts:signInWithIdp", {
    postBody: `id_token=${encodeURIComponent(claims)}&providerId=google.com`,
    requestUri: "http://localhost",
    returnIdpCredential: true,
    returnSecureToken: true,
  });
  return result;
}

export async function signUpDirect(email: string, password: string) {
  return identity<{ idToken: string; localId: string }>("accounts:signUp", {
    email,
    password,
    returnSecureToken: true,
  });
}

/** Sets an account's display name at the provider, as any signed-in user can for their own account. */
export async function setProviderDisplayName(idToken: string, displayName: string) {
  await identity("accounts:update", { idToken, displayName, returnSecureToken: true });
}

interface OobCode {
  email: string;
  requestType: string;
  oobCode: string;
  /** Opening it does what the emailed link would (verifies the email, ...). */
  oobLink: string;
}

/** Out-of-band codes (password reset and verification emails) the emulator "sent". */
export async function sentOobCodes(): Promise<OobCode[]> {
  const response = await fetch(`http://${emulatorHost()}/emulator/v1/projects/${PROJECT_ID}/oobCodes`);
  const payload = (await response.json()) as { oobCodes: OobCode[] };
  return payload.oobCodes;
}

/**
 * Opens an emailed link as a browser does, without following where the provider's page then sends
 * the browser: that address (the link's continue URL), or null when the page ends there.
 */
export async function openOobLink(oobLink: string): Promise<string | null> {
  const response = await fetch(oobLink, { redirect: "manual" });
  if (response.status === 303) return response.headers.get("location");
  if (!response.ok) throw new Error(`opening ${oobLink}: HTTP ${response.status} ${await response.text()}`);
  return null;
}

/** Where an emailed link says the person returns once it has been opened (its continueUrl), or null. */
export function continueUrlOf(oobLink: string): string | null {
  return new URL(oobLink).searchParams.get("continueUrl");
}

/** What the page a password-reset email links to does: sets a new password with the email's code. */
export async function resetPasswordWithCode(oobCode: string, newPassword: string) {
  return identity<{ email: string }>("accounts:resetPassword", { oobCode, newPassword });
}

/**
 * The emulator's ID tokens are unsigned JWTs (alg "none"), which firebase-admin accepts against
 * the emulator. This rewrites one so that its sign-in (`auth_time`) lies `seconds` in the past,
 * the way a token kept by a browser for a while looks.
 */
export function withSignInAge(idToken: string, seconds: number): string {
  const [header, payload] = idToken.split(".");
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as { iat: number; auth_time: number };
  claims.auth_time = claims.iat - seconds;
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
}

/** Sets an account's custom claims, as firebase-admin's setCustomUserClaims does (the emulator takes `Bearer owner` as the admin). */
export async function setCustomClaims(uid: string, claims: Record<string, unknown>) {
  const response = await fetch(
    `http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:update`,
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer owner" },
      body: JSON.stringify({ localId: uid, customAttributes: JSON.stringify(claims) }),
    },
  );
  if (!response.ok) throw new Error(`setting claims: HTTP ${response.status} ${await response.text()}`);
}
