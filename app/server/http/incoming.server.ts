import { Server, type IncomingMessage, type ServerResponse } from "node:http";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { SOCKET_ADDRESS_HEADER } from "./client-address.server";
import type { TextAnswer } from "./responses.server";

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

/**
 * The console's queries (a person searched by email, a filter) stay out of the access log: remix-serve's
 * logger (morgan "tiny") writes `req.originalUrl` once the answer is sent, so just before it does,
 * an /admin URL's query is replaced by `?[redacted]`. The request itself was routed with it whole.
 */
function redactConsoleQuery(request: IncomingMessage, response: ServerResponse) {
  const target = request.url ?? "";
  const query = target.indexOf("?");
  if (query === -1 || !/^\/admin(?:[/?.]|$)/.test(target)) return;
  const redacted = `${target.slice(0, query)}?[redacted]`;
  // Registered before Express's own listeners: it runs first.
  response.once("finish", () => {
    (request as IncomingMessage & { originalUrl?: string }).originalUrl = redacted;
    request.url = redacted;
  });
}

function refuseLongPath(response: ServerResponse) {
  response.writeHead(414, {
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
  });
  response.end("This address is too long.\n");
}

/**
 * A route answered before Express and Remix: for a request's path (before `?`), the function that
 * answers it, or null to leave the request to them. For machine-to-machine calls where their
 * per-request work (static-file lookup, access log, compression, Remix's routing and its Request)
 * costs more CPU than the answer itself.
 */
export type EarlyRoute = (path: string) => EarlyAnswerer | null;

/** What only the connection knows: its peer's address and the request target exactly as sent. */
export interface ReceivedAs {
  /** The socket's remote address (a proxy's, behind one). */
  socketAddress: string | null;
  /** The request target (path and query) byte for byte as received: no re-escaping by URL parsing. */
  target: string;
}

/**
 * What an early route reads of a request: what Remix's Express adapter puts in its Request (the same
 * URL, headers, body stream and abort signal), without building one. undici's Request, and the
 * Response read back into bytes, cost more CPU than a postback's own work in the app; the body
 * stream and the signal are made only when read.
 */
export interface EarlyRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
  readonly signal: AbortSignal;
}

type EarlyAnswerer = (request: EarlyRequest, received: ReceivedAs) => Promise<Response | TextAnswer>;

// Kept on globalThis, by name: `remix dev` loads each rebuild's server module again, and the
// request event's interceptor (installed once per process) must call the newest handlers.
function earlyRoutes(): Map<string, EarlyRoute> {
  const store = globalThis as typeof globalThis & { __earlyRoutes?: Map<string, EarlyRoute> };
  return (store.__earlyRoutes ??= new Map());
}

/** Registers (or, under the same name, replaces) a route answered before Express and Remix. */
export function answerEarly(name: string, route: EarlyRoute): void {
  earlyRoutes().set(name, route);
}

