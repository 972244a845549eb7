import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_FORM_TOKEN_FIELD, AUTH_MESSAGES } from "~/domain/auth";
import { CROSS_SITE_MESSAGE } from "~/server/http/same-origin.server";
import { startTestApp } from "../support/app-server";
import { HttpClient, html, uniqueEmail } from "../support/http";
import { ROUTES_DIR, routeModules } from "../support/route-modules";

// Every route module with an action, by the URL a form posts to. Server-to-server endpoints carry
// no visitor's cookies and prove themselves by signature instead.
const PAGE_ACTIONS: Record<string, string> = {
  "_index/route.tsx": "/?index",
  "admin.settings/route.tsx": "/admin/settings",
  "admin.codes/route.tsx": "/admin/codes",
  "admin.prizes/route.tsx": "/admin/prizes",
  "admin.walls_.$network/route.tsx": "/admin/walls/bitlabs",
  "auth/route.tsx": "/auth",
  "earn/route.tsx": "/earn",
  "earn_.offers/route.tsx": "/earn/offers?report=acme",
  "levels/route.tsx": "/levels",
  "logout/route.tsx": "/logout",
  "end-sessions/route.tsx": "/end-sessions?link=1.x",
  "profile/route.tsx": "/profile",
  "settings/route.tsx": "/settings",
  "withdraw/route.tsx": "/withdraw",
  // The operator console (docs/operator-console.md): refused as cross-site before anyone's role is read.
  "admin.people_.$userId/route.tsx": "/admin/people/no-such-account",
  "admin.support_.$kind.$ticketId/route.tsx": "/admin/support/feedback/999999999",
  "admin.withdrawals/route.tsx": "/admin/withdrawals",
  "admin.withdrawals_.$withdrawalId/route.tsx": "/admin/withdrawals/00000000-0000-4000-8000-000000000000",
  "admin_.2fa/route.tsx": "/admin/2fa",
};
const API_ACTIONS: Record<string, string> = {
  "api.$provider.complete.ts": "/api/acme/complete",
  "api.push-tokens.ts": "/api/push-tokens",
  "admin.withdrawals[.csv].ts": "/admin/withdrawals.csv",
};
const SIGNED_ENDPOINTS = [
  "api.$provider.postback.ts",
  "api.paypal.webhook.ts",
  "api.razorpayx.webhook.ts",
  "api.tremendous.webhook.ts",
];
// Resource routes whose action only answers 405 "Use GET" (tests/http/bad-input-*.test.ts).
const GET_ONLY = [
  "api.$provider.offers.ts",
  "api.events.ts",
  "api.referral-codes.$code.ts",
  "healthz.ts",
  "offline.ts",
  "offer-images.$id.ts",
  "service-worker[.]js.ts",
];

