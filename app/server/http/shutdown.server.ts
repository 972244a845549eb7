import { subscribe } from "node:diagnostics_channel";
import { Server, type ServerResponse } from "node:http";

/**
 * Graceful shutdown under remix-serve, which on SIGTERM/SIGINT calls `server.close()`. That stops
 * listening, but also destroys every connection idle in Node's eyes at that instant, including
 * keep-alive connections whose next request has arrived and not been read yet: under load most of
 * them, and their clients got a reset. And the database used to be closed at once, so the requests
 * under way met 503 (on Postgres, after waiting 5 s for a connection).
 *
 * Instead, on the signal: the listener closes (remix-serve), connections stay open and every
 * request already sent is answered, with `Connection: close`; once none is under way and none has
 * arrived for QUIET_MS (at most DRAIN_LIMIT_MS, inside Docker's 10 s before SIGKILL) `close` runs
 * (the database), the idle connections are closed and the process exits: 0, or 1 if closing failed.
 *
 * The requests are seen through Node's documented diagnostics channel, which also names the
 * server, since remix-serve offers no hook of its own.
 */
const DRAIN_LIMIT_MS = 8_000;
// Requests still on their way in (a busy client, a load balancer that has not noticed yet) are
// served too: the server closes once none has arrived for this long.
const QUIET_MS = 300;

const underWay = new Set<ServerResponse>();
const servers = new Set<Server>();
let shuttingDown = false;
let lastArrival = 0;

function track(message: unknown) {
  const { response, server } = message as { response: ServerResponse; server: Server };
  servers.add(server);
  underWay.add(response);
  lastArrival = Date.now();
  if (shuttingDown && !response.headersSent) response.setHeader("Connection", "close");
  response.once("close", () => underWay.delete(response));
}

const quiet = () => underWay.size === 0 && Date.now() - lastArrival >= QUIET_MS;

async function waitForRequests(): Promise<void> {
  const deadline = Date.now() + DRAIN_LIMIT_MS;
  for (;;) {
    if (quiet()) {
      // Timers run before the event loop reads its sockets: after a stall (a busy machine), the
      // requests received meanwhile are read in the poll phase that follows the timer that found
      // it quiet. setImmediate runs after that phase, so they have started by then (once, under
      // load, seven of them met a closed database and answered 503).
      await new Promise((resolve) => setImmediate(resolve));
      if (quiet()) return;
    }
    if (Date.now() >= deadline) {
      console.error(`shutdown: ${underWay.size} request(s) still under way after ${DRAIN_LIMIT_MS} ms`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * On SIGTERM or SIGINT: `beforeDrain` (end what never finishes by itself, like event streams), the
 * requests under way answered, then `close`. Registered when the server module loads, before
 * remix-serve registers its own handler, so this runs first.
 */
export function shutDownGracefully({ beforeDrain, close }: { beforeDrain: () => void; close: () => Promise<void> }) {
  // `remix dev` imports the server module again on every change: register once per process.
  const store = globalThis as typeof globalThis & { __gracefulShutdown?: boolean };
  if (store.__gracefulShutdown) return;
  store.__gracefulShutdown = true;
  subscribe("http.server.request.start", track);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      shuttingDown = true;
      // remix-serve's close() would destroy the idle connections, unread requests among them
      // (see above): they are closed below, once every request has been answered.
      for (const server of servers) server.closeIdleConnections = () => {};
      for (const response of underWay) if (!response.headersSent) response.setHeader("Connection", "close");
      beforeDrain();
      void waitForRequests()
        .then(close)
        .then(
          () => 0,
          (error: unknown) => (console.error("shutdown:", error), 1),
        )
        .then((code) => {
          for (const server of servers) Server.prototype.closeIdleConnections.call(server);
          // Nothing is left to do, but Remix leaves a 5 s timer behind every page it rendered
          // (single-fetch's streamTimeout, cleared only when a request aborts), which would hold
          // the process that long: exit once the last answers are out.
          setImmediate(() => process.exit(code));
        });
    });
  }
}
