import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { Authenticator } from "remix-auth";
import { Strategy } from "remix-auth/strategy";
import { AUTH_MESSAGES, authErrorMessage, isUnauthorizedDomainError } from "~/domain/auth";
import { authFormSchema, type AuthSubmission } from "~/domain/auth-form";
import { readFormData } from "../http/forms.server";
import { getAdminAuth, isFirebaseUnavailable } from "./firebase-admin.server";
import { IdentityError, sendPasswordResetEmail, signInWithCustomToken, signInWithPassword } from "./identity.server";

/** What a successful sign-in, sign-up or Google sign-in yields: a fresh ID token to make a session from. */
export interface VerifiedIdentity {
  idToken: string;
  uid: string;
  email: string | null;
  displayName: string | null;
  isNewUser: boolean;
  /** As the provider vouched for it in this fresh ID token. */
  emailVerified: boolean;
}

/** A refused /auth submission, with what the form should show. */
export class AuthRejection extends Error {
  name = "AuthRejection";
  constructor(
    readonly reply: SubmissionResult<string[]>,
    readonly unauthorizedDomain = false,
  ) {
    super("Authentication refused");
  }
}

type Credentials = Exclude<AuthSubmission, { intent: "reset" }>;

/**
 * Reads the /auth form (email + password, or a Google ID token from the web SDK) and signs the
 * person in with the identity provider on the server, so the form works without JavaScript.
 */
class FirebaseFormStrategy extends Strategy<VerifiedIdentity, Credentials> {
  name = "firebase-form";

  async authenticate(request: Request): Promise<VerifiedIdentity> {
    const submission = parseWithZod(await readFormData(request), { schema: authFormSchema });
    if (submission.status !== "success") throw new AuthRejection(submission.reply({ hideFields: ["password"] }));
    if (submission.value.intent === "reset") throw new Error("A password reset is not a sign-in");
    try {
      return await this.verify(submission.value);
    } catch (error) {
      if (!(error instanceof IdentityError)) throw error;
      throw new AuthRejection(
        submission.reply({ formErrors: [authErrorMessage(error.code, error.message)], hideFields: ["password"] }),
        isUnauthorizedDomainError(error.code),
      );
    }
  }
}

/** The claims of an ID token the provider just handed us over TLS (startSession verifies it). */
function idTokenClaims(idToken: string): { email_verified?: unknown } {
  try {
    return JSON.parse(Buffer.from(idToken.split(".")[1] ?? "", "base64url").toString()) as { email_verified?: unknown };
  } catch {
    return {};
  }
}

async function verifyCredentials(credentials: Credentials): Promise<VerifiedIdentity> {
  if (credentials.intent === "google") {
    const claims = await getAdminAuth()
      .verifyIdToken(credentials.idToken, true)
      .catch(() => {
        throw new IdentityError("INVALID_ID_TOKEN", AUTH_MESSAGES.genericError);
      });
    // Any Firebase ID token verifies, a password account's made on Firebase's public sign-up too
    // (past this app's sign-up limits and referral rules): only Google's own sign-ins are Google.
    if (claims.firebase?.sign_in_provider !== "google.com") {
      throw new IdentityError("NOT_GOOGLE_SIGN_IN", AUTH_MESSAGES.notGoogleSignIn);
    }
    return {
      idToken: credentials.idToken,
      uid: claims.uid,
      email: typeof claims.email === "string" ? claims.email : null,
      displayName: typeof claims.name === "string" ? claims.name : null,
      isNewUser: false,
      emailVerified: claims.email_verified === true,
    };
  }
  if (credentials.intent === "signup") return createPasswordAccount(credentials.email, credentials.password);
  const result = await signInWithPassword(credentials.email, credentials.password);
  return {
    idToken: result.idToken,
    uid: result.localId,
    email: result.email ?? credentials.email,
    displayName: result.displayName || null,
    isNewUser: false,
    emailVerified: idTokenClaims(result.idToken).email_verified === true,
  };
}

/**
 * Makes an email/password account with firebase-admin, then signs in as it with a custom token
 * for the fresh ID token a session is made from. The public sign-up endpoint (accounts:signUp)
 * would see every sign-up come from this server's address, and Firebase allows 100 new accounts
 * an hour per address: one person could use them up for everybody. The admin API has no such
 * per-address quota; the app's own limits take its place (attempt-limits.server.ts).
 */
async function createPasswordAccount(email: string, password: string): Promise<VerifiedIdentity> {
  const auth = getAdminAuth();
  const account = await auth.createUser({ email, password }).catch((error: unknown) => {
    throw adminIdentityError(error);
  });
  try {
    const { idToken } = await signInWithCustomToken(await auth.createCustomToken(account.uid));
    return {
      idToken,
      uid: account.uid,
      email: account.email ?? email,
      displayName: account.displayName || null,
      isNewUser: true,
      emailVerified: idTokenClaims(idToken).email_verified === true,
    };
  } catch (error) {
    // Without a session the person would try again and hear "already registered": undo the account.
    await auth.deleteUser(account.uid).catch(() => undefined);
    throw error instanceof IdentityError ? error : adminIdentityError(error);
  }
}

// firebase-admin's refusals of what the person typed; authErrorMessage has the spec's words for them.
const REFUSED_INPUT = new Set([
  "auth/email-already-exists",
  "auth/invalid-email",
  "auth/invalid-password",
  "auth/password-does-not-meet-requirements",
]);

/** A firebase-admin failure as an IdentityError, whose code authErrorMessage turns into the message. */
function adminIdentityError(error: unknown): IdentityError {
  if (isFirebaseUnavailable(error)) return new IdentityError("NETWORK_REQUEST_FAILED", "Firebase could not be reached");
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string" && REFUSED_INPUT.has(code)) {
    // Only a password policy's refusal carries words for the person ("Missing password requirements: ...").
    const text = code === "auth/password-does-not-meet-requirements" && typeof message === "string" ? message : "";
    return new IdentityError(code, text);
  }
  // Not the person's doing (credentials that cannot sign custom tokens, say): logged, and the generic message.
  console.error("sign-up: firebase-admin failed:", error);
  return new IdentityError("ADMIN_ERROR", "");
}

export const authenticator = new Authenticator<VerifiedIdentity>().use(
  new FirebaseFormStrategy(verifyCredentials),
  "firebase-form",
);

/** Forgot password (docs/product.md, "Auth: the rules"): asks the provider to send the email to the (validated, trimmed) address. */
export async function requestPasswordReset(
  email: string,
): Promise<{ ok: true } | { ok: false; unauthorizedDomain: boolean }> {
  try {
    await sendPasswordResetEmail(email);
  } catch (error) {
    if (!(error instanceof IdentityError)) throw error;
    // Answering "sent" for unknown addresses keeps registered emails private.
    if (error.code !== "EMAIL_NOT_FOUND")
      return { ok: false, unauthorizedDomain: isUnauthorizedDomainError(error.code) };
  }
  return { ok: true };
}
