import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The skeleton of the local stand-ins for outside services (paypal.ts, fcm.ts, offer-provider.ts,
 * smtp.ts, and the PostgREST of tests/integration/supabase-transport.test.ts): a server on a free
 * loopback port that can stop and listen again on the same port, every request recorded, failures
 * a test scripts ahead, and a stop that ends open connections too. Each stand-in adds its protocol.
 */

/** What listens like net.Server does: http.Server, smtp-server's SMTPServer. */
interface Listener {
  listen(port: number, host: string, callback: () => void): unknown;
  once(event: "error", listener: (error: Error) => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
  close(callback: () => void): unknown;
}

/**
 * A server made by `create`, listening on 127.0.0.1: on a free port at first, on the same port after
 * `stop()` and `start()` (connections are refused in between). `beforeClose` ends what `close` would
 * wait for (open connections).
 */
export async function listenOnLoopback<S extends Listener>(
  create: () => S,
  { address, beforeClose }: { address: (server: S) => AddressInfo; beforeClose?: (server: S) => void },
) {
  let server: S | null = null;
  let port = 0;
  async function start() {
    const next = create();
    await new Promise<void>((resolve, reject) => {
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => {
        next.off("error", reject);
        resolve();
      });
    });
    port = address(next).port;
    server = next;
  }
  async function stop() {
    const current = server;
    server = null;
    if (!current) return;
    beforeClose?.(current);
    await new Promise<void>((resolve) => current.close(() => resolve()));
  }
  await start();
  return { port, start, stop };
}

/** One request a stand-in received, its body as text, and how it was answered (0 while it is not). */
export interface RecordedRequest {
  method: string;
  /** The path without its query. */
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number | "dropped";
}

/** A request read whole and recorded, and the ways to answer it; a handler that does neither leaves it hanging. */
export interface Exchange {
  request: RecordedRequest;
  incoming: http.IncomingMessage;
  /** Answers `status` with `body` as JSON (content-type application/json unless `headers` say otherwise). */
  json(status: number, body: unknown, headers?: Record<string, string>): void;
  /** Answers `status` with `body` as it is (JSON that does not parse, say). */
  text(status: number, body: string, headers?: Record<string, string>): void;
  /** Drops the connection without an answer. */
  drop(): void;
}

/** An HTTP stand-in: every request is read whole and recorded in `requests`, then `handle` answers it. */
export async function startHttpStandIn(handle: (exchange: Exchange) => void) {
  const requests: RecordedRequest[] = [];
  const listener = await listenOnLoopback(
    () =>
      http.createServer((incoming, response) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("end", () => {
          const request: RecordedRequest = {
            method: incoming.method ?? "",
            path: new URL(incoming.url ?? "/", "http://stand-in.local").pathname,
            headers: incoming.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            status: 0,
          };
          requests.push(request);
          const text = (status: number, body: string, headers?: Record<string, string>) => {
            request.status = status;
            response.writeHead(status, { "content-type": "application/json", ...headers });
            response.end(body);
          };
          handle({
            request,
            incoming,
            json: (status, body, headers) => text(status, JSON.stringify(body), headers),
            text,
            drop() {
              request.status = "dropped";
              incoming.socket.destroy();
            },
          });
        });
      }),
    { address: (server) => server.address() as AddressInfo, beforeClose: (server) => server.closeAllConnections() },
  );
  return { url: `http://127.0.0.1:${listener.port}`, requests, close: listener.stop };
}

/** Failures a test scripts ahead: the next `count` requests (to paths matching `path`, if given) fail as `failure` says. */
export function scriptedFailures<F>() {
  const queue: { failure: F; path: RegExp | null }[] = [];
  return {
    failNext(count: number, failure: F, path?: RegExp) {
      for (let i = 0; i < count; i++) queue.push({ failure, path: path ?? null });
    },
    /** Forgets the scripted failures that have not happened. */
    clearFailures() {
      queue.length = 0;
    },
    /** The failure scripted for a request to `path`, taken off the script, or null. */
    take(path: string): F | null {
      const index = queue.findIndex((entry) => !entry.path || entry.path.test(path));
      return index === -1 ? null : queue.splice(index, 1)[0]!.failure;
    },
  };
}
