import { describe, expect, it } from "vitest";
import { BODY_TOO_LARGE_MESSAGE, MAX_BODY_BYTES } from "~/server/http/body.server";
import { postChunked } from "../support/chunked";
import { appUrl, html, signedInClient } from "../support/http";

describe("request bodies are capped at 64 KB", () => {
  it("a form post whose Content-Length is over the cap gets a 413 page with a readable message", async () => {
    const { client } = await signedInClient();
    const response = await client.post("/?index", { intent: "checkin", padding: "x".repeat(MAX_BODY_BYTES) });
    expect(response.status).toBe(413);
    // The rest of the body is unread, so the server closes the connection.
    expect(response.headers.get("connection")).toBe("close");
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain(html(BODY_TOO_LARGE_MESSAGE));
  });

  it("a chunked form post without Content-Length is refused with 413 once it passes the cap", async () => {
    const result = await postChunked(new URL("/auth", appUrl()), 20 * 1024 * 1024);
    expect(result.status).toBe(413);
    // Answered long before the end: what was sent by then is what socket buffers hold.
    expect(result.sentBytes).toBeLessThan(10 * 1024 * 1024);
    expect(result.body).toContain(html(BODY_TOO_LARGE_MESSAGE));
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
