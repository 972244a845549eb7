import net from "node:net";
import { describe, expect, it } from "vitest";
import { BODY_TOO_LARGE_MESSAGE, MAX_BODY_BYTES } from "~/server/http/body.server";
import { appUrl, html, signedInClient } from "../support/http";

/** A chunked HTTP/1.1 body as its plain bytes. */
function unchunk(raw: string): string {
  let body = "";
  let rest = raw;
  for (;;) {
    const lineEnd = rest.indexOf("\r\n");
    if (lineEnd < 0) return body;
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return body;
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

/**
 * Streams `size` bytes of form data without Content-Length (chunked), over a plain socket so the
 * answer is seen the moment it comes; like curl, it stops sending once the server has answered.
 * Says how much it had sent by then.
 */
function postChunked(path: string, size: number) {
  const url = new URL(path, appUrl());
  return new Promise<{ status: number; body: string; sentBeforeAnswer: number }>((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let received = "";
    let sent = 0;
    let sentBeforeAnswer = -1;
    const finish = () => {
      const headerEnd = received.indexOf("\r\n\r\n");
      const head = received.slice(0, headerEnd);
      const rawBody = received.slice(headerEnd + 4);
      socket.destroy();
      resolve({
        status: Number(head.split(" ")[1]),
        body: Buffer.from(/transfer-encoding: chunked/i.test(head) ? unchunk(rawBody) : rawBody, "latin1").toString(),
        sentBeforeAnswer,
      });
    };
    // Byte for byte: chunk sizes count bytes, and the page has non-ASCII characters.
    socket.setEncoding("latin1");
    socket.on("data", (data: string) => {
      if (sentBeforeAnswer < 0) sentBeforeAnswer = sent;
      received += data;
      const headerEnd = received.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const head = received.slice(0, headerEnd);
      const length = /content-length: (\d+)/i.exec(head)?.[1];
      const body = received.slice(headerEnd + 4);
      if (length !== undefined ? body.length >= Number(length) : `\r\n${body}`.includes("\r\n0\r\n\r\n")) finish();
    });
    socket.on("close", () => (received ? finish() : reject(new Error("closed without an answer"))));
    socket.on("error", (error) => {
      // A reset after the answer is the server dropping the rest of the body.
      if (!received) reject(error);
    });
    socket.write(
      `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = `4000\r\n${"x".repeat(0x4000)}\r\n`;
    const writeMore = () => {
      while (sent < size && sentBeforeAnswer < 0) {
        sent += 0x4000;
        if (!socket.write(chunk)) return void socket.once("drain", writeMore);
      }
      if (sentBeforeAnswer < 0) socket.write("0\r\n\r\n");
    };
    writeMore();
  });
}

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
    const result = await postChunked("/auth", 20 * 1024 * 1024);
    expect(result.status).toBe(413);
    // Answered long before the end: what was sent by then is what socket buffers hold.
    expect(result.sentBeforeAnswer).toBeLessThan(10 * 1024 * 1024);
    expect(result.body).toContain(html(BODY_TOO_LARGE_MESSAGE));
  });

  it("a signed-out post of 20 MB to a page is sent to /auth before its body is read", async () => {
    const result = await postChunked("/withdraw", 20 * 1024 * 1024);
    expect(result.status).toBe(302);
    // The answer came while most of the body was still unsent (socket buffers hold a few MB).
    expect(result.sentBeforeAnswer).toBeLessThan(10 * 1024 * 1024);
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
