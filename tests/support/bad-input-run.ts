import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from "vitest";
import {
  cookieHeader,
  encodeBody,
  MARKUP,
  setCookies,
  visibleText,
  type Answer,
  type Case,
  FRESH_EMAIL,
  SECRET,
  SETTINGS_VERSION,
  type Who,
} from "./bad-input";
import { createHmac } from "node:crypto";
import { RAZORPAYX_SIGNED_EVENT, SIGNED_EVENT, TREMENDOUS_SIGNED_EVENT } from "./bad-input-api";
import { PAID_WITHDRAWAL } from "./bad-input-console";
import { newMember, newOperator } from "./console";
import { uniqueEmail } from "./http";
import { ledgerAudit } from "./ledger-audit";
import { startOfferProvider } from "./offer-provider";
import { startPayPalStandIn, type PayPalStandIn } from "./paypal";
import { startPostgresApp, type PostgresApp } from "./postgres-app";
import { ROUTES_DIR, routeModules } from "./route-modules";

// Issue 10 asked for 50 cases a route; a route that reads nothing from the request (/healthz) has no
// more than 30 different ones to take, once its ignored query is no longer swept.
const MIN_CASES = 30;
/** The RazorpayX webhook secret of the run's app: the cases named RAZORPAYX_SIGNED_EVENT are signed with it. */
const RAZORPAYX_SECRET = "bad-input-razorpayx-webhook-secret";
/** Tremendous's webhook private key of the run's app: the cases named TREMENDOUS_SIGNED_EVENT are signed with it. */
const TREMENDOUS_KEY = "bad-input-tremendous-private-key";
const MIN_CASES_SENT = 20;

const TEXT_ROUTES = new Set(["api.$provider.postback.ts", "api.events.ts"]);
const JSON_ROUTES = (module: string) => module.startsWith("api.") || module === "healthz.ts";

function describeAnswer(answer: Answer) {
  if ("redirect" in answer) return `302 to ${answer.redirect}${answer.flash ? ` saying "${answer.flash}"` : ""}`;
  if ("message" in answer) return `${answer.status} "${answer.message}"`;
  return `${answer.status} ${"json" in answer ? JSON.stringify(answer.json) : answer.contentType}`;
}

/**
 * The bad-input suite over `cases` (one route group's: tests/http/bad-input-{pages,console,api}.test.ts),
 * against an app of its own with an offer provider, postbacks and PayPal configured (local stand-ins),
 * so that every route gets past its configuration to the input.
 */
