/**
 * Forms, JSON calls and postbacks are a few kilobytes at most. Bodies are read through here only,
 * after the route has checked what it can without the body (provider, session), so a large post
 * costs neither memory nor a database call.
 */
export const MAX_BODY_BYTES = 64 * 1024;

export const BODY_TOO_LARGE_MESSAGE = "What you sent is too large. Please shorten it and try again.";

/**
 * The body's bytes, or null when it is larger than `limit`: refused on Content-Length before
 * reading, and otherwise when the running count passes the limit (a chunked body has no length).
 */
export async function readBodyBytes(request: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (!Number.isFinite(declared) || declared > limit) return null;
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
    // Not cancelled: that would drop the connection before the 413 is written. The answer closes it.
    if (size > limit) return null;
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
export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<string | null> {
  const bytes = await readBodyBytes(request, limit);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}
