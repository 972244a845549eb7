import http from "node:http";

/**
 * Posts up to `size` bytes of form data with no Content-Length (chunked), as a streaming client
 * would, and stops sending as soon as the server answers. Resolves with the answer, how many bytes
 * had been handed to the socket by then, and how long the answer took.
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
    // The server may answer and close before the whole body is written.
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const chunk = "x".repeat(16 * 1024);
    const writeMore = () => {
      while (sent < size && !answered) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", writeMore);
      }
      if (!answered) request.end();
    };
    writeMore();
  });
}
