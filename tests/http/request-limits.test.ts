import net from "node:net";
import { describe, expect, it } from "vitest";
import { BODY_TOO_LARGE_MESSAGE, MAX_BODY_BYTES } from "~/server/http/body.server";
import { postChunked } from "../support/chunked";
import { appUrl, html, signedInClient } from "../support/http";

describe("request bodies are capped at 64 KB", () => {
  it("a form post whose Content-Length is over the cap gets a 413 page with a readable message", async () => {
    const { client } = await signedInClient();
    const response = await client.post("/?index", { intent: "checkin", padding: "x".repeat(MAX_BODY_BYTES) });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain(html(BODY_TOO_LARGE_MESSAGE));
  });

  it("a chunked form post without Content-Length is refused with 413 once it passes the cap", async () => {
    const result = await postChunked(new URL("/auth", appUrl()), 40 * 1024 * 1024);
    expect(result.status).toBe(413);
    // Answered long before the end. By then the client may have sent the 64 KB read, what the
    // server drops while lingering (up to 8 MB) and what both sockets buffer (a few MB on
    // loopback): well under the 40 MB a server reading the whole body would have taken.
    expect(result.sentBytes).toBeLessThan(24 * 1024 * 1024);
    expect(result.body).toContain(html(BODY_TOO_LARGE_MESSAGE));
  });

  it("after a 413 the server reads and drops the rest of the body, so the answer is not lost to a reset and the connection serves the next request", async () => {
    const url = new URL(appUrl());
    const body = "x".repeat(1024 * 1024);
    // The oversized post and a second request right behind it, on one connection, sent at once.
    const received = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname);
      let text = "";
      socket.setEncoding("latin1");
      socket.on("data", (data: string) => {
        text += data;
        if (text.includes("HTTP/1.1 200")) socket.end();
      });
      socket.on("close", () => resolve(text));
      socket.on("error", (error) => (text ? resolve(text) : reject(error)));
      socket.setTimeout(10_000, () => socket.destroy());
      socket.write(
        `POST /auth HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${url.origin}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
          `GET /healthz HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`,
      );
    });
    const statuses = [...received.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => Number(match[1]));
    expect(statuses).toEqual([413, 200]);
  });

  it("a signed-out post of 20 MB to a page is sent to /auth before its body is read", async () => {
    const result = await postChunked(new URL("/withdraw", appUrl()), 20 * 1024 * 1024);
    expect(result.status).toBe(302);
    // The answer came while most of the body was still unsent (socket buffers hold a few MB).
    expect(result.sentBytes).toBeLessThan(10 * 1024 * 1024);
  });

  it("a JSON call over the cap gets a 413 JSON answer", async () => {
    const { client } = await signedInClient();
    const response = await client.post(
      "/api/push-tokens",
      {},
      { "content-type": "application/json" },
      JSON.stringify({ token: "t".repeat(MAX_BODY_BYTES) }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ success: false, error: BODY_TOO_LARGE_MESSAGE });
  });

  it("a form just under the cap is still read", async () => {
    const { client } = await signedInClient();
    const response = await client.post("/?index", { intent: "checkin", padding: "x".repeat(MAX_BODY_BYTES - 1024) });
    expect(response.status).toBeLessThan(400);
  });
});
