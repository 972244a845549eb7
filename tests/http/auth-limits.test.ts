import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "~/domain/auth";
import { tooManyAttemptsMessage } from "~/domain/rate-limit";
import { PASSWORD_RESET_MAIL_PACE, RATE_LIMITS, SIGN_IN_PACES } from "~/server/http/rate-limit.server";
import { emulatorHost, googleIdToken, resetPasswordWithCode, sentOobCodes, signUpDirect } from "../support/emulator";
import { HttpClient, html, uniqueEmail } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startRecordingProxy } from "../support/recording-proxy";

// Each app here has its own database, so its limits are its own: the shared test server's are
// left alone for the other tests. Firebase is reached through a relay that records every call.
const PASSWORD = "s3cret-pass";
const SIGN_UP_PATH = "/identitytoolkit.googleapis.com/v1/accounts:signUp";
const ADMIN_CREATE_PATH = "/identitytoolkit.googleapis.com/v1/projects/demo-rewards/accounts";
const CUSTOM_TOKEN_PATH = "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken";
const SEND_OOB_CODE_PATH = "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode";
// Well-formed, but no account has it: a sign-up with it is refused after the sign-up limits counted it.
const UNKNOWN_REFERRAL_CODE = "ZZZZZZZ";

let firebase: Awaited<ReturnType<typeof startRecordingProxy>>;

beforeAll(async () => {
  const [host, port] = emulatorHost().split(":");
  firebase = await startRecordingProxy({ host: host!, port: Number(port) });
});

afterAll(async () => {
  await firebase?.close();
});

function post(app: PostgresApp, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new HttpClient(app.url).post(path, fields, headers);
}

const signIn = (app: PostgresApp, email: string, password = PASSWORD, headers: Record<string, string> = {}) =>
  post(app, "/auth", { intent: "signin", email, password }, headers);

const reset = (app: PostgresApp, email: string, headers: Record<string, string> = {}) =>
  post(app, "/auth", { intent: "reset", email, password: "" }, headers);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const hasSession = (response: Response) =>
  response.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="));

/** A refused attempt: 429 and Retry-After, the message on the form's banner, and no session. */
async function expectRefusedAttempt(response: Response, unit: "minutes" | "seconds" = "minutes") {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  const body = await response.text();
  expect(body).toContain(html(tooManyAttemptsMessage(retryAfter, unit)));
  const words = unit === "minutes" ? "minutes?" : "seconds?";
  expect(body).toMatch(new RegExp(`role="alert"[^]*?Too many attempts\\. Please try again in \\d+ ${words}\\.`));
  expect(hasSession(response)).toBe(false);
  return retryAfter;
}

/** A refused attempt that, besides, asked nothing of Firebase: no sign-in, account or email call. */
async function expectTooManyAttempts(attempt: () => Promise<Response>, unit: "minutes" | "seconds" = "minutes") {
  firebase.clear();
  const retryAfter = await expectRefusedAttempt(await attempt(), unit);
  // (The page itself may look up the authorised domains, a GET.)
  expect(firebase.requests().filter((call) => call.method !== "GET")).toEqual([]);
  return retryAfter;
}

const resetMails = async (email: string) =>
  (await sentOobCodes()).filter((code) => code.email === email && code.requestType === "PASSWORD_RESET");

/**
 * Waits, if need be, for a fresh fixed window of `seconds` (windows start at multiples of it since
 * the epoch), so that `limit` requests sent from now all fall into one window.
 */
async function freshWindow(seconds: number, needSeconds = 20) {
  const intoWindow = (Date.now() / 1000) % seconds;
  if (seconds - intoWindow < needSeconds) {
    await new Promise((resolve) => setTimeout(resolve, (seconds - intoWindow) * 1000 + 100));
  }
}

