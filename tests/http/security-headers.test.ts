import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../support/app-server";
import { emulatorHost } from "../support/emulator";
import { HttpClient, signedInClient } from "../support/http";

// The headers of every document: a Content-Security-Policy with a nonce made for that response,
// which each of its script tags carries, Google sign-in and FCM allowed only on the pages that
// use them, and the other security headers. (tests/e2e/content-security-policy.js-only.spec.ts
// shows the pages working under it in Chromium.)

/** The policy's directives by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(";").map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

/** Fetches a document and checks its nonce against its script tags; returns the nonce and the policy. */
async function document(client: HttpClient, path: string) {
  const response = await client.get(path);
  expect(response.headers.get("content-type"), path).toContain("text/html");
  const policy = response.headers.get("content-security-policy");
  expect(policy, `${path} has a Content-Security-Policy`).toBeTruthy();
  const scriptSources = directives(policy!).get("script-src")!;
  const nonces = scriptSources.filter((source) => source.startsWith("'nonce-"));
  expect(nonces, path).toHaveLength(1);
  const nonce = nonces[0]!.slice("'nonce-".length, -1);
  const html = await response.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length, `${path} has script tags`).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
  // The stylesheet is inline, with the same nonce; no element of the page links one.
  const styles = html.match(/<style\b[^>]*>/g) ?? [];
  expect(styles, path).toEqual([`<style data-app-stylesheet="" nonce="${nonce}">`]);
  expect(html, path).not.toMatch(/<link\b[^>]*rel="stylesheet"/);
  return { response, nonce, policy: policy!, directives: directives(policy!), html };
}

const GOOGLE_HOSTS = ["https://apis.google.com", "googleapis.com", "firebaseapp.com"];
const FCM_HOSTS = ["firebaseinstallations.googleapis.com", "fcmregistrations.googleapis.com"];