function earlyAnswerer(target: string) {
  const query = target.search(/[?#]/);
  const path = query === -1 ? target : target.slice(0, query);
  for (const route of earlyRoutes().values()) {
    const answerer = route(path);
    if (answerer) return answerer;
  }
  return null;
}

/** The request as Remix's Express adapter sees it (the same URL, headers, body and abort signal). */
class IncomingEarlyRequest implements EarlyRequest {
  readonly method: string;
  readonly url: string;
  readonly headers = new Headers();
  readonly #incoming: IncomingMessage;
  readonly #response: ServerResponse;
  #body: ReadableStream<Uint8Array> | null | undefined;
  #controller: AbortController | undefined;

  constructor(incoming: IncomingMessage, response: ServerResponse) {
    this.#incoming = incoming;
    this.#response = response;
    this.method = incoming.method ?? "GET";
    this.url = `http://${incoming.headers.host || "localhost"}${incoming.url ?? "/"}`;
    const raw = incoming.rawHeaders;
    for (let index = 0; index + 1 < raw.length; index += 2) {
      if (raw[index]!.toLowerCase() !== SOCKET_ADDRESS_HEADER) this.headers.append(raw[index]!, raw[index + 1]!);
    }
    this.headers.set(SOCKET_ADDRESS_HEADER, incoming.socket.remoteAddress ?? "");
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) {
      this.#body =
        this.method === "GET" || this.method === "HEAD" ? null : createReadableStreamFromReadable(this.#incoming);
    }
    return this.#body;
  }

  /** Aborted when the connection closes before the answer was written, whenever it is first read. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      const response = this.#response;
      const abortIfUnanswered = () => {
        if (!response.writableFinished) controller.abort();
      };
      if (response.closed) abortIfUnanswered();
      else response.once("close", abortIfUnanswered);
    }
    return this.#controller.signal;
  }
}

async function sendAnswer(response: ServerResponse, answer: Response | TextAnswer): Promise<void> {
  if (!(answer instanceof Response)) {
    const body = Buffer.from(answer.body);
    for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
    response.setHeader("Content-Length", body.byteLength);
    response.writeHead(answer.status);
    response.end(body);
    return;
  }
  const body = answer.body ? Buffer.from(await answer.arrayBuffer()) : undefined;
  for (const [name, value] of answer.headers) if (name !== "set-cookie") response.setHeader(name, value);
  const cookies = answer.headers.getSetCookie();
  if (cookies.length) response.setHeader("Set-Cookie", cookies);
  if (body) response.setHeader("Content-Length", body.byteLength);
  response.writeHead(answer.status);
  response.end(body);
}

/** Answers with the early route; what it throws is answered as Remix answers a resource route's throw. */
async function answerEarlyRequest(
  answerer: EarlyAnswerer,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  let answer: Response | TextAnswer;
  try {
    // Inside the try: a header Node's parser let through that Headers refuses is a 500 here, as in
    // Remix's adapter, never a rejection nobody handles (which ends the process).
    answer = await answerer(new IncomingEarlyRequest(request, response), {
      socketAddress: request.socket.remoteAddress ?? null,
      target: request.url ?? "/",
    });
  } catch (error) {
    if (error instanceof Response) answer = error;
    else {
      const clientGone = response.closed && !response.writableFinished;
      if (!clientGone) console.error(`${request.method} ${(request.url ?? "").split("?")[0]}:`, error);
      answer = new Response("Unexpected Server Error", { status: 500, headers: { "Content-Type": "text/plain" } });
    }
  }
  try {
    await sendAnswer(response, answer);
  } catch {
    // The client went away while the answer was being written: nothing is left to tell it.
    response.destroy();
  }
}

// The HTTP server this process answers on (the first that received a request), on globalThis as the
// interceptor is: one per process.
const listening = ((globalThis as typeof globalThis & { __listeningServer?: { server?: Server } }).__listeningServer ??=
  {});

/**
 * This server's own address over loopback (`http://127.0.0.1:3000`), once it has received a request;
 * null before. What the app sends to itself goes there: never to an address a request named.
 */
export function ownAddress(): string | null {
  const address = listening.server?.address();
  if (!address || typeof address === "string") return null;
  const host = ["0.0.0.0", "::", ""].includes(address.address)
    ? "127.0.0.1"
    : address.family === "IPv6"
      ? `[${address.address}]`
      : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * What every request meets before Express and Remix see it:
 *
 * - `X-Content-Type-Options: nosniff` on every response, the static files, JSON and plain-text
 *   answers included (documents also get it with the rest of their headers).
 * - A path over MAX_PATH_LENGTH or MAX_PATH_SEGMENTS is answered 414 at once. Remix's route
 *   discovery matches one partial manifest per segment, in time that grows with the square of the
 *   segment count (8,100 segments held the event loop 3.5 s, and every other request with it).
 * - A path an early route claims (answerEarly) is answered by it.
 * - Every request carries the socket's address in SOCKET_ADDRESS_HEADER (clientAddress reads it).
 * - The access log shows an /admin URL without its query (redactConsoleQuery).
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
      listening.server ??= this;
      // The connection's own address for clientAddress (TRUST_PROXY by address); a client's header
      // of that name is replaced, never believed.
      request.headers[SOCKET_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
      withNosniff(response);
      redactConsoleQuery(request, response);
      if (isPathTooLong(request.url ?? "")) {
        refuseLongPath(response);
        return true;
      }
      const answerer = earlyAnswerer(request.url ?? "");
      if (answerer) {
        void answerEarlyRequest(answerer, request, response);
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  };
}
