import http, { type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
  method: string;
  /** The path without its query (the API key). */
  path: string;
}

/**
 * An HTTP relay in front of a service (the Auth emulator) that forwards every request as it is
 * and records its method and path, so a test can say which of the service's endpoints the app
 * called. `cut()` makes the service unreachable (connections refused) until `restore()`.
 */
export async function startRecordingProxy(target: { host: string; port: number }) {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let server: http.Server | null = null;

  function relay(incoming: IncomingMessage, outgoing: http.ServerResponse) {
    requests.push({ method: incoming.method ?? "GET", path: (incoming.url ?? "/").split("?")[0]! });
    const upstream = http.request(
      {
        host: target.host,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: `${target.host}:${target.port}` },
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    upstream.on("error", () => outgoing.destroy());
    incoming.pipe(upstream);
  }

  function listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const next = http.createServer(relay);
      next.on("connection", (socket) => {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
      });
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => {
        server = next;
        resolve((next.address() as AddressInfo).port);
      });
    });
  }

  async function cut() {
    const current = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  }

  const port = await listen(0);
  return {
    host: `127.0.0.1:${port}`,
    /** Everything recorded since the last `clear()`. */
    requests: () => [...requests],
    clear: () => void requests.splice(0),
    cut,
    restore: () => listen(port).then(() => undefined),
    close: cut,
  };
}