describe("document security headers, over HTTP against the production build", () => {
  let signedIn: HttpClient;
  const signedOut = new HttpClient();
  signedOut.cookies.set("hasSeenOnboarding", "true");

  beforeAll(async () => {
    signedIn = (await signedInClient()).client;
  });

  const signedOutPages = ["/auth", "/auth?tab=signup", "/legal", "/legal?tab=cookies", "/no/such/page"];
  const signedInPages = [
    "/",
    "/earn",
    "/earn?task=task-006",
    "/leaderboard",
    "/withdraw",
    "/referral",
    "/profile",
    "/profile?tab=referrals",
    "/profile?tab=help",
    // A page of its own since docs/decisions/071 (it was the 404 page).
    "/settings",
  ];

  it("every page, the onboarding and the 404 page included, carries a policy whose nonce is on every script tag and differs on each request", async () => {
    const onboarding = await document(new HttpClient(), "/?slide=1");
    expect(onboarding.html).toContain("Slide 2 of 3");
    const pages = [
      ...signedOutPages.map((path) => [signedOut, path] as const),
      ...signedInPages.map((path) => [signedIn, path] as const),
    ];
    const seen = new Set<string>([onboarding.nonce]);
    for (const [client, path] of pages) {
      const first = await document(client, path);
      const second = await document(client, path);
      expect(first.nonce, path).not.toBe(second.nonce);
      // 128 random bits, base64.
      expect(Buffer.from(first.nonce, "base64")).toHaveLength(16);
      expect(seen.has(first.nonce) || seen.has(second.nonce), path).toBe(false);
      seen.add(first.nonce).add(second.nonce);
    }
    expect((await signedOut.get("/no/such/page")).status).toBe(404);
  });

  it("the policy allows scripts and styles only from the app and with the nonce, no frames of the app, no plugins, no <base>, forms only to the app, workers and the manifest only from the app", async () => {
    for (const [client, path] of [
      [signedOut, "/legal"],
      [signedIn, "/earn"],
      [signedOut, "/auth"],
      [signedIn, "/profile"],
      [signedOut, "/no/such/page"],
    ] as const) {
      const { directives: policy, nonce, html } = await document(client, path);
      // The app's own CSS travels in the document.
      expect(html.slice(html.indexOf("<style"), html.indexOf("</style>")), path).toContain(".toast-auto-hide{");
      expect(policy.get("default-src"), path).toEqual(["'self'"]);
      expect(policy.get("script-src")!.slice(0, 2), path).toEqual(["'self'", expect.stringMatching(/^'nonce-/)]);
      for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", "'strict-dynamic'", "*", "http:", "https:"]) {
        expect(policy.get("script-src"), path).not.toContain(unsafe);
      }
      // The nonce, and the inline stylesheet's hash for a document React renders again in the browser.
      const css = /<style data-app-stylesheet=""[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
      const cssHash = `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`;
      expect(policy.get("style-src"), path).toEqual(["'self'", `'nonce-${nonce}'`, cssHash]);
      for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", "*", "http:", "https:"]) {
        expect(policy.get("style-src"), path).not.toContain(unsafe);
      }
      expect(policy.get("img-src"), path).toEqual(["'self'"]);
      expect(policy.get("object-src"), path).toEqual(["'none'"]);
      expect(policy.get("base-uri"), path).toEqual(["'none'"]);
      expect(policy.get("form-action"), path).toEqual(["'self'"]);
      expect(policy.get("frame-ancestors"), path).toEqual(["'none'"]);
      // Workers only from the app (its one service worker), the manifest only from the app.
      expect(policy.get("worker-src"), path).toEqual(["'self'"]);
      expect(policy.get("manifest-src"), path).toEqual(["'self'"]);
    }
  });

  it("Google sign-in's hosts (here the Auth emulator) are allowed on /auth, /profile and /settings only, FCM's on /profile and /settings only", async () => {
    const emulator = `http://${emulatorHost()}`;
    const auth = (await document(signedOut, "/auth")).directives;
    expect(auth.get("script-src")).toContain("https://apis.google.com");
    expect(auth.get("frame-src")).toEqual([emulator]);
    expect(auth.get("connect-src")).toEqual(["'self'", emulator]);
    expect(auth.get("worker-src")).toEqual(["'self'"]);

    const profile = (await document(signedIn, "/profile?tab=help")).directives;
    expect(profile.get("script-src")).toContain("https://apis.google.com");
    expect(profile.get("frame-src")).toEqual([emulator]);
    expect(profile.get("connect-src")).toEqual(["'self'", emulator, ...FCM_HOSTS.map((host) => `https://${host}`)]);
    expect(profile.get("worker-src")).toEqual(["'self'"]);

    // Settings holds the same switches and deletion (docs/decisions/071-settings-is-a-real-page.md).
    const settings = (await document(signedIn, "/settings")).directives;
    expect(settings.get("script-src")).toContain("https://apis.google.com");
    expect(settings.get("frame-src")).toEqual([emulator]);
    expect(settings.get("connect-src")).toEqual(["'self'", emulator, ...FCM_HOSTS.map((host) => `https://${host}`)]);

    for (const [client, path] of [
      [signedIn, "/"],
      [signedIn, "/earn"],
      [signedIn, "/leaderboard"],
      [signedIn, "/withdraw"],
      [signedIn, "/referral"],
      [signedOut, "/legal"],
      [new HttpClient(), "/?slide=0"],
      [signedOut, "/auth/elsewhere"],
      [signedOut, "/profile/settings"],
    ] as const) {
      const { policy, directives: policyOf } = await document(client, path);
      for (const host of [...GOOGLE_HOSTS, ...FCM_HOSTS, emulatorHost()]) expect(policy, path).not.toContain(host);
      expect(policyOf.get("connect-src"), path).toEqual(["'self'"]);
      expect(policyOf.get("frame-src"), path).toEqual(["'none'"]);
      // The app's own service worker (the offline page) is registered from every page.
      expect(policyOf.get("worker-src"), path).toEqual(["'self'"]);
      expect(policyOf.get("style-src-attr"), path).toBeUndefined();
    }
  });

  it("keeps the other headers on every document: Permissions-Policy denying what the app does not use, nosniff, the referrer policy, X-Frame-Options, and HSTS in production", async () => {
    for (const [client, path] of [
      [signedOut, "/auth"],
      [signedIn, "/"],
      [signedOut, "/no/such/page"],
    ] as const) {
      const { response } = await document(client, path);
      const permissions = response.headers.get("permissions-policy")!;
      for (const denied of ["camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()", "fullscreen=()"]) {
        expect(permissions, path).toContain(denied);
      }
      // Copying and sharing the referral link stay allowed (their default is this origin).
      expect(permissions, path).not.toMatch(/clipboard|web-share/);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
      // `npm test` runs the production build with NODE_ENV=production.
      expect(response.headers.get("strict-transport-security"), path).toBe("max-age=31536000");
    }
  });
});

describe("document security headers outside production, on a real Firebase project (no emulator)", () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    app = await startTestApp({
      NODE_ENV: "test",
      FIREBASE_AUTH_EMULATOR_HOST: "",
      FIREBASE_PROJECT_ID: "rewards-csp-test",
      FIREBASE_API_KEY: "csp-test-api-key",
      FIREBASE_AUTH_DOMAIN: "login.rewards.example",
      // The authorised domains are not fetched from Google here.
      AUTH_AUTHORIZED_DOMAINS: "localhost",
    });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it("sends no Strict-Transport-Security header when NODE_ENV is not production", async () => {
    const client = new HttpClient(app.url);
    for (const path of ["/auth", "/legal", "/no/such/page"]) {
      const { response } = await document(client, path);
      expect(response.headers.get("strict-transport-security"), path).toBeNull();
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
    }
  });

  it("lets /auth frame the project's auth domain and call the Identity Toolkit, and nothing else does", async () => {
    const client = new HttpClient(app.url);
    const auth = (await document(client, "/auth")).directives;
    expect(auth.get("script-src")).toContain("https://apis.google.com");
    expect(auth.get("frame-src")).toEqual(["https://login.rewards.example"]);
    expect(auth.get("connect-src")).toEqual([
      "'self'",
      "https://identitytoolkit.googleapis.com",
      "https://securetoken.googleapis.com",
    ]);
    const legal = await document(client, "/legal");
    for (const host of ["login.rewards.example", ...GOOGLE_HOSTS]) expect(legal.policy).not.toContain(host);
  });
});
