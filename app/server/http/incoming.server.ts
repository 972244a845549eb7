import { Server, type IncomingMessage, type ServerResponse } from "node:http";

// No page of the app has a path near these; real ones are under 100 bytes and 5 segments.
export const MAX_PATH_LENGTH = 2048;
export const MAX_PATH_SEGMENTS = 64;

/**
 * Whether a request target's path (before `?` or `#`) is longer than MAX_PATH_LENGTH characters or
 * has more than MAX_PATH_SEGMENTS segments. One pass, whatever the target holds.
 */
export function isPathTooLong(target: string): boolean {
  let segments = 0;
  for (let index = 0; index < target.length; index++) {
    const code = target.charCodeAt(index);
    if (code === 0x3f || code === 0x23) return false; // "?", "#": the path has ended
    if (index >= MAX_PATH_LENGTH) return true;
    if (code === 0x2f && ++segments > MAX_PATH_SEGMENTS) return true; // "/"
  }
  return false;
}

/** Adds the header as the answer starts, unless the app set it already (documents do, with their other headers). */
function withNosniff(response: ServerResponse) {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (!this.hasHeader("X-Content-Type-Options")) this.setHeader("X-Content-Type-Options", "nosniff");
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

function refuseLongPath(response: ServerResponse) {
  response.writeHead(414, {
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
  });
  response.end("This address is too long.\n");
}

/**
 * What every request meets before Express and Remix see it:
 *
 * - `X-Content-Type-Options: nosniff` on every response, the static files, JSON and plain-text
 *   answers included (documents also get it with the rest of their headers).
 * - A path over MAX_PATH_LENGTH or MAX_PATH_SEGMENTS is answered 414 at once. Remix's route
 *   discovery matches one partial manifest per segment, in time that grows with the square of the
 *   segment count (8,100 segments held the event loop 3.5 s, and every other request with it).
 *
 * remix-serve (the design's server) makes the HTTP server itself and offers no hook before its
 * Express app, so the one `request` event of Node's HTTP servers is intercepted here, once per
 * process, when the server module loads (before remix-serve starts listening).
 */
export function guardIncomingRequests(): void {
  const store = globalThis as typeof globalThis & { __incomingRequestGuard?: boolean };
  if (store.__incomingRequestGuard) return;
  store.__incomingRequestGuard = true;
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const [request, response] = args as [IncomingMessage, ServerResponse];
      withNosniff(response);
      if (isPathTooLong(request.url ?? "")) {
        refuseLongPath(response);
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  };
}
