import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  AUTH_MESSAGES,
  authErrorMessage,
  authFormErrors,
  isUnauthorizedDomainError,
  parseAuthTab,
} from "~/domain/auth";
import { authFormSchema } from "~/domain/auth-form";

function validate(fields: Record<string, string>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  return parseWithZod(formData, { schema: authFormSchema });
}

function errorsOf(fields: Record<string, string>) {
  const submission = validate(fields);
  if (submission.status === "success") throw new Error("expected the form to be refused");
  return submission.error;
}

describe('auth form rules (docs/product.md, "Auth: the rules")', () => {
  it("asks for all fields when email or password is empty", () => {
    expect(errorsOf({ intent: "signin", email: "", password: "secret1" })).toEqual({
      "": [AUTH_MESSAGES.fillAllFields],
    });
    expect(errorsOf({ intent: "signup", email: "a@b.co", password: "" })).toEqual({
      "": [AUTH_MESSAGES.fillAllFields],
    });
  });

  it("rejects a whitespace-only email with the service-level message", () => {
    expect(errorsOf({ intent: "signin", email: "   ", password: "secret1" })).toEqual({
      email: [AUTH_MESSAGES.invalidEmail],
    });
    expect(errorsOf({ intent: "signup", email: " \t ", password: "secret1" })).toEqual({
      email: [AUTH_MESSAGES.invalidEmail],
    });
  });

  it("requires six characters on sign-up only", () => {
    expect(errorsOf({ intent: "signup", email: "a@b.co", password: "12345" })).toEqual({
      password: [AUTH_MESSAGES.passwordTooShort],
    });
    expect(validate({ intent: "signin", email: "a@b.co", password: "12345" }).status).toBe("success");
  });

  it("asks for a password when the sign-in password is blank", () => {
    expect(errorsOf({ intent: "signin", email: "a@b.co", password: "   " })).toEqual({
      password: [AUTH_MESSAGES.passwordMissing],
    });
  });

  it("refuses an email a browser's type=email input would refuse, beside the password's own message", () => {
    for (const email of ["not-an-email", "pat@", "٥@٥", "<b>pat</b>@example.com", "pat@exa mple.com"]) {
      expect(errorsOf({ intent: "signin", email, password: "secret1" }), email).toEqual({
        email: [AUTH_MESSAGES.invalidEmailFormat],
      });
      expect(errorsOf({ intent: "reset", email }), email).toEqual({ email: [AUTH_MESSAGES.invalidEmailFormat] });
    }
    expect(errorsOf({ intent: "signup", email: "pat@", password: "12345" })).toEqual({
      email: [AUTH_MESSAGES.invalidEmailFormat],
      password: [AUTH_MESSAGES.passwordTooShort],
    });
    for (const email of ["o'brien+tag@mail.example.co.uk", "pat@localhost"]) {
      expect(validate({ intent: "signin", email, password: "secret1" }).status, email).toBe("success");
    }
  });

  it("trims the email before it is sent", () => {
    const submission = validate({ intent: "signup", email: "  Person@Example.com ", password: "secret1" });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toEqual({
      intent: "signup",
      email: "Person@Example.com",
      password: "secret1",
      referralCode: null,
    });
  });

  it("reads an optional referral code on sign-up: trimmed and in capitals, refused when it cannot be a code", () => {
    const valid = validate({ intent: "signup", email: "a@b.co", password: "secret1", referralCode: " k7qm2xp " });
    expect(valid.status === "success" && valid.value).toMatchObject({ referralCode: "K7QM2XP" });
    // The code alphabet has no I, O, 0 or 1 (docs/product.md, "Refer: the rules"), and codes are 7 characters long.
    for (const referralCode of ["K7QM2X0", "SHORT", "K7QM2XPP", "K7Q M2XP"]) {
      expect(errorsOf({ intent: "signup", email: "a@b.co", password: "secret1", referralCode })).toEqual({
        referralCode: ["This referral code is not valid"],
      });
    }
  });

  it("needs only an email for a password reset", () => {
    expect(errorsOf({ intent: "reset", email: "  " })).toEqual({ email: [AUTH_MESSAGES.resetEmailMissing] });
    const ok = validate({ intent: "reset", email: " a@b.co " });
    expect(ok.status === "success" && ok.value).toEqual({ intent: "reset", email: "a@b.co" });
  });

  it("refuses an unknown intent", () => {
    expect(validate({ intent: "delete-everything", email: "a@b.co", password: "secret1" }).status).toBe("error");
  });

  it("reads the tab from the URL, defaulting to sign in", () => {
    expect(parseAuthTab("signup")).toBe("signup");
    expect(parseAuthTab(null)).toBe("signin");
    expect(parseAuthTab("admin")).toBe("signin");
  });
});

