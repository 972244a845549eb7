import { describe, expect, it } from "vitest";
import { LEGAL_DOCUMENTS } from "~/content/legal";
import { ONBOARDING_SLIDES } from "~/content/onboarding";
import { UNREADABLE_FORM_MESSAGE } from "~/server/http/forms.server";
import { HttpClient, html } from "../support/http";

describe("pages that need no data, over plain HTTP", () => {
  it("shows onboarding to a first-time visitor, one slide per ?slide=", async () => {
    const client = new HttpClient();
    for (const [index, slide] of ONBOARDING_SLIDES.entries()) {
      const body = await (await client.get(`/?slide=${index}`)).text();
      expect(body).toContain(html(slide.title));
      expect(body).toContain(html(slide.description));
      expect(body).toContain(`Slide ${index + 1} of 3`);
      expect(body).toContain(index < 2 ? ">Next" : ">Get Started<");
      expect(body).toContain(">Skip<");
      // No bottom bar on onboarding.
      expect(body).not.toContain('aria-label="Main"');
    }
  });

  it("completes onboarding with a cookie and goes to /auth", async () => {
    const client = new HttpClient();
    const response = await client.post("/?index", { intent: "complete-onboarding" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth");
    expect(response.headers.getSetCookie().join()).toMatch(
      /hasSeenOnboarding=true; Path=\/; Max-Age=\d+; SameSite=Lax/,
    );
    // Now / no longer shows onboarding: a signed-out visitor is sent to sign in.
    const home = await client.get("/");
    expect(home.status).toBe(302);
    expect(home.headers.get("location")).toBe("/auth");
  });

  // The first paint waits for none of the app's scripts (app/server/http/document-stream.server.ts,
  // docs/decisions/101); tests/e2e/first-paint.js-only.spec.ts watches a browser do it.
  it("sends the page's script preloads inert and its module script of a type that does not run, with a starter for after the first paint", async () => {
    const client = new HttpClient();
    for (const path of ["/auth", "/legal"]) {
      const body = await (await client.get(path)).text();
      expect(body, path).not.toContain('<link rel="modulepreload"');
      expect(
        (body.match(/<link rel="x-modulepreload" href="\/build\/[^"]+\.js"\/>/g) ?? []).length,
        path,
      ).toBeGreaterThan(3);
      expect(body, path).not.toMatch(/<script[^>]* type="module"/);
      expect(body.match(/<script nonce="[^"]+" type="x-module-after-paint">/g), path).toHaveLength(1);
      expect(body, path).toMatch(/requestAnimationFrame\(\(\)=>setTimeout\(go,0\)\)\}\)\(\);window\.__remixContext = /);
    }
  });

  it("renders the legal page with three tabs of five numbered sections and no bottom bar", async () => {
    for (const document of LEGAL_DOCUMENTS) {
      const body = await (await new HttpClient().get(`/legal?tab=${document.id}`)).text();
      expect(body).toContain(html(document.title));
      for (const [index, section] of document.sections.entries()) {
        expect(body).toContain(`${index + 1}<!-- -->. <!-- -->${html(section.title)}`);
      }
      expect(body).toContain('aria-current="page"');
      expect(body).not.toContain('aria-label="Main"');
    }
  });

  // /settings was the 404 page (the original's missing route) until docs/decisions/071 made it a page.
  it.each(["/no/such/page", "/earnings", "/settings/more"])("answers %s with the 404 page", async (path) => {
    const response = await new HttpClient().get(path);
    expect(response.status).toBe(404);
    const body = await response.text();
    expect(body).toContain("Oops! Page not found");
    expect(body).toContain("Return to Home");
  });

  it("reports health without naming the database transport to anonymous callers", async () => {
    const response = await new HttpClient().get("/healthz");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("never shows a stack trace: a malformed body gets a clean answer", async () => {
    const response = await fetch(new URL("/auth", new HttpClient().baseUrl), {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x" },
      body: "garbage",
    });
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(body).toContain(UNREADABLE_FORM_MESSAGE);
    expect(body).not.toMatch(/at .*\.js:\d+/);
    expect(body).not.toContain("node_modules");
  });
});
