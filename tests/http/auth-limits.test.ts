import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "~/domain/auth";
import { tooManyAttemptsMessage } from "~/domain/rate-limit";
import { RATE_LIMITS } from "~/server/http/rate-limit.server";
import { emulatorHost, sentOobCodes } from "../support/emulator";
import { HttpClient, html, uniqueEmail } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startRecordingProxy } from "../support/recording-proxy";

// Each app here has its own database, so its limits are its own: the shared test server's are
// left alone for the other tests. Firebase is reached through a relay that records every call.
const PASSWORD = "s3cret-pass";
const SIGN_UP_PATH = "/identitytoolkit.googleapis.com/v1/accounts:signUp";
const ADMIN_CREATE_PATH = "/identitytoolkit.googleapis.com/v1/projects/demo-rewards/accounts";
const CUSTOM_TOKEN_PATH = "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken";

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

/** A refused attempt: 429, Retry-After, the message in the form's banner, no session, and no call to Firebase. */
async function expectTooManyAttempts(attempt: () => Promise<Response>) {
  firebase.clear();
  const response = await attempt();
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  const body = await response.text();
  expect(body).toContain(html(tooManyAttemptsMessage(retryAfter)));
  expect(body).toMatch(/role="alert"[^]*?Too many attempts\. Please try again in \d+ minutes?\./);
  expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))).toBe(false);
  // No sign-in, account or email call (the page itself may look up the authorised domains, a GET).
  expect(firebase.requests().filter((call) => call.method !== "GET")).toEqual([]);
  return retryAfter;
}

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

  it("per email: after 10 sign-in attempts in 15 minutes the next is refused (429), even with the right password and another spelling of the address", async () => {
    const { email } = await app.signUp();
    for (let attempt = 0; attempt < RATE_LIMITS.signIn.limit; attempt++) {
      // From a new client address each time: only the address being tried adds up.
      const wrong = await signIn(app, email, "not-the-password", { "x-forwarded-for": `198.51.100.${attempt + 1}` });
      expect(wrong.status).toBe(400);
    }
    const retryAfter = await expectTooManyAttempts(() =>
      signIn(app, ` ${email.toUpperCase()} `, PASSWORD, { "x-forwarded-for": "198.51.100.200" }),
    );
    // A sliding window: when the attempts filled the current fixed window, the wait runs into the
    // next one until their weight has fallen (hit_rate_limit), so at most two windows.
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(2 * RATE_LIMITS.signIn.windowSeconds);
    // Another account is not affected.
    const other = await app.signUp();
    expect((await signIn(app, other.email)).status).toBe(302);
  });

  it("per email: a 4th password reset within the hour is refused (429) and sends no email", async () => {
    const { email } = await app.signUp();
    for (let attempt = 0; attempt < RATE_LIMITS.passwordReset.limit; attempt++) {
      expect((await reset(app, email)).status).toBe(302);
    }
    await expectTooManyAttempts(() => reset(app, email));
    const sent = (await sentOobCodes()).filter((code) => code.email === email && code.requestType === "PASSWORD_RESET");
    expect(sent).toHaveLength(RATE_LIMITS.passwordReset.limit);
  });

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

  it("once the ceiling of sign-ins for everyone is reached, the next one is refused (429) whoever sends it, while sign-ups keep their own", async () => {
    for (let attempt = 0; attempt < CEILING; attempt++) {
      expect((await signIn(app, uniqueEmail("crowd"))).status).toBe(400);
    }
    const { email } = await app.signUp();
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

  it("POST /api/paypal/webhook answers 429 with Retry-After once the flood limit is reached", async () => {
    const { limit, windowSeconds } = RATE_LIMITS.paypalWebhook;
    const deliver = () =>
      fetch(new URL("/api/paypal/webhook", app.url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "not an event",
      });
    await freshWindow(windowSeconds);
    for (let start = 0; start < limit; start += 25) {
      const batch = Array.from({ length: Math.min(25, limit - start) }, deliver);
      for (const response of await Promise.all(batch)) expect(response.status).toBe(400);
    }
    const refused = await deliver();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(windowSeconds);
    expect(await refused.json()).toEqual({ success: false, error: "Too many requests" });
  }, 60_000);
});