describe("sign-up and the per-email and per-address limits, behind a trusted proxy (TRUST_PROXY=true)", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp({ FIREBASE_AUTH_EMULATOR_HOST: firebase.host, TRUST_PROXY: "true" });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it("a sign-up never calls accounts:signUp (Firebase's 100 an hour per address): firebase-admin makes the account and a custom token signs it in", async () => {
    firebase.clear();
    const { response, email, client } = await app.signUp();
    expect(response.status).toBe(302);
    const calls = firebase.requests();
    expect(calls.map((call) => call.path)).not.toContain(SIGN_UP_PATH);
    expect(calls).toContainEqual({ method: "POST", path: ADMIN_CREATE_PATH });
    expect(calls).toContainEqual({ method: "POST", path: CUSTOM_TOKEN_PATH });
    // A real session and a real password account: Home greets them, and the password signs in.
    const home = await client.visit("/");
    expect(home.html).toContain(AUTH_MESSAGES.signedUp);
    expect(home.html).toContain(`Hi, <!-- -->${email.split("@")[0]}`);
    expect((await signIn(app, email)).status).toBe(302);
    const profile = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    expect(profile).toHaveLength(1);
  });

  it("a sign-up keeps the spec's messages: already registered, invalid email format, and a network error when Firebase is down", async () => {
    const { email } = await app.signUp();
    const again = await app.signUp({ email: email.toUpperCase() });
    expect(again.response.status).toBe(400);
    expect(await again.response.text()).toContain(html(AUTH_MESSAGES.emailInUse));

    const malformed = await app.signUp({ email: "not-an-email" });
    expect(malformed.response.status).toBe(400);
    expect(await malformed.response.text()).toContain(html(AUTH_MESSAGES.invalidEmailFormat));

    const unreachable = uniqueEmail("offline");
    try {
      await firebase.cut();
      const down = await app.signUp({ email: unreachable });
      expect(down.response.status).toBe(400);
      expect(await down.response.text()).toContain(html(AUTH_MESSAGES.networkError));
    } finally {
      await firebase.restore();
    }
    // Nothing was made: the same address signs up once Firebase is back.
    expect((await app.signUp({ email: unreachable })).response.status).toBe(302);
  });

  it("attack: 10 wrong passwords from one address close only that address's sign-ins for the account (429 on the 11th, the right password too); the owner signs in from another address at once", async () => {
    const { email } = await app.signUp();
    const attacker = { "x-forwarded-for": "198.51.100.7" };
    for (let attempt = 0; attempt < RATE_LIMITS.signInFromClient.limit; attempt++) {
      expect((await signIn(app, email, "not-the-password", attacker)).status).toBe(400);
    }
    const retryAfter = await expectTooManyAttempts(() => signIn(app, ` ${email.toUpperCase()} `, PASSWORD, attacker));
    // A sliding window: at most two of them.
    expect(retryAfter).toBeLessThanOrEqual(2 * RATE_LIMITS.signInFromClient.windowSeconds);
    await expectTooManyAttempts(() => signIn(app, email, "not-the-password", attacker));
    const owner = await signIn(app, email, PASSWORD, { "x-forwarded-for": "203.0.113.50" });
    expect(owner.status).toBe(302);
    expect(hasSession(owner)).toBe(true);
  });

  it("attack: wrong passwords from many addresses only slow the account down: past 10 failures one check per 10 s for every new browser, whose right password gets in at its turn, and the owner's own browser (signed in there before) gets in at once", async () => {
    const { email, client: ownBrowser } = await app.signUp();
    // Ten failures at full speed, then the 11th at the pace's first turn: all checked, all wrong.
    for (let attempt = 0; attempt <= RATE_LIMITS.signIn.limit; attempt++) {
      const wrong = await signIn(app, email, "not-the-password", { "x-forwarded-for": `198.51.100.${100 + attempt}` });
      expect(wrong.status).toBe(400);
    }
    const waited = await expectTooManyAttempts(
      () => signIn(app, email, "not-the-password", { "x-forwarded-for": "198.51.100.150" }),
      "seconds",
    );
    expect(waited).toBeLessThanOrEqual(SIGN_IN_PACES.slowed.spacingSeconds);
    const newBrowser = { "x-forwarded-for": "203.0.113.61" };
    const wait = await expectTooManyAttempts(() => signIn(app, email, PASSWORD, newBrowser), "seconds");
    expect(wait).toBeLessThanOrEqual(SIGN_IN_PACES.slowed.spacingSeconds);
    // The browser the owner signed up in carries its device cookie: not slowed down.
    const own = await ownBrowser.post(
      "/auth",
      { intent: "signin", email, password: PASSWORD },
      { "x-forwarded-for": "203.0.113.60" },
    );
    expect(own.status).toBe(302);
    // The new browser, once its turn has come.
    await sleep(wait * 1000 + 200);
    const atItsTurn = await signIn(app, email, PASSWORD, newBrowser);
    expect(atItsTurn.status).toBe(302);
    expect(hasSession(atItsTurn)).toBe(true);
  });

  it("attack: a stranger's password resets for the owner's address send one email per 15 minutes and are never refused; the owner's own reset says sent, and the email that went out sets a new password", async () => {
    const { email } = await app.signUp();
    const stranger = new HttpClient(app.url);
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await stranger.post(
        "/auth",
        { intent: "reset", email, password: "" },
        { "x-forwarded-for": "198.51.100.99" },
      );
      expect(response.status).toBe(302);
      expect((await stranger.visit(response.headers.get("location")!)).html).toContain(html(AUTH_MESSAGES.resetSent));
    }
    const owner = new HttpClient(app.url);
    const own = await owner.post(
      "/auth",
      { intent: "reset", email, password: "" },
      { "x-forwarded-for": "203.0.113.70" },
    );
    expect(own.status).toBe(302);
    expect((await owner.visit(own.headers.get("location")!)).html).toContain(html(AUTH_MESSAGES.resetSent));
    const mails = await resetMails(email);
    expect(mails).toHaveLength(1);
    expect(PASSWORD_RESET_MAIL_PACE.spacingSeconds).toBe(15 * 60);
    await resetPasswordWithCode(mails[0]!.oobCode, "brand-new-pass");
    expect((await signIn(app, email, "brand-new-pass")).status).toBe(302);
  });

  it("a password reset for an address without an account here says sent and asks nothing of Firebase", async () => {
    const email = uniqueEmail("nobody");
    firebase.clear();
    const response = await reset(app, email);
    expect(response.status).toBe(302);
    expect(firebase.requests().map((call) => call.path)).not.toContain(SEND_OOB_CODE_PATH);
    expect(await resetMails(email)).toEqual([]);
  });

  it("refuses a password account's ID token (made on Firebase's public accounts:signUp) posted as a Google sign-in: a clear message, no session, no profile; a Google one signs in", async () => {
    const account = await signUpDirect(uniqueEmail("not-google"), PASSWORD);
    const response = await post(app, "/auth", { intent: "google", idToken: account.idToken });
    expect(response.status).toBe(400);
    expect(hasSession(response)).toBe(false);
    expect(await response.text()).toContain(html(AUTH_MESSAGES.notGoogleSignIn));
    expect(await app.sql("select 1 from user_profiles where id = $1", [account.localId])).toEqual([]);

    const google = await googleIdToken({
      sub: `g-real-${Date.now()}`,
      email: uniqueEmail("g-real"),
      name: "Real Google",
    });
    const signedIn = await post(app, "/auth", { intent: "google", idToken: google.idToken });
    expect(signedIn.status).toBe(302);
    expect(hasSession(signedIn)).toBe(true);
    expect(await app.sql("select display_name from user_profiles where id = $1", [google.localId])).toEqual([
      { display_name: "Real Google" },
    ]);
  });

  it("a first Google sign-in makes a profile, so it counts as a sign-up: past the e-mail address's or the client address's sign-ups it is refused (429) and makes no profile; a returning Google user still signs in", async () => {
    const signUpWithUnknownCode = (email: string, address: string) =>
      post(
        app,
        "/auth?tab=signup",
        { intent: "signup", email, password: PASSWORD, referralCode: UNKNOWN_REFERRAL_CODE },
        { "x-forwarded-for": address },
      );
    const refusedFirstSignIn = async (idToken: string, uid: string, address: string) => {
      const response = await post(app, "/auth", { intent: "google", idToken }, { "x-forwarded-for": address });
      await expectRefusedAttempt(response);
      expect(await app.sql("select 1 from user_profiles where id = $1", [uid])).toEqual([]);
    };

    // Per e-mail address: its five sign-ups an hour are used up (each refused for its code).
    const email = uniqueEmail("g-limit");
    for (let attempt = 0; attempt < RATE_LIMITS.signUp.limit; attempt++) {
      expect((await signUpWithUnknownCode(email, `198.51.100.${attempt + 1}`)).status).toBe(400);
    }
    const byEmail = await googleIdToken({ sub: `g-limit-${Date.now()}`, email });
    await refusedFirstSignIn(byEmail.idToken, byEmail.localId, "203.0.113.80");

    // Per client address: twenty sign-ups from it are used up.
    const address = "198.51.100.222";
    const returningUser = { sub: `g-back-${Date.now()}`, email: uniqueEmail("g-back") };
    const first = await googleIdToken(returningUser);
    expect((await post(app, "/auth", { intent: "google", idToken: first.idToken })).status).toBe(302);
    for (let attempt = 0; attempt < RATE_LIMITS.signUpFromAddress.limit; attempt++) {
      expect((await signUpWithUnknownCode(uniqueEmail("g-addr"), address)).status).toBe(400);
    }
    const newcomer = await googleIdToken({ sub: `g-new-${Date.now()}`, email: uniqueEmail("g-new") });
    await refusedFirstSignIn(newcomer.idToken, newcomer.localId, address);
    // Someone with a profile signs in from there; the newcomer from elsewhere.
    const back = await googleIdToken(returningUser);
    expect(back.localId).toBe(first.localId);
    const fromThere = await post(
      app,
      "/auth",
      { intent: "google", idToken: back.idToken },
      { "x-forwarded-for": address },
    );
    expect(fromThere.status).toBe(302);
    const elsewhere = await post(
      app,
      "/auth",
      { intent: "google", idToken: newcomer.idToken },
      { "x-forwarded-for": "203.0.113.81" },
    );
    expect(elsewhere.status).toBe(302);
  }, 60_000);

  it("per email: a 6th sign-up with one address within the hour is refused (429) before Firebase is asked", async () => {
    const { email } = await app.signUp();
    for (let attempt = 1; attempt < RATE_LIMITS.signUp.limit; attempt++) {
      expect((await app.signUp({ email })).response.status).toBe(400); // already registered
    }
    await expectTooManyAttempts(async () => (await app.signUp({ email })).response);
  });

  it("per client address: the last X-Forwarded-For entry (what the proxy saw) is counted, so a forged first entry changes nothing, and another address is not refused", async () => {
    const client = "203.0.113.7";
    for (let attempt = 0; attempt < RATE_LIMITS.signInFromAddress.limit; attempt++) {
      const forged = `10.0.${attempt}.1`;
      const response = await signIn(app, uniqueEmail("spray"), PASSWORD, { "x-forwarded-for": `${forged}, ${client}` });
      expect(response.status).toBe(400); // no such account
    }
    await expectTooManyAttempts(() =>
      signIn(app, uniqueEmail("spray"), PASSWORD, { "x-forwarded-for": `192.0.2.99, ${client}` }),
    );
    // The same people from another address (an IPv6 client, counted by its /64) go ahead.
    const { email } = await app.signUp();
    const elsewhere = await signIn(app, email, PASSWORD, { "x-forwarded-for": `${client}, 2001:db8:1:2::5` });
    expect(elsewhere.status).toBe(302);
  });
});