describe("the page's own check of the /auth form (no zod in the browser)", () => {
  const cases: Record<string, string>[] = [
    { intent: "signin" },
    { intent: "signin", email: "", password: "" },
    { intent: "signin", email: "", password: "secret1" },
    { intent: "signin", email: "a@b.co", password: "" },
    { intent: "signin", email: "   ", password: "secret1" },
    { intent: "signin", email: "a@b.co", password: "   " },
    { intent: "signin", email: "a@b.co", password: "12345" },
    { intent: "signup", email: "", password: "", referralCode: "K7QM2X0" },
    { intent: "signup", email: " \t ", password: "secret1" },
    { intent: "signup", email: "a@b.co", password: "12345" },
    { intent: "signup", email: "a@b.co", password: "12345", referralCode: "SHORT" },
    { intent: "signup", email: "a@b.co", password: "secret1", referralCode: " k7qm2xp " },
    { intent: "signup", email: "a@b.co", password: "secret1", referralCode: "" },
    { intent: "reset" },
    { intent: "reset", email: "  " },
    { intent: "reset", email: " a@b.co ", password: "" },
  ];

  it.each(cases)("finds exactly the errors the server's schema answers with: %o", (fields) => {
    const formData = new FormData();
    for (const [name, value] of Object.entries(fields)) formData.set(name, value);
    const server = validate(fields);
    expect(authFormErrors(formData)).toEqual(server.status === "success" ? {} : server.error);
  });

  it("leaves anything but the form's three buttons to the server", () => {
    const formData = new FormData();
    formData.set("intent", "google");
    expect(authFormErrors(formData)).toEqual({});
    expect(authFormErrors(new FormData())).toEqual({});
  });
});

describe('identity error mapping (docs/product.md, "Auth: messages")', () => {
  it.each([
    ["EMAIL_EXISTS", AUTH_MESSAGES.emailInUse],
    ["auth/email-already-in-use", AUTH_MESSAGES.emailInUse],
    ["INVALID_LOGIN_CREDENTIALS", AUTH_MESSAGES.invalidCredentials],
    ["EMAIL_NOT_FOUND", AUTH_MESSAGES.invalidCredentials],
    ["INVALID_PASSWORD", AUTH_MESSAGES.invalidCredentials],
    ["auth/invalid-credential", AUTH_MESSAGES.invalidCredentials],
    ["auth/user-not-found", AUTH_MESSAGES.invalidCredentials],
    ["auth/wrong-password", AUTH_MESSAGES.invalidCredentials],
    ["WEAK_PASSWORD", AUTH_MESSAGES.weakPassword],
    ["auth/weak-password", AUTH_MESSAGES.weakPassword],
    ["INVALID_EMAIL", AUTH_MESSAGES.invalidEmailFormat],
    ["auth/network-request-failed", AUTH_MESSAGES.networkError],
    ["NETWORK_REQUEST_FAILED", AUTH_MESSAGES.networkError],
  ])("%s → its message", (code, message) => {
    expect(authErrorMessage(code)).toBe(message);
  });

  it("shows another error's own message, else the generic one", () => {
    expect(authErrorMessage("TOO_MANY_ATTEMPTS_TRY_LATER", "Try again later.")).toBe("Try again later.");
    expect(authErrorMessage("SOMETHING", "")).toBe(AUTH_MESSAGES.genericError);
    expect(authErrorMessage(undefined)).toBe(AUTH_MESSAGES.genericError);
    expect(authErrorMessage("auth/internal-error", "Firebase: Error (auth/internal-error).")).toBe(
      AUTH_MESSAGES.genericError,
    );
  });

  it("recognises the unauthorised-domain error in both spellings", () => {
    expect(isUnauthorizedDomainError("auth/unauthorized-domain")).toBe(true);
    expect(isUnauthorizedDomainError("UNAUTHORIZED_DOMAIN")).toBe(true);
    expect(isUnauthorizedDomainError("EMAIL_EXISTS")).toBe(false);
  });
});
