/**
 * Forms, JSON calls and postbacks are a few kilobytes at most. Bodies are read through here only,
 * after the route has checked what it can without the body (provider, session), so a large post
 * costs neither memory nor a database call.
 */
export const MAX_BODY_BYTES = 64 * 1024;

export const BODY_TOO_LARGE_MESSAGE = "What you sent is too large. Please shorten it and try again.";

/** What is read of a request here: a Fetch Request, or what an early route has of one (incoming.server.ts). */
type WithBody = { readonly headers: Headers; readonly body: ReadableStream<Uint8Array> | null };

// After answering without the whole body, the server reads and drops what keeps coming for a
// while ("lingering close", as nginx does): closing a socket with unread data makes the kernel send
// a reset, which can destroy the answer before the client has read it, so a browser would show
// "connection reset" instead of the 413 page. Past LINGER_BYTES it stops reading (TCP flow control
// then holds the sender, who reads the answer meanwhile) and drops the connection at LINGER_MS.
const LINGER_BYTES = 8 * 1024 * 1024;
const LINGER_MS = 2_000;

/** Reads and drops the rest of a body in the background, up to the linger bounds, then drops the connection. */
function lingerOn(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), LINGER_MS);
  timer.unref();
  void (async () => {
    let dropped = 0;
    try {
      while (dropped <= LINGER_BYTES) {
        const chunk = await reader.read();
        if (chunk.done) return clearTimeout(timer);
        dropped += chunk.value.byteLength;
      }
      // Enough read: no more, and the timer drops the connection.
    } catch {
      // The client went away, or the timer cancelled the read: nothing is left to do.
      clearTimeout(timer);
    }
  })();
}

/**
 * For an answer given without reading the body (an unknown provider, say): the rest is read and
 * dropped within bounds, so the answer reaches the client and the body costs no memory.
 */
export function discardBody(request: Pick<WithBody, "body">): void {
  if (request.body && !request.body.locked) lingerOn(request.body.getReader());
}

/**
 * The body's bytes, or null when it is larger than `limit`: refused on Content-Length before
 * reading, and otherwise when the running count passes the limit (a chunked body has no length).
 */
export async function readBodyBytes(
  request: WithBody,
  limit = MAX_BODY_BYTES,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (!Number.isFinite(declared) || declared > limit) {
    discardBody(request);
    return null;
  }
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client went away mid-body: there is nothing to act on.
      return new Uint8Array();
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > limit) {
      lingerOn(reader);
      return null;
    }
    chunks.push(chunk.value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The body as UTF-8 text, or null past the limit. */
export async function readBodyText(request: WithBody, limit = MAX_BODY_BYTES): Promise<string | null> {
  const bytes = await readBodyBytes(request, limit);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}
