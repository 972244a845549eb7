import net from "node:net";

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
 * Streams up to `size` bytes of form data without Content-Length (chunked), over a plain socket
 * so the answer is seen the moment it comes (Node's HTTP client holds a response back while it is
 * still uploading); like curl, it stops sending once the server has answered. Resolves with the
 * answer and how many bytes had been sent by then.
 */
export function postChunked(url: URL | string, size: number, headers: Record<string, string> = {}) {
  const target = new URL(url);
  return new Promise<{ status: number; body: string; sentBytes: number }>((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname);
    let received = "";
    let sent = 0;
    let sentBytes = -1;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      const headerEnd = received.indexOf("\r\n\r\n");
      const head = received.slice(0, headerEnd);
      const rawBody = received.slice(headerEnd + 4);
      socket.destroy();
      resolve({
        status: Number(head.split(" ")[1]),
        body: Buffer.from(/transfer-encoding: chunked/i.test(head) ? unchunk(rawBody) : rawBody, "latin1").toString(),
        sentBytes,
      });
    };
    // Byte for byte: chunk sizes count bytes, and pages have non-ASCII characters.
    socket.setEncoding("latin1");
    socket.on("data", (data: string) => {
      if (sentBytes < 0) sentBytes = sent;
      received += data;
      const headerEnd = received.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const head = received.slice(0, headerEnd);
      const length = /content-length: (\d+)/i.exec(head)?.[1];
      const body = received.slice(headerEnd + 4);
      if (length !== undefined ? body.length >= Number(length) : `\r\n${body}`.includes("\r\n0\r\n\r\n")) finish();
    });
    socket.on("close", () => (received ? finish() : reject(new Error(`closed without an answer after ${sent} bytes`))));
    socket.on("error", (error) => {
      // A reset after the answer is the server dropping the rest of the body.
      if (!received) reject(error);
    });
    const extra = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(
      `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n${extra}\r\n`,
    );
    const chunk = `4000\r\n${"x".repeat(0x4000)}\r\n`;
    const writeMore = () => {
      while (sent < size && sentBytes < 0) {
        sent += 0x4000;
        if (!socket.write(chunk)) return void socket.once("drain", writeMore);
      }
      if (sentBytes < 0) socket.write("0\r\n\r\n");
    };
    writeMore();
  });
}
