// Named imports from zod/mini: the `z` namespace would pull every zod locale (~400 KB) into the browser.
import {
  discriminatedUnion,
  literal,
  minLength,
  object,
  optional,
  pipe,
  string,
  superRefine,
  transform,
  type output,
} from "zod/mini";
import { MIN_PASSWORD_LENGTH } from "./constants";
import { isReferralCode, normalizeReferralCode } from "./referral-code";
import { ruleMessage } from "./rules";

// Texts of spec §5 and §8, word for word.
export const AUTH_MESSAGES = {
  fillAllFields: "Please fill in all fields",
  invalidEmail: "Please provide a valid email address",
  passwordTooShort: "Password must be at least 6 characters long",
  passwordMissing: "Please provide a password",
  resetEmailMissing: "Please enter your email address",
  emailInUse: "This email is already registered. Please sign in instead.",
  invalidCredentials: "Invalid email or password. Please try again.",
  weakPassword: "Password is too weak. Please use at least 6 characters.",
  invalidEmailFormat: "Invalid email format. Please enter a valid email address.",
  networkError: "Network error. Please check your internet connection and try again.",
  genericError: "An error occurred during authentication.",
  signedUp: "Account created successfully!",
  signedIn: "Signed in successfully!",
  resetSent: "Password reset email sent! Please check your inbox.",
  resetFailed: "Failed to send password reset email. Please try again.",
  loggedOut: "Logged out successfully",
  // Ours: the spec says signing in again reactivates, without words for it.
  reactivated: "Welcome back! Your account has been reactivated.",
  logoutFailed: "Failed to log out. Please try again.",
  // Ours: the /auth form's token was missing or stale (a very old browser's post, or a forged one).
  formExpired: "This form has expired. Please try again.",
  unauthorizedDomain:
    "This domain is not authorised for sign-in. Add it to the authorised domains in the Firebase console for authentication to work.",
} as const;

export type AuthTab = "signin" | "signup";

/** The hidden field of every /auth post that carries the page's form token (login CSRF). */
export const AUTH_FORM_TOKEN_FIELD = "formToken";

export function parseAuthTab(value: string | null): AuthTab {
  return value === "signup" ? "signup" : "signin";
}

// Form fields arrive as raw strings (Conform turns "" into undefined). The screen-level rule
// ("Please fill in all fields") is checked first, then the service-level rules on trimmed input.
const rawText = optional(string());

interface RawFields {
  email?: string;
  password?: string;
  referralCode?: string;
}

type IssueSink = { addIssue(issue: { code: "custom"; path: string[]; message: string }): void };

// What a browser accepts in an input of type email (the HTML standard's "valid email address"):
// the no-JavaScript form cannot send anything else, so the server holds every post to it too.
const EMAIL_ADDRESS =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

function checkEmailFormat(email: string, ctx: IssueSink): void {
  if (!EMAIL_ADDRESS.test(email.trim())) {
    ctx.addIssue({ code: "custom", path: ["email"], message: AUTH_MESSAGES.invalidEmailFormat });
  }
}

function requireBoth(value: RawFields, ctx: IssueSink): value is Required<RawFields> {
  if (!value.email || !value.password) {
    ctx.addIssue({ code: "custom", path: [], message: AUTH_MESSAGES.fillAllFields });
    return false;
  }
  if (!value.email.trim()) {
    ctx.addIssue({ code: "custom", path: ["email"], message: AUTH_MESSAGES.invalidEmail });
    return false;
  }
  checkEmailFormat(value.email, ctx);
  return true;
}

/** A form for one intent: its raw fields, a rule check, then the trimmed values. */
function intentForm<Intent extends string, Out>(
  intent: Intent,
  rules: (value: RawFields, ctx: IssueSink) => void,
  output: (value: RawFields & { intent: Intent }) => Out,
) {
  return pipe(
    object({ intent: literal(intent), email: rawText, password: rawText, referralCode: rawText }).check(
      superRefine(rules),
    ),
    transform(output),
  );
}