const CROSS_SITE_WAYS: Record<string, Record<string, string>> = {
  "a foreign Origin": { origin: "https://evil.example" },
  "Sec-Fetch-Site: cross-site": { "sec-fetch-site": "cross-site" },
  "a foreign Origin and Sec-Fetch-Site: cross-site": { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
};

describe("cross-site posts and the /auth form token", () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  async function signedIn() {
    const client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    const response = await client.post("/auth?tab=signup", {
      intent: "signup",
      email: uniqueEmail("csrf"),
      password: "s3cret-pass",
    });
    expect(response.status).toBe(302);
    return client;
  }

  beforeAll(async () => {
    // A provider is configured so that /api/acme/complete reaches its same-origin check.
    app = await startTestApp({ OFFER_PROVIDER: "acme", OFFER_PROVIDER_API_URL: "http://127.0.0.1:9/offers" });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
  });

  it("covers every route module that has an action", () => {
    const withAction = routeModules().filter((file) =>
      /export (async )?function action\b|export const action\b/.test(readFileSync(path.join(ROUTES_DIR, file), "utf8")),
    );
    expect(withAction.sort()).toEqual(
      [...Object.keys(PAGE_ACTIONS), ...Object.keys(API_ACTIONS), ...SIGNED_ENDPOINTS, ...GET_ONLY].sort(),
    );
  });

  for (const [way, headers] of Object.entries(CROSS_SITE_WAYS)) {
    it(`answers a page form posted with ${way} with the app's 403 page, on every page with an action`, async () => {
      const client = await signedIn();
      for (const [file, url] of Object.entries(PAGE_ACTIONS)) {
        const response = await client.post(url, { intent: "checkin" }, headers);
        expect(response.status, file).toBe(403);
        const body = await response.text();
        expect(body, file).toContain(html(CROSS_SITE_MESSAGE));
        expect(body, file).toContain("<html");
      }
    });

    it(`answers an API call posted with ${way} with a 403 JSON error`, async () => {
      const client = await signedIn();
      for (const [file, url] of Object.entries(API_ACTIONS)) {
        const response = await client.post(url, { intent: "status", token: "t", taskId: "1" }, headers);
        expect(response.status, file).toBe(403);
        expect(await response.json(), file).toEqual({ success: false, error: CROSS_SITE_MESSAGE });
      }
    });
  }

  it("changes nothing on a cross-site post: the check-in stays undone", async () => {
    const client = await signedIn();
    const response = await client.post("/?index", { intent: "checkin" }, { origin: "https://evil.example" });
    expect(response.status).toBe(403);
    const home = await client.visit("/");
    expect(home.html).toContain("Check In Now");
  });

  it("does not log a refused cross-site post as a server error", async () => {
    const client = await signedIn();
    const before = app.stderr().length;
    await client.post("/withdraw", { intent: "withdraw", amount: "5" }, { origin: "https://evil.example" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(app.stderr().slice(before)).toBe("");
  });

  describe("a post to /auth from a browser that sends neither Origin nor Sec-Fetch-Site", () => {
    const NO_SITE = { origin: "", "sec-fetch-site": "" };

    async function account() {
      const email = uniqueEmail("oldbrowser");
      const client = new HttpClient(app.url);
      expect((await client.post("/auth?tab=signup", { intent: "signup", email, password: "s3cret-pass" })).status).toBe(
        302,
      );
      return email;
    }

    async function formToken(client: HttpClient) {
      const page = await client.visit("/auth");
      const match = new RegExp(`name="${AUTH_FORM_TOKEN_FIELD}" value="([^"]+)"`).exec(page.html);
      expect(match).not.toBeNull();
      return match![1]!;
    }

    it("is refused with 403 and no session when it carries no form token", async () => {
      const email = await account();
      const client = new HttpClient(app.url);
      const response = await client.post("/auth", { intent: "signin", email, password: "s3cret-pass" }, NO_SITE);
      expect(response.status).toBe(403);
      expect(await response.text()).toContain(html(AUTH_MESSAGES.formExpired));
      expect(client.cookies.has("__session")).toBe(false);
    });

    it("signs in with the token of the /auth page it was shown", async () => {
      const email = await account();
      const client = new HttpClient(app.url);
      const token = await formToken(client);
      const response = await client.post(
        "/auth",
        { intent: "signin", email, password: "s3cret-pass", [AUTH_FORM_TOKEN_FIELD]: token },
        NO_SITE,
      );
      expect(response.status).toBe(302);
      expect(client.cookies.has("__session")).toBe(true);
    });

    it("is refused when the token belongs to another visitor's page (another site read it from its own visit)", async () => {
      const email = await account();
      const attacker = new HttpClient(app.url);
      const stolenToken = await formToken(attacker);
      const victim = new HttpClient(app.url);
      await formToken(victim); // the victim has a cookie of their own
      const response = await victim.post(
        "/auth",
        { intent: "signin", email, password: "s3cret-pass", [AUTH_FORM_TOKEN_FIELD]: stolenToken },
        NO_SITE,
      );
      expect(response.status).toBe(403);
      expect(victim.cookies.has("__session")).toBe(false);
    });
  });

  describe("the page to return to after signing in", () => {
    for (const [name, redirectTo] of [
      ["a tab (/%09/evil.example)", "/\t/evil.example"],
      ["a newline (/%0A/x)", "/\n/x"],
      ["a backslash (/%5Cevil.example)", "/\\evil.example"],
    ] as const) {
      it(`stays on the site when redirectTo holds ${name}, and the sign-in still succeeds`, async () => {
        const email = uniqueEmail("redirect");
        const client = new HttpClient(app.url);
        const response = await client.post(`/auth?tab=signup&${new URLSearchParams({ redirectTo })}`, {
          intent: "signup",
          email,
          password: "s3cret-pass",
        });
        expect(response.status).toBe(302);
        expect(response.headers.get("location")).toBe("/");
        expect(client.cookies.has("__session")).toBe(true);
      });
    }

    it("returns to a local page named in redirectTo", async () => {
      const client = new HttpClient(app.url);
      const response = await client.post(`/auth?tab=signup&redirectTo=${encodeURIComponent("/withdraw?history=1")}`, {
        intent: "signup",
        email: uniqueEmail("redirect"),
        password: "s3cret-pass",
      });
      expect(response.headers.get("location")).toBe("/withdraw?history=1");
    });
  });
});
