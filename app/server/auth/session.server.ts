import { createCookie, redirect } from "@remix-run/node";
import { MAX_ID_TOKEN_AGE_SECONDS, SESSION_MAX_AGE_SECONDS } from "~/domain/constants";
import { isOperatorRole, type OperatorRole } from "~/domain/operator-roles";
import { getDatabase } from "../db/database.server";
import type { RequestScope } from "../db/reads.server";
import { announceSessionsEnded, subscribeToSessionEnds } from "../db/live.server";
import { getEnv } from "../runtime/env.server";
import { serviceUnavailable } from "../runtime/unavailable.server";
import { getAdminAuth, isFirebaseUnavailable } from "./firebase-admin.server";
import { signInWithCustomToken } from "./identity.server";
import { seenOnboardingCookie } from "../http/cookies.server";
import { setFlash, type Flash } from "../http/flash.server";
import { endUserStreams } from "../earning/live-events.server";

/** The signed-in person, as the verified Firebase session cookie says. */
export interface SessionUser {
  uid: string;
  email: string | null;
  name: string | null;
  /** The operator console's role claim (docs/operator-console.md); the console also checks the database row. */
  role: OperatorRole | null;
  /** When the person last typed their password or signed in with Google (seconds since the epoch). */
  authTime: number;
}

// The value is a Firebase session cookie (a JWT signed by Google), verified on every read.
let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  cookie ??= createCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    secure: getEnv().isProduction,
    path: "/",
  });
  return cookie;
}