describe("without TRUST_PROXY, and the ceiling for everyone (AUTH_GLOBAL_LIMIT_PER_MINUTE)", () => {
  const CEILING = 25;
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp({
      FIREBASE_AUTH_EMULATOR_HOST: firebase.host,
      AUTH_GLOBAL_LIMIT_PER_MINUTE: String(CEILING),
      // PayPal is configured so that its webhook gets as far as its limit; it is never reached.
      PAYPAL_CLIENT_ID: "limits-client",
      PAYPAL_CLIENT_SECRET: "limits-secret",
      PAYPAL_WEBHOOK_ID: "WH-LIMITS",
      PAYPAL_API_URL: "http://127.0.0.1:9",
    });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it("without TRUST_PROXY, X-Forwarded-For is ignored: more password resets than one address may make all go ahead", async () => {
    expect(RATE_LIMITS.passwordResetFromAddress.limit).toBeLessThan(CEILING);
    for (let attempt = 0; attempt <= RATE_LIMITS.passwordResetFromAddress.limit; attempt++) {
      const response = await reset(app, uniqueEmail("reset"), { "x-forwarded-for": "203.0.113.9" });
      expect(response.status).toBe(302);
    }
  });

  it("attack, without TRUST_PROXY: wrong passwords only slow the account down: past 10 failures the next check waits at most 10 seconds (429 saying the seconds), then the right password signs in", async () => {
    const { email } = await app.signUp();
    // Ten failures at full speed, then the 11th at the pace's first turn.
    for (let attempt = 0; attempt <= RATE_LIMITS.signIn.limit; attempt++) {
      expect((await signIn(app, email, "not-the-password")).status).toBe(400);
    }
    const wait = await expectTooManyAttempts(() => signIn(app, email), "seconds");
    expect(wait).toBeLessThanOrEqual(SIGN_IN_PACES.slowed.spacingSeconds);
    await sleep(wait * 1000 + 200);
    const owner = await signIn(app, email);
    expect(owner.status).toBe(302);
    expect(hasSession(owner)).toBe(true);
  });

  it("attack: sign-ins with made-up addresses past the ceiling are refused among themselves, and a real user still signs in", async () => {
    const { email } = await app.signUp();
    for (let attempt = 0; attempt < CEILING; attempt++) {
      expect((await signIn(app, uniqueEmail("made-up"))).status).toBe(400);
    }
    await expectTooManyAttempts(() => signIn(app, uniqueEmail("made-up")));
    const real = await signIn(app, email);
    expect(real.status).toBe(302);
    expect(hasSession(real)).toBe(true);
  });

  it("failed sign-ins for real accounts up to the ceiling close sign-in for everyone for about a minute (429), while sign-ups keep their own", async () => {
    // A few accounts, each below its own ten full-speed failures.
    const accounts = await Promise.all([app.signUp(), app.signUp(), app.signUp()]);
    let refused: Response | null = null;
    for (let attempt = 0; attempt <= CEILING && !refused; attempt++) {
      const response = await signIn(app, accounts[attempt % 3]!.email, "not-the-password");
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(400);
    }
    expect(refused).not.toBeNull();
    const { email, response } = await app.signUp();
    expect(response.status).toBe(302);
    const retryAfter = await expectTooManyAttempts(() => signIn(app, email));
    // A sliding minute: everyone is let in again within about a minute of the flood.
    expect(retryAfter).toBeLessThanOrEqual(2 * 60);
  });

  it("GET /api/referral-codes/{code} answers 429 with Retry-After once the guessing limit is reached", async () => {
    const { limit, windowSeconds } = RATE_LIMITS.referralCodeCheck;
    await freshWindow(windowSeconds);
    for (let start = 0; start < limit; start += 25) {
      const batch = Array.from({ length: Math.min(25, limit - start) }, () =>
        fetch(new URL("/api/referral-codes/ABCDEFG", app.url)),
      );
      for (const response of await Promise.all(batch)) expect(response.status).toBe(200);
    }
    const refused = await fetch(new URL("/api/referral-codes/ABCDEFG", app.url));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(windowSeconds);
    expect(await refused.json()).toEqual({ success: false, error: "Too many requests" });
  }, 60_000);

  // The PayPal webhook counts only deliveries PayPal has verified, so junk cannot use up its minute:
  // tests/http/payouts.test.ts floods it with forged deliveries and then with genuine ones.
});
