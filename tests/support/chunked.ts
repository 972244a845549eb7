import http from "node:http";

/**
 * Posts up to `size` bytes of form data with no Content-Length (chunked), as a streaming client
 * would, 16 KB at a time with a short pause between chunks, and stops sending as soon as the
 * server answers. The pause lets an answer be read before the next write: a server that answers
 * early closes the connection, and a write after that fails (EPIPE) and loses the answer.
 * Resolves with the answer, how many bytes had been sent by then, and how long it took.
 */
export function postChunked(url: URL | string, size: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; sentBytes: number; ms: number }>((resolve, reject) => {
    const started = Date.now();
    let answered = false;
    let sent = 0;
    const request = http.request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked", ...headers },
    });
    request.on("response", (response) => {
      answered = true;
      const sentBytes = sent;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, body, sentBytes, ms: Date.now() - started });
        request.destroy();
      });
    });
    request.on("error", (error) => {
      if (!answered) reject(new Error(`the connection failed before an answer, after ${sent} bytes: ${error.message}`));
    });
    const chunk = "x".repeat(16 * 1024);
    const writeNext = () => {
      if (answered) return;
      if (sent >= size) return void request.end();
      sent += chunk.length;
      const next = () => setTimeout(writeNext, 2);
      if (request.write(chunk)) next();
      else request.once("drain", next);
    };
    writeNext();
  });
}
