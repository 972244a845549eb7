import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { answerEarly, guardIncomingRequests, type EarlyRequest } from "~/server/http/incoming.server";
import { textAnswer } from "~/server/http/responses.server";
import { postbackRoute } from "~/server/walls/postback-route.server";

// A real HTTP server whose own handler stands for Express and Remix: whatever it answers, the
// early route did not.
let server: Server;
let base: string;
const seenByTheApp: string[] = [];
let slowRequest: EarlyRequest | null = null;

beforeAll(async () => {
  guardIncomingRequests();
  answerEarly("test-early", (path) => {
    if (path === "/early/echo")
      return async (request) =>
        new Response(
          JSON.stringify({
            url: request.url,
            method: request.method,
            header: request.headers.get("x-test"),
            body: request.body ? await new Response(request.body).text() : null,
          }),
          { status: 201, headers: { "Content-Type": "application/json" } },
        );
    if (path === "/early/cookies")
      return async () => {
        const headers = new Headers();
        headers.append("Set-Cookie", "a=1; Path=/");
        headers.append("Set-Cookie", "b=2; Path=/");
        return new Response("two", { headers });
      };
    if (path === "/early/text") return async () => textAnswer(202, "taken", { "Retry-After": "3" });
    if (path === "/early/throws") return async () => Promise.reject(new Error("secret detail at /srv/app.js:1"));
    if (path === "/early/throws-response") return async () => Promise.reject(new Response("Gone", { status: 410 }));
    if (path === "/early/slow")
      return (request) => {
        slowRequest = request;
        return new Promise(() => {});
      };
    return null;
  });
  server = createServer((request, response) => {
    seenByTheApp.push(request.url ?? "");
    response.end("the app");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("routes answered before Express and Remix (answerEarly)", () => {
  it("answers a claimed path itself, with the request's URL, method, headers and query, and the app never sees it", async () => {
    const response = await fetch(`${base}/early/echo?a=1&b=%20x`, { headers: { "X-Test": "yes" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.json()).toEqual({
      url: `${base}/early/echo?a=1&b=%20x`,
      method: "GET",
      header: "yes",
      body: null,
    });
    expect(seenByTheApp).not.toContain("/early/echo?a=1&b=%20x");
  });

  it("hands a POST's body to the route as a stream", async () => {
    const response = await fetch(`${base}/early/echo`, { method: "POST", body: "amount=5&tx=abc" });
    expect(await response.json()).toMatchObject({ method: "POST", body: "amount=5&tx=abc" });
  });

  it("leaves every path it does not claim to the app (a trailing slash, a longer path)", async () => {
    for (const path of ["/early/echo/", "/early/echo/more", "/elsewhere"]) {
      const response = await fetch(`${base}${path}`);
      expect(await response.text()).toBe("the app");
      expect(seenByTheApp).toContain(path);
    }
  });

  it("sends every Set-Cookie header the route sets, and the body with its length", async () => {
    const response = await fetch(`${base}/early/cookies`);
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(response.headers.get("content-length")).toBe("3");
    expect(await response.text()).toBe("two");
  });

  it("writes a plain-text answer given as data as it is: status, headers, body and its length", async () => {
    const response = await fetch(`${base}/early/text`);
    expect(response.status).toBe(202);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("retry-after")).toBe("3");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-length")).toBe("5");
    expect(await response.text()).toBe("taken");
  });

  it("hands the route a method a Fetch Request refuses (TRACE) instead of failing outside any handler", async () => {
    const rejected = vi.fn();
    process.on("unhandledRejection", rejected);
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const sent = httpRequest(`${base}/early/echo`, { method: "TRACE" }, (response) => {
          let body = "";
          response.on("data", (chunk: Buffer) => (body += chunk.toString()));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        });
        sent.on("error", reject);
        sent.end();
      });
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body)).toMatchObject({ method: "TRACE" });
      expect(rejected).not.toHaveBeenCalled();
    } finally {
      process.off("unhandledRejection", rejected);
    }
  });

  it("answers a thrown error 500 Unexpected Server Error with no detail of it, and logs it on the server", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const response = await fetch(`${base}/early/throws?secret=1`);
      expect(response.status).toBe(500);
      expect(await response.text()).toBe("Unexpected Server Error");
      expect(logged).toHaveBeenCalledWith("GET /early/throws:", expect.any(Error));
    } finally {
      logged.mockRestore();
    }
  });

  it("sends a thrown Response as it is, as Remix does for a resource route", async () => {
    const response = await fetch(`${base}/early/throws-response`);
    expect(response.status).toBe(410);
    expect(await response.text()).toBe("Gone");
  });

  it("aborts the route's request signal when the client goes away before the answer", async () => {
    const sent = httpRequest(`${base}/early/slow`);
    sent.on("error", () => {});
    sent.end();
    await vi.waitFor(() => expect(slowRequest).not.toBeNull());
    expect(slowRequest!.signal.aborted).toBe(false);
    sent.destroy();
    await vi.waitFor(() => expect(slowRequest!.signal.aborted).toBe(true));
  });
});

describe("postbackRoute", () => {
  it("claims /api/{name}/postback for every name a provider or wall can have", () => {
    for (const path of ["/api/bitlabs/postback", "/api/acme-offers/postback", "/api/ab/postback"]) {
      expect(postbackRoute(path), path).toBeTypeOf("function");
    }
  });

  it("leaves other paths and other spellings to Remix's route", () => {
    for (const path of [
      "/api/bitlabs/postback/",
      "/api/BitLabs/postback",
      "/api/bitlabs/offers",
      "/api/bitlabs/complete",
      "/api/a/postback",
      "/api//postback",
      "/api/bit%6Cabs/postback",
      "/x/api/bitlabs/postback",
    ]) {
      expect(postbackRoute(path), path).toBeNull();
    }
  });
});