async function readSessionToken(request: Request): Promise<string | null> {
  const value: unknown = await sessionCookie().parse(request.headers.get("cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

// Remix hands each loader of one request its own Request object, so the root loader and the
// page's loader would each ask Firebase. One answer per cookie is shared for a moment
// (SESSION_VERIFY_CACHE_MS, two seconds): enough for the loaders of a request. A log out,
// deactivation or deletion on any instance is announced (pg_notify 'sessions_ended'), and every
// instance then forgets that person's answers at once.
interface Verified {
  user: Promise<SessionUser | null>;
  expires: number;
  /** Whose answer it is, once known (null: nobody's). */
  uid?: string | null;
}
const verified = new Map<string, Verified>();

let sessionEnds: Promise<unknown> | undefined;
/** Listens before the first answer is kept, so no announcement can slip past a kept answer. */
function watchSessionEnds(): Promise<unknown> {
  sessionEnds ??= subscribeToSessionEnds(forgetSessionsOf);
  return sessionEnds;
}

/** `uid` null: announcements may have been missed (the database restarted), so every answer goes. */
function forgetSessionsOf(uid: string | null) {
  if (uid === null) return verified.clear();
  // An answer still on its way may have been given before the sessions ended: dropped as well.
  for (const [token, entry] of verified) if (entry.uid === undefined || entry.uid === uid) verified.delete(token);
  endUserStreams(uid);
}

// The root's loader and the page's ask side by side for the same cookie; with the request's load
// context they share one answer (the cookie decoded and looked up once a request, not twice). Kept
// with the context, so it goes with the request.
const answerOfRequest = new WeakMap<RequestScope, Promise<SessionUser | null>>();

/**
 * The signed-in user, or null (no cookie, expired, revoked or disabled). `scope`: the request's
 * load context, for the loaders of one request to share the answer.
 */
export function getSessionUser(request: Request, scope?: RequestScope): Promise<SessionUser | null> {
  if (scope === undefined) return sessionUserOf(request);
  let answer = answerOfRequest.get(scope);
  if (!answer) {
    answer = sessionUserOf(request);
    answerOfRequest.set(scope, answer);
  }
  return answer;
}

async function sessionUserOf(request: Request): Promise<SessionUser | null> {
  const token = await readSessionToken(request);
  if (!token) return null;
  await watchSessionEnds();
  const now = Date.now();
  for (const [key, entry] of verified) if (entry.expires <= now) verified.delete(key);
  let entry = verified.get(token);
  if (!entry) {
    const created: Verified = { user: verifySession(token), expires: now + getEnv().sessionVerifyCacheMs };
    verified.set(token, created);
    created.user.then(
      (user) => (created.uid = user?.uid ?? null),
      () => verified.get(token) === created && verified.delete(token),
    );
    entry = created;
  }
  return entry.user;
}

async function verifySession(token: string): Promise<SessionUser | null> {
  try {
    const claims = await getAdminAuth().verifySessionCookie(token, true);
    // An operator closed the account (docs/decisions/068): its sessions end here.
    if (await accountClosed(claims.uid)) return null;
    return {
      uid: claims.uid,
      email: typeof claims.email === "string" ? claims.email : null,
      name: typeof claims.name === "string" ? claims.name : null,
      role: isOperatorRole(claims.role) ? claims.role : null,
      authTime: claims.auth_time,
    };
  } catch (error) {
    // Firebase unreachable must not silently sign people out: the page answers 503 instead.
    // Any other refusal (invalid, expired, revoked, disabled) means "signed out".
    if (isFirebaseUnavailable(error)) {
      console.error("session check: Firebase unavailable:", (error as Error).message);
      throw serviceUnavailable();
    }
    return null;
  }
}

/**
 * Whether the account was closed by an operator. Unreadable (the database down): treated as open
 * for this look only: no money leaves a closed account anyway (create_withdrawal refuses it in SQL).
 */
async function accountClosed(uid: string): Promise<boolean> {
  try {
    const db = await getDatabase();
    return await db.rpc<boolean>("account_closed", { p_user_id: uid });
  } catch (error) {
    console.error("session check: could not read whether the account is closed:", (error as Error).message);
    return false;
  }
}

/** Loaders and actions of signed-in screens: the user, or a redirect to /auth (`scope`: as getSessionUser's). */
export async function requireUser(request: Request, scope?: RequestScope): Promise<SessionUser> {
  const user = await getSessionUser(request, scope);
  if (!user) {
    const hadCookie = (await readSessionToken(request)) !== null;
    const { pathname, search } = new URL(request.url);
    const target = pathname === "/" ? "/auth" : `/auth?${new URLSearchParams({ redirectTo: pathname + search })}`;
    throw redirect(target, hadCookie ? { headers: { "Set-Cookie": await clearedSessionCookie() } } : undefined);
  }
  return user;
}

export class StaleSignInError extends Error {
  name = "StaleSignInError";
}

/**
 * Turns a fresh ID token into a session: verifies it, makes a Firebase session cookie and
 * redirects with it. The cookie persists for the session's lifetime (docs/product.md, "Auth: the rules"): the spec's default "local"
 * persistence (the screen shows no "remember me" control).
 */
export async function startSession(idToken: string, options: { redirectTo: string; flash: Flash }): Promise<Response> {
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookieFor(idToken));
  headers.append("Set-Cookie", await setFlash(options.flash));
  // Whoever signs in (from a shared link to /auth, say) has no need for the onboarding slides.
  headers.append("Set-Cookie", seenOnboardingCookie());
  return redirect(options.redirectTo, { headers });
}

/**
 * The session cookie (its Set-Cookie header) for a fresh ID token: verified, and refused as
 * StaleSignInError when its sign-in is older than MAX_ID_TOKEN_AGE_SECONDS. Also what renews the
 * operator console's session after the password is typed again (its `auth_time` is then now).
 */
export async function sessionCookieFor(idToken: string): Promise<string> {
  const auth = getAdminAuth();
  const claims = await auth.verifyIdToken(idToken, true);
  if (Date.now() / 1000 - claims.auth_time > MAX_ID_TOKEN_AGE_SECONDS) {
    throw new StaleSignInError("Recent sign-in required");
  }
  const value = await auth.createSessionCookie(idToken, { expiresIn: SESSION_MAX_AGE_SECONDS * 1000 });
  return sessionCookie().serialize(value, { maxAge: SESSION_MAX_AGE_SECONDS });
}

/**
 * A fresh ID token for `uid`, minted by the server (a custom token exchanged with the provider):
 * what a session is started from once a code by email, rather than the password, completed a
 * sign-in (docs/decisions/092), and what the provider wants for a verification email.
 */
export async function idTokenFor(uid: string): Promise<string> {
  const customToken = await getAdminAuth().createCustomToken(uid);
  return (await signInWithCustomToken(customToken)).idToken;
}

export function clearedSessionCookie(): Promise<string> {
  return sessionCookie().serialize("", { maxAge: 0 });
}

/** Revokes every refresh token of the user (all devices) and clears the cookie. */
export async function endSession(request: Request): Promise<void> {
  const token = await readSessionToken(request);
  if (!token) return;
  const auth = getAdminAuth();
  // Without the revocation check: a revoked cookie can still be ended. An invalid one has no
  // sessions to revoke; an unreachable Firebase is a failure to report.
  const claims = await auth.verifySessionCookie(token, false).catch((error: unknown) => {
    if (isFirebaseUnavailable(error)) throw error;
    return null;
  });
  if (claims) {
    await revokeSessions(claims.sub, request);
    await announceSignedOut(claims.sub);
  }
  verified.delete(token);
}

/**
 * Revokes every session of `uid` with Firebase. Firebase keeps the revocation time to the second
 * and still accepts a session signed in within that same second, so a log out right after a sign-in
 * left the cookie working for good. The request's own cookie is checked afterwards: while Firebase
 * still accepts it, the revocation is made again in the next second (clocks may differ, so the
 * check rather than a wait decides).
 */
export async function revokeSessions(uid: string, request: Request): Promise<void> {
  const auth = getAdminAuth();
  const token = await readSessionToken(request);
  for (let attempt = 1; ; attempt++) {
    await auth.revokeRefreshTokens(uid);
    if (!token || attempt === 3) return;
    const stillAccepted = await auth.verifySessionCookie(token, true).then(
      (claims) => claims.uid === uid,
      (error: unknown) => {
        if (isFirebaseUnavailable(error)) throw error;
        return false;
      },
    );
    if (!stillAccepted) return;
    await new Promise((resolve) => setTimeout(resolve, 1_050 - (Date.now() % 1_000)));
  }
}

/**
 * Settings' "Sign out of every device" (docs/decisions/071-settings-is-a-real-page.md): every
 * session of the account is revoked with Firebase, this one included. This instance forgets its
 * answers at once (not only when the announcement comes back), so no cookie of the account is
 * accepted here after the answer; the other instances are told.
 */
export async function signOutEverywhere(uid: string, request: Request): Promise<void> {
  await revokeSessions(uid, request);
  // Firebase still accepts a session signed in within the second of the revocation (see
  // revokeSessions), on any device: once that second is over, the revocation is made again.
  await new Promise((resolve) => setTimeout(resolve, 1_050 - (Date.now() % 1_000)));
  await getAdminAuth().revokeRefreshTokens(uid);
  forgetSessionsOf(uid);
  await announceSignedOut(uid);
}

/**
 * An operator's "Sign out of every device" for someone else (docs/operator-console.md, "People"):
 * every session of `uid` revoked with Firebase, again once the second of the first revocation is
 * over (Firebase still accepts a session signed in within that second), and every server told.
 */
export async function endEverySessionOf(uid: string): Promise<void> {
  const auth = getAdminAuth();
  await auth.revokeRefreshTokens(uid);
  await new Promise((resolve) => setTimeout(resolve, 1_050 - (Date.now() % 1_000)));
  await auth.revokeRefreshTokens(uid);
  forgetSessionsOf(uid);
  await announceSignedOut(uid);
}

/**
 * Once Firebase has revoked a person's sessions or deleted the account: every instance forgets
 * what it verified for them and closes their live streams. Without the announcement (the database
 * unreachable) they stop within SESSION_VERIFY_CACHE_MS anyway, so a failure is only logged.
 */
export async function announceSignedOut(uid: string): Promise<void> {
  await announceSessionsEnded(uid).catch((error: unknown) =>
    console.error("sessions ended, but the other servers could not be told:", error),
  );
}