export function describeBadInput(group: string, CASES: Case[]) {
  describe(`bad input, everywhere (${group}): malformed requests to every route with an action and every resource route`, () => {
    let app: PostgresApp;
    let paypal: PayPalStandIn;
    let provider: Awaited<ReturnType<typeof startOfferProvider>>;
    let settingsVersion = "";
    const cookies = new Map<Who, Map<string, string>>([
      ["newcomer", new Map()],
      ["provider", new Map()],
      ["visitor", new Map([["hasSeenOnboarding", "true"]])],
      [
        "forged",
        new Map([
          ["hasSeenOnboarding", "true"],
          ["__session", "forged.session.cookie"],
        ]),
      ],
    ]);

    /** A signed-in account with $20.00, its email verified unless told otherwise: its cookies. */
    // newMember fails the test unless the sign-up redirects (302).
    async function account(verified = true) {
      const { client, uid } = await newMember(app);
      if (verified) await app.sql("select record_email_verified($1)", [uid]);
      await app.sql("select add_user_coins($1, 2000)", [uid]);
      return new Map(client.cookies);
    }

    beforeAll(async () => {
      [paypal, provider] = await Promise.all([startPayPalStandIn(), startOfferProvider()]);
      app = await startPostgresApp({
        OFFER_PROVIDER: "acme",
        OFFER_PROVIDER_API_URL: provider.url,
        OFFER_POSTBACK_SECRET: SECRET,
        // Only the cases' own limits count here: several hundred sign-ins come in a few seconds.
        AUTH_GLOBAL_LIMIT_PER_MINUTE: "100000",
        // A wall turned on, so its console page offers the test postback form (no case sends one).
        WALL_BITLABS_ENABLED: "true",
        WALL_BITLABS_APP_TOKEN: "bad-input-bitlabs-token",
        WALL_BITLABS_APP_SECRET: "bad-input-bitlabs-secret",
        ...paypal.env,
        // RazorpayX's webhook believes deliveries signed with this secret (its payouts never run here).
        RAZORPAYX_KEY_ID: "rzp_test_bad_input",
        RAZORPAYX_KEY_SECRET: "bad-input-key-secret",
        RAZORPAYX_ACCOUNT_NUMBER: "7878780080316316",
        RAZORPAYX_WEBHOOK_SECRET: RAZORPAYX_SECRET,
        RAZORPAYX_API_URL: "http://127.0.0.1:9",
        RAZORPAYX_INTERVAL_SECONDS: "3600",
        // Tremendous's webhook believes deliveries signed with this key (its orders never run here).
        TREMENDOUS_API_KEY: "TEST_bad-input-tremendous-key",
        TREMENDOUS_API_URL: "http://127.0.0.1:9",
        TREMENDOUS_WEBHOOK_PRIVATE_KEY: TREMENDOUS_KEY,
        TREMENDOUS_INTERVAL_SECONDS: "3600",
        TREMENDOUS_CATALOGUE_MINUTES: "10080",
      });
      cookies.set("member", await account());
      const [settings] = await app.sql<{ version: string }>(
        "select md5(to_jsonb(c)::text) as version from app_config c",
      );
      settingsVersion = settings!.version;
      cookies.set("unverified", await account(false));
      const owner = await newOperator(app, "owner");
      cookies.set("operator", new Map(owner.client.cookies));
      cookies.set("owner", new Map(owner.client.cookies));
      // The console's withdrawal cases act on one already paid, which nothing can change.
      await app.sql(
        `insert into withdrawals (id, user_id, amount, payment_method, recipient_upi, status, settled_at, review_state)
       values ($1, $2, 1, 'upi', 'paid@okaxis', 'completed', now(), 'approved')`,
        [PAID_WITHDRAWAL, owner.uid],
      );
      const ownAccounts = (who: Who) => who.startsWith("leaver") || who.startsWith("deleter");
      for (const who of new Set(CASES.map((c) => c.who).filter(ownAccounts))) {
        cookies.set(who, await account());
      }
    }, 180_000);

    afterAll(async () => {
      await app?.stop();
      await paypal?.close();
      await provider?.close();
    });

    /** Sends a case's request with its cookies and a same-origin browser's headers. */
    function send(c: Case, extraCookies = new Map<string, string>()) {
      const fresh = (pairs: [string, string][]) =>
        pairs.map(([name, value]): [string, string] => [
          name,
          value === FRESH_EMAIL ? uniqueEmail("bad-input") : value === SETTINGS_VERSION ? settingsVersion : value,
        ]);
      const { body, type } = encodeBody(c.body && "form" in c.body ? { form: fresh(c.body.form) } : c.body);
      const jar = new Map([...cookies.get(c.who)!, ...extraCookies]);
      const cookie = [cookieHeader(jar), c.headers?.cookie].filter(Boolean).join("; ");
      const signedByPayPal =
        c.what.startsWith(SIGNED_EVENT) && c.body && "json" in c.body ? paypal.signedHeaders(c.body.json) : {};
      // RazorpayX signs the exact bytes sent.
      const signedByRazorpayX: Record<string, string> =
        c.what.startsWith(RAZORPAYX_SIGNED_EVENT) && typeof body === "string"
          ? { "x-razorpay-signature": createHmac("sha256", RAZORPAYX_SECRET).update(body).digest("hex") }
          : {};
      const signedByTremendous: Record<string, string> =
        c.what.startsWith(TREMENDOUS_SIGNED_EVENT) && typeof body === "string"
          ? {
              "tremendous-webhook-signature": `sha256=${createHmac("sha256", TREMENDOUS_KEY).update(body).digest("hex")}`,
            }
          : {};
      return fetch(new URL(c.path, app.url), {
        method: c.method,
        headers: {
          origin: new URL(app.url).origin,
          "sec-fetch-site": "same-origin",
          ...(type ? { "content-type": type } : {}),
          ...signedByPayPal,
          ...signedByRazorpayX,
          ...signedByTremendous,
          ...c.headers,
          // A case's own Cookie header comes after the session's.
          ...(cookie ? { cookie } : {}),
        },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(20_000),
      });
    }

    async function check(c: Case, expect: ExpectStatic) {
      const response = await send(c);
      expect(response.status, "never a 5xx").toBeLessThan(500);
      const { answer } = c;
      const streaming = "contentType" in answer && answer.contentType === "text/event-stream";
      if (streaming) await response.body?.cancel();
      const body = streaming ? "" : await response.text();
      expect(body.includes(MARKUP), "markup never comes back unescaped").toBe(false);
      if ("redirect" in answer) {
        expect(response.status).toBe(302);
        expect(response.headers.get("location")).toBe(answer.redirect);
        if (!answer.flash) return;
        const next = await send({ ...c, method: "GET", path: answer.redirect, body: undefined }, setCookies(response));
        expect(visibleText(await next.text()), "the next page says so").toContain(answer.flash);
        return;
      }
      expect(response.status, body.slice(0, 300)).toBe(answer.status);
      if ("contentType" in answer) {
        expect(response.headers.get("content-type")).toContain(answer.contentType);
        if (answer.contains) expect(body).toContain(answer.contains);
      } else if ("json" in answer) {
        expect(JSON.parse(body)).toMatchObject(answer.json);
      } else if (TEXT_ROUTES.has(c.module)) {
        expect(body).toBe(answer.message);
      } else if (JSON_ROUTES(c.module)) {
        expect(JSON.parse(body)).toEqual({ success: false, error: answer.message });
      } else {
        expect(visibleText(body), "the message is on the page a person sees").toContain(answer.message);
      }
    }

    for (const module of new Set(CASES.map((c) => c.module))) {
      describe(module, () => {
        let before: Awaited<ReturnType<typeof ledgerAudit>>;
        beforeAll(async () => {
          before = await ledgerAudit(app.sql);
          expect(before.problems).toEqual([]);
        });

        describe.concurrent("each answer: no 5xx, the route's message, no markup echoed", () => {
          for (const c of CASES.filter((candidate) => candidate.module === module)) {
            const name = `${c.method} ${c.path.slice(0, 60)} (${c.who}): ${c.what} → ${describeAnswer(c.answer)}`;
            it(name, ({ expect: localExpect }) => check(c, localExpect));
          }
        });

        it("leaves the ledger audit unchanged: every balance equals its ledger, none negative, nothing written", async () => {
          const after = await ledgerAudit(app.sql);
          expect(after.problems).toEqual([]);
          expect(after.fingerprint).toEqual(before.fingerprint);
        });
      });
    }
  });
}

