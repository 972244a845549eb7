import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "~/domain/auth";
import { CROSS_SITE_MESSAGE } from "~/server/http/same-origin.server";
import { googleIdToken, sentOobCodes, signUpDirect, withSignInAge } from "../support/emulator";
import { HttpClient, html, uniqueEmail } from "../support/http";
import { eventually } from "../support/wait";

const PASSWORD = "s3cret-pass";

/** A client that has seen onboarding, like a returning visitor. */
function visitor() {
  const client = new HttpClient();
  client.cookies.set("hasSeenOnboarding", "true");
  return client;
}

async function signUp(client: HttpClient, email = uniqueEmail(), password = PASSWORD) {
  const response = await client.post("/auth?tab=signup", { intent: "signup", email, password });
  return { response, email };
}

async function expectRefused(response: Response, message: string) {
  expect(response.status).toBe(400);
  expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))).toBe(false);
  const body = await response.text();
  expect(body).toContain(html(message));
  return body;
}

describe("the auth screen over plain HTTP", () => {
  it("renders the sign-in tab by default and sign-up on ?tab=signup", async () => {
    const client = new HttpClient();
    const signIn = await (await client.get("/auth")).text();
    expect(signIn).toContain('placeholder="Enter your email"');
    expect(signIn).toContain('placeholder="Enter your password"');
    expect(signIn).toContain("Forgot your password?");
    expect(signIn).toMatch(/<button[^>]*value="signin"[^>]*>Sign In<\/button>/);
    expect(signIn).toMatch(/type="email"/);
    expect(signIn).toMatch(/minLength="6"|minlength="6"/);
    const signUpPage = await (await client.get("/auth?tab=signup")).text();
    expect(signUpPage).toMatch(/<button[^>]*value="signup"[^>]*>Create Account<\/button>/);
    expect(signUpPage).not.toContain("Forgot your password?");
  });

  it("signs up, sets a secure HttpOnly session cookie, provisions the user and greets them", async () => {
    const client = visitor();
    const { response, email } = await signUp(client);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith("__session="));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/Secure/i);
    expect(session).toMatch(/Max-Age=1209600/);
    const home = await client.visit("/");
    expect(home.url).toBe("/");
    expect(home.html).toContain(AUTH_MESSAGES.signedUp);
    expect(home.html).toContain(`Hi, <!-- -->${email.split("@")[0]}`);
    expect(home.html).toContain("Available Balance");
    expect(home.html).toContain("$0.00");
    // The flash is shown once.
    expect((await client.visit("/")).html).not.toContain(AUTH_MESSAGES.signedUp);
  });

  it("refuses an email that is already registered", async () => {
    const { email } = await signUp(visitor());
    const again = await signUp(new HttpClient(), email);
    const body = await expectRefused(again.response, AUTH_MESSAGES.emailInUse);
    // The email is kept in the form, the password is not sent back.
    expect(body).toContain(`value="${email}"`);
    expect(body).not.toContain(PASSWORD);
  });

  it("signs in with the right password and refuses a wrong one or an unknown account", async () => {
    const { email } = await signUp(visitor());
    const wrong = await new HttpClient().post("/auth", { intent: "signin", email, password: "not-the-password" });
    await expectRefused(wrong, AUTH_MESSAGES.invalidCredentials);
    const unknown = await new HttpClient().post("/auth", {
      intent: "signin",
      email: uniqueEmail("nobody"),
      password: PASSWORD,
    });
    await expectRefused(unknown, AUTH_MESSAGES.invalidCredentials);

    const client = visitor();
    const right = await client.post("/auth", { intent: "signin", email: `  ${email}  `, password: PASSWORD });
    expect(right.status).toBe(302);
    const home = await client.visit("/");
    expect(home.html).toContain(AUTH_MESSAGES.signedIn);
    expect(home.html).toContain("Available Balance");
  });

  it.each([
    [
      "sign-in with an empty email",
      "/auth",
      { intent: "signin", email: "", password: PASSWORD },
      AUTH_MESSAGES.fillAllFields,
    ],
    [
      "sign-in with an empty password",
      "/auth",
      { intent: "signin", email: "a@example.com", password: "" },
      AUTH_MESSAGES.fillAllFields,
    ],
    [
      "sign-up with empty fields",
      "/auth?tab=signup",
      { intent: "signup", email: "", password: "" },
      AUTH_MESSAGES.fillAllFields,
    ],
    [
      "sign-in with a blank email",
      "/auth",
      { intent: "signin", email: "   ", password: PASSWORD },
      AUTH_MESSAGES.invalidEmail,
    ],
    [
      "sign-up with a blank email",
      "/auth?tab=signup",
      { intent: "signup", email: "   ", password: PASSWORD },
      AUTH_MESSAGES.invalidEmail,
    ],
    [
      "sign-in with a blank password",
      "/auth",
      { intent: "signin", email: "a@example.com", password: "   " },
      AUTH_MESSAGES.passwordMissing,
    ],
    [
      "sign-up with a short password",
      "/auth?tab=signup",
      { intent: "signup", email: "a@example.com", password: "12345" },
      AUTH_MESSAGES.passwordTooShort,
    ],
    [
      "sign-up with a malformed email",
      "/auth?tab=signup",
      { intent: "signup", email: "not-an-email", password: PASSWORD },
      AUTH_MESSAGES.invalidEmailFormat,
    ],
    [
      "a reset without an email",
      "/auth",
      { intent: "reset", email: "  ", password: "" },
      AUTH_MESSAGES.resetEmailMissing,
    ],
  ])("refuses %s with the spec's message", async (_name, path, fields, message) => {
    await expectRefused(await new HttpClient().post(path, fields), message);
  });

  it("sends a password reset email, and answers the same for an unknown address", async () => {
    const { email } = await signUp(visitor());
    const client = new HttpClient();
    const response = await client.post("/auth", { intent: "reset", email: ` ${email} `, password: "" });
    expect(response.status).toBe(302);
    expect((await client.visit(response.headers.get("location")!)).html).toContain(html(AUTH_MESSAGES.resetSent));
    const codes = await sentOobCodes();
    expect(codes).toContainEqual(expect.objectContaining({ email, requestType: "PASSWORD_RESET" }));

    const unknown = await client.post("/auth", { intent: "reset", email: uniqueEmail("ghost"), password: "" });
    expect(unknown.status).toBe(302);
    expect((await client.visit("/auth")).html).toContain(html(AUTH_MESSAGES.resetSent));
  });

  it("keeps the typed email in the field after a refused or an accepted password reset", async () => {
    const emailField = (page: string) => page.match(/<input[^>]*name="email"[^>]*>/)?.[0] ?? "";
    const client = new HttpClient();
    const refusedBody = await expectRefused(
      await client.post("/auth", { intent: "reset", email: "pat@", password: "" }),
      AUTH_MESSAGES.invalidEmailFormat,
    );
    expect(emailField(refusedBody)).toContain('value="pat@"');

    const email = uniqueEmail("reset-keeps");
    const accepted = await client.post("/auth", { intent: "reset", email: ` ${email} `, password: "" });
    expect(accepted.status).toBe(302);
    const page = (await client.visit(accepted.headers.get("location")!)).html;
    expect(page).toContain(html(AUTH_MESSAGES.resetSent));
    expect(emailField(page)).toContain(`value="${email}"`);
    // Only the next page: a later visit starts blank again.
    expect(emailField((await client.visit("/auth")).html)).not.toContain(email);
  });

  it("sends a signed-in visitor from /auth to / and a signed-out one from / to /auth", async () => {
    const signedOut = visitor();
    const home = await signedOut.get("/");
    expect(home.status).toBe(302);
    expect(home.headers.get("location")).toBe("/auth");

    const client = visitor();
    await signUp(client);
    const auth = await client.get("/auth");
    expect(auth.status).toBe(302);
    expect(auth.headers.get("location")).toBe("/");
  });

  it("returns to a safe redirectTo path after signing in", async () => {
    const { email } = await signUp(visitor());
    const client = visitor();
    const response = await client.post("/auth?redirectTo=%2Flegal%3Ftab%3Dprivacy", {
      intent: "signin",
      email,
      password: PASSWORD,
    });
    expect(response.headers.get("location")).toBe("/legal?tab=privacy");
    const evil = await visitor().post("/auth?redirectTo=%2F%2Fevil.example", {
      intent: "signin",
      email,
      password: PASSWORD,
    });
    expect(evil.headers.get("location")).toBe("/");
  });

  it("logs out: revokes the session so the old cookie no longer works", async () => {
    const client = visitor();
    await signUp(client);
    const signedInSecond = Math.floor(Date.now() / 1000);
    const stolenCookie = client.cookies.get("__session")!;
    // The usual case, a log out in a later second than the sign-in (the same second: the next test).
    await eventually(() => Math.floor(Date.now() / 1000) > signedInSecond, { what: "the next second", intervalMs: 20 });
    const response = await client.post("/logout", {});
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth");
    expect(response.headers.getSetCookie().find((cookie) => cookie.startsWith("__session="))).toMatch(/Max-Age=0/);
    expect((await client.visit("/auth")).html).toContain(AUTH_MESSAGES.loggedOut);

    const replay = visitor();
    replay.cookies.set("__session", stolenCookie);
    const home = await replay.get("/");
    expect(home.status).toBe(302);
    expect(home.headers.get("location")).toBe("/auth");
  });

  it("logs out in the same second as the sign-in: the old cookie no longer works either (Firebase keeps revocation times to the second)", async () => {
    // Start at the beginning of a second, so that sign-up and log-out fall in the same one.
    await eventually(() => Date.now() % 1000 < 50, { what: "the start of a second", intervalMs: 5 });
    const client = visitor();
    await signUp(client);
    const signedInSecond = Math.floor(Date.now() / 1000);
    const stolenCookie = client.cookies.get("__session")!;
    // The case under test: the log out is asked for in the second of the sign-in.
    expect(Math.floor(Date.now() / 1000)).toBe(signedInSecond);
    const response = await client.post("/logout", {});
    expect(response.status).toBe(302);

    const replay = visitor();
    replay.cookies.set("__session", stolenCookie);
    const home = await replay.get("/");
    expect(home.status).toBe(302);
    expect(home.headers.get("location")).toBe("/auth");
  });

  it("refuses a sign-in or a log-out posted from another site", async () => {
    const { email } = await signUp(visitor());
    // A browser marks a cross-site form post with Sec-Fetch-Site; our guard answers 403.
    const client = visitor();
    const response = await client.post(
      "/auth",
      { intent: "signin", email, password: PASSWORD },
      { "sec-fetch-site": "cross-site" },
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(CROSS_SITE_MESSAGE);
    expect(client.cookies.has("__session")).toBe(false);

    // A mismatched Origin alone gets the same page (Remix's own empty 500 is switched off).
    const forged = visitor();
    const byOrigin = await forged.post(
      "/auth",
      { intent: "signin", email, password: PASSWORD },
      { origin: "https://evil.example" },
    );
    expect(byOrigin.status).toBe(403);
    expect(await byOrigin.text()).toContain(html(CROSS_SITE_MESSAGE));
    expect(forged.cookies.has("__session")).toBe(false);

    const signedIn = visitor();
    await signUp(signedIn);
    const logout = await signedIn.post("/logout", {}, { "sec-fetch-site": "cross-site" });
    expect(logout.status).toBe(403);
    expect((await signedIn.get("/")).status).toBe(200);
  });

  it("accepts a Google ID token from the web SDK and provisions the Google display name", async () => {
    const email = uniqueEmail("google");
    const { idToken } = await googleIdToken({ sub: `g-${Date.now()}`, email, name: "Priya Sharma" });
    const client = visitor();
    const response = await client.post("/auth", { intent: "google", idToken });
    expect(response.status).toBe(302);
    const home = await client.visit("/");
    expect(home.html).toContain("Hi, <!-- -->Priya Sharma");
  });

  it("refuses a forged ID token", async () => {
    const forged = await new HttpClient().post("/auth", { intent: "google", idToken: "x".repeat(40) });
    await expectRefused(forged, AUTH_MESSAGES.genericError);
  });

  it("refuses an ID token whose sign-in is older than 5 minutes, and accepts the same token when it is recent", async () => {
    const { idToken } = await googleIdToken({ sub: `stale-${Date.now()}`, email: uniqueEmail("stale") });
    const stale = await new HttpClient().post("/auth", { intent: "google", idToken: withSignInAge(idToken, 6 * 60) });
    await expectRefused(stale, AUTH_MESSAGES.genericError);
    const recent = await visitor().post("/auth", { intent: "google", idToken: withSignInAge(idToken, 4 * 60) });
    expect(recent.status).toBe(302);
    expect(recent.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))).toBe(true);
  });

  it("records onboarding as seen on a successful sign-up, so / shows Home rather than the slides", async () => {
    const client = new HttpClient(); // a first visit, straight to /auth (a shared link)
    const { response } = await signUp(client);
    const cookie = response.headers.getSetCookie().find((header) => header.startsWith("hasSeenOnboarding="));
    expect(cookie).toMatch(/^hasSeenOnboarding=true;.*Max-Age=31536000/);
    const home = await client.visit("/");
    expect(home.html).toContain("Available Balance");
    expect(home.html).not.toContain("Complete Tasks, Earn Rewards");
  });

  it("refuses a post whose Origin matches only a forged X-Forwarded-Host when the proxy is not trusted", async () => {
    // Remix itself accepts it (it believes X-Forwarded-Host); the app's guard, without TRUST_PROXY, does not.
    const response = await new HttpClient().post(
      "/auth",
      { intent: "signin", email: "", password: "" },
      { origin: "https://app.example", "x-forwarded-host": "app.example, edge.internal" },
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(html(CROSS_SITE_MESSAGE));
  });

  it("keeps an email-only account's display name to the email's local part", async () => {
    const email = uniqueEmail("direct");
    await signUpDirect(email, PASSWORD);
    const client = visitor();
    await client.post("/auth", { intent: "signin", email, password: PASSWORD });
    expect((await client.visit("/")).html).toContain(`Hi, <!-- -->${email.split("@")[0]}`);
  });

  it("shows the not-authorised-domain banner on a host the project does not list", async () => {
    const url = new URL(new HttpClient().baseUrl);
    const listed = await (await fetch(new URL("/auth", url))).text();
    expect(listed).not.toContain("Domain not authorised");
    url.hostname = "127.0.0.1";
    const unlisted = await (await fetch(new URL("/auth", url))).text();
    expect(unlisted).toContain("Domain not authorised");
    expect(unlisted).toContain(html(AUTH_MESSAGES.unauthorizedDomain));
  });
});
