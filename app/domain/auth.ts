import { isEmailAddress } from "./email";
import { MIN_PASSWORD_LENGTH } from "./constants";
import { INVALID_REFERRAL_CODE_MESSAGE, isReferralCode, normalizeReferralCode } from "./referral-code";

// Texts of docs/product.md, "Auth: the rules" and "Auth: messages", word for word.
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
  // Ours: an ID token posted as a Google sign-in that is not one (a password account's, say).
  notGoogleSignIn: "This is not a Google sign-in. Please sign in with your email and password.",
  unauthorizedDomain:
    "This domain is not authorised for sign-in. Add it to the authorised domains in the Firebase console for authentication to work.",
} as const;

export type AuthTab = "signin" | "signup";

/** The hidden field of every /auth post that carries the page's form token (login CSRF). */
export const AUTH_FORM_TOKEN_FIELD = "formToken";

export function parseAuthTab(value: string | null): AuthTab {
  return value === "signup" ? "signup" : "signin";
}

/** The fields of the /auth form, as posted (Conform turns "" into undefined on the server). */
export interface AuthFields {
  email?: string;
  password?: string;
  referralCode?: string;
}

/** The intents of the /auth form's own buttons (Google's sign-in posts `google`). */
export type AuthFormIntent = "signin" | "signup" | "reset";

/** One refused rule: the field it belongs to, or "" for the whole form. */
export interface AuthIssue {
  field: "" | keyof AuthFields;
  message: string;
}

function emailFormatIssues(email: string): AuthIssue[] {
  return isEmailAddress(email.trim()) ? [] : [{ field: "email", message: AUTH_MESSAGES.invalidEmailFormat }];
}

/** The optional referral code (its format: docs/product.md, "Refer: the rules"); whether it exists is the server's to say. */
export function referralCodeIssues(value: { referralCode?: string }): AuthIssue[] {
  const code = normalizeReferralCode(value.referralCode);
  return code !== null && !isReferralCode(code)
    ? [{ field: "referralCode", message: INVALID_REFERRAL_CODE_MESSAGE }]
    : [];
}

/**
 * The rules of one intent's fields, the server's and the browser's alike (the page checks them
 * before posting, without zod): the screen-level rule ("Please fill in all fields") first, then
 * the service-level rules on trimmed input.
 */
export function authFormIssues(intent: AuthFormIntent, value: AuthFields): AuthIssue[] {
  if (intent === "reset") {
    return value.email?.trim()
      ? emailFormatIssues(value.email)
      : [{ field: "email", message: AUTH_MESSAGES.resetEmailMissing }];
  }
  const issues: AuthIssue[] = [];
  if (!value.email || !value.password) {
    issues.push({ field: "", message: AUTH_MESSAGES.fillAllFields });
  } else if (!value.email.trim()) {
    issues.push({ field: "email", message: AUTH_MESSAGES.invalidEmail });
  } else {
    issues.push(...emailFormatIssues(value.email));
    if (intent === "signin" && !value.password.trim()) {
      issues.push({ field: "password", message: AUTH_MESSAGES.passwordMissing });
    } else if (intent === "signup" && value.password.length < MIN_PASSWORD_LENGTH) {
      issues.push({ field: "password", message: AUTH_MESSAGES.passwordTooShort });
    }
  }
  return intent === "signup" ? [...issues, ...referralCodeIssues(value)] : issues;
}

const FORM_INTENTS: readonly string[] = ["signin", "signup", "reset"] satisfies AuthFormIntent[];

/**
 * The browser's check of a posted /auth form (its submit button's `intent` included): the errors
 * the server's schema (auth-form.ts) would answer with, by field ("" for the form), without zod.
 */
export function authFormErrors(formData: FormData): Record<string, string[]> {
  const intent = formData.get("intent");
  if (typeof intent !== "string" || !FORM_INTENTS.includes(intent)) return {};
  // As on the server (Conform), an empty field counts as missing.
  const text = (name: keyof AuthFields) => {
    const value = formData.get(name);
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const fields = { email: text("email"), password: text("password"), referralCode: text("referralCode") };
  const errors: Record<string, string[]> = {};
  for (const { field, message } of authFormIssues(intent as AuthFormIntent, fields))
    (errors[field] ??= []).push(message);
  return errors;
}

/**
 * docs/product.md, "Auth: messages": the text shown for an identity failure. Accepts the REST API's codes
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