/**
 * Every route module that has an action, and every resource route, has cases in `all` (sent over
 * HTTP, and those checked against its schema): a new route joins the suite or fails it.
 */
export function describeCaseCoverage(all: Case[], bySchema: Case[]) {
  describe("bad input, everywhere: the cases", () => {
    it(`has at least ${MIN_CASES} cases (sent, or checked against the route's schema) for every route module that has an action and every resource route, and at least ${MIN_CASES_SENT} of them sent over HTTP`, () => {
      const required = routeModules().filter((file) => {
        const source = readFileSync(path.join(ROUTES_DIR, file), "utf8");
        const hasAction = /export (async )?function action\b|export const action\b|export \{[^}]*\baction\b/.test(
          source,
        );
        return hasAction || !/export default\b/.test(source);
      });
      const count = (cases: Case[], file: string) => cases.filter((c) => c.module === file).length;
      const counts = Object.fromEntries(
        required.map((file) => [file, { sent: count(all, file), bySchema: count(bySchema, file) }]),
      );
      expect(
        Object.entries(counts).filter(([, { sent, bySchema }]) => sent + bySchema < MIN_CASES || sent < MIN_CASES_SENT),
        `cases per route: ${JSON.stringify(counts)}`,
      ).toEqual([]);
    });
  });
}