export const signInSchema = intentForm(
  "signin",
  (value, ctx) => {
    if (requireBoth(value, ctx) && !value.password.trim()) {
      ctx.addIssue({ code: "custom", path: ["password"], message: AUTH_MESSAGES.passwordMissing });
    }
  },
  (value) => ({ intent: value.intent, email: value.email!.trim(), password: value.password! }),
);

/** The optional referral code of sign-up (spec §5 format); whether it exists is the server's to say. */
function checkReferralCode(value: { referralCode?: string }, ctx: IssueSink) {
  const code = normalizeReferralCode(value.referralCode);
  if (code !== null && !isReferralCode(code)) {
    ctx.addIssue({ code: "custom", path: ["referralCode"], message: ruleMessage("invalid_referral_code") });
  }
}

export const signUpSchema = intentForm(
  "signup",
  (value, ctx) => {
    if (requireBoth(value, ctx) && value.password.length < MIN_PASSWORD_LENGTH) {
      ctx.addIssue({ code: "custom", path: ["password"], message: AUTH_MESSAGES.passwordTooShort });
    }
    checkReferralCode(value, ctx);
  },
  (value) => ({
    intent: value.intent,
    email: value.email!.trim(),
    password: value.password!,
    referralCode: normalizeReferralCode(value.referralCode),
  }),
);

export const resetSchema = intentForm(
  "reset",
  (value, ctx) => {
    if (!value.email?.trim()) {
      ctx.addIssue({ code: "custom", path: ["email"], message: AUTH_MESSAGES.resetEmailMissing });
    } else {
      checkEmailFormat(value.email, ctx);
    }
  },
  (value) => ({ intent: value.intent, email: value.email!.trim() }),
);

export const googleSchema = pipe(
  object({
    intent: literal("google"),
    idToken: string(AUTH_MESSAGES.genericError).check(minLength(20, AUTH_MESSAGES.genericError)),
    referralCode: rawText,
  }).check(superRefine(checkReferralCode)),
  transform((value) => ({ ...value, referralCode: normalizeReferralCode(value.referralCode) })),
);

/** One schema for the /auth form: the submit button's `intent` picks the rules. */
export const authFormSchema = discriminatedUnion("intent", [signInSchema, signUpSchema, resetSchema, googleSchema]);

export type AuthSubmission = output<typeof authFormSchema>;

/**
 * Spec §8: the text shown for an identity failure. Accepts the REST API's codes
 * (EMAIL_EXISTS, INVALID_LOGIN_CREDENTIALS, ...), the web SDK's (auth/email-already-in-use, ...)
 * and firebase-admin's, which makes password accounts (auth/email-already-exists, ...).
 */
export function authErrorMessage(code: string | undefined, message?: string): string {
  const key = (code ?? "")
    .replace(/^auth\//, "")
    .split(" : ")[0]!
    .trim();
  switch (key) {
    case "EMAIL_EXISTS":
    case "email-already-in-use":
    case "email-already-exists":
      return AUTH_MESSAGES.emailInUse;
    case "INVALID_LOGIN_CREDENTIALS":
    case "INVALID_PASSWORD":
    case "EMAIL_NOT_FOUND":
    case "invalid-credential":
    case "invalid-login-credentials":
    case "user-not-found":
    case "wrong-password":
      return AUTH_MESSAGES.invalidCredentials;
    case "WEAK_PASSWORD":
    case "weak-password":
    case "invalid-password":
      return AUTH_MESSAGES.weakPassword;
    case "INVALID_EMAIL":
    case "invalid-email":
      return AUTH_MESSAGES.invalidEmailFormat;
    case "NETWORK_REQUEST_FAILED":
    case "network-request-failed":
      return AUTH_MESSAGES.networkError;
    default:
      // The web SDK's own texts ("Firebase: Error (auth/internal-error).") are not for people.
      return message?.trim() && !message.startsWith("Firebase:") ? message : AUTH_MESSAGES.genericError;
  }
}

export function isUnauthorizedDomainError(code: string | undefined): boolean {
  const key = (code ?? "").replace(/^auth\//, "");
  return key === "unauthorized-domain" || key.startsWith("UNAUTHORIZED_DOMAIN");
}
