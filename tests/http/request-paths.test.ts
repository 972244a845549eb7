import { describe, expect, it } from "vitest";
import { MAX_PATH_LENGTH, MAX_PATH_SEGMENTS } from "~/server/http/incoming.server";
import { appUrl, signedInClient } from "../support/http";

// A path of 8,100 segments held the event loop about 3.5 s in Remix's route discovery (its cost
// grows with the square of the segment count), and every other request waited behind it.
const LONG_PATH = "/a" + "/b".repeat(8_100);

const send = (path: string) => fetch(new URL(path, appUrl()), { redirect: "manual" });

// No timer: the answer itself shows where the request stopped. Remix answers a path it routes with
// its HTML 404 page; the guard (app/server/http/incoming.server.ts) answers 414 in plain text, so a
// 414 is a request Remix never saw, and its route discovery never ran.
describe("paths too long to route are refused before Remix sees them", () => {
  it("a path of 8,100 segments is answered 414 in plain text by the path guard, not routed", async () => {
    const response = await send(LONG_PATH);
    expect(response.status).toBe(414);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(await response.text()).not.toContain("<html");
  });

  it("/healthz sent while eight such requests are under way answers 200, and each of the eight is the guard's 414", async () => {
    const long = Array.from({ length: 8 }, () => send(LONG_PATH));
    // The long requests are on their way first; the health check comes right behind them.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const health = await send("/healthz");
    const answers = await Promise.all(long);
    expect(answers.map((response) => response.status)).toEqual(Array(8).fill(414));
    expect(answers.map((response) => response.headers.get("content-type"))).toEqual(
      Array(8).fill(expect.stringContaining("text/plain")),
    );
    expect(health.status).toBe(200);
  });

  it(`a path of ${MAX_PATH_SEGMENTS} segments is routed (the 404 page); one more segment is 414`, async () => {
    const within = "/x".repeat(MAX_PATH_SEGMENTS);
    const response = await fetch(new URL(within, appUrl()));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("<html");
    expect((await fetch(new URL(within + "/x", appUrl()))).status).toBe(414);
  });

  it(`a path of ${MAX_PATH_LENGTH} characters is routed; one character more is 414, and the query string does not count`, async () => {
    const within = "/" + "x".repeat(MAX_PATH_LENGTH - 1);
    expect((await fetch(new URL(within, appUrl()))).status).toBe(404);
    expect((await fetch(new URL(within + "x", appUrl()))).status).toBe(414);
    expect((await fetch(new URL("/legal?" + "q=x&".repeat(1_000), appUrl()))).status).toBe(200);
  });

  it("a run of 8,000 slashes is refused at once, signed in or not", async () => {
    const { client } = await signedInClient();
    const response = await client.get("/auth" + "/".repeat(8_000));
    expect(response.status).toBe(414);
  });
});

describe("X-Content-Type-Options: nosniff on every response", () => {
  it.each([
    ["a page", "/legal"],
    ["JSON (/healthz)", "/healthz"],
    ["JSON from an API route", "/api/referral-codes/ABCDEFG"],
    ["a static file", "/manifest.webmanifest"],
    ["a public file", "/favicon.svg"],
    ["the service worker", "/service-worker.js"],
    ["the 404 page", "/no-such-page"],
    ["the 414 answer", LONG_PATH],
  ])("%s", async (_, path) => {
    const response = await fetch(new URL(path, appUrl()), { redirect: "manual" });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("a script from /build/", async () => {
    const page = await (await fetch(new URL("/legal", appUrl()))).text();
    const script = page.match(/"(\/build\/[^"]+\.js)"/)?.[1];
    expect(script).toBeTruthy();
    const response = await fetch(new URL(script!, appUrl()));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
