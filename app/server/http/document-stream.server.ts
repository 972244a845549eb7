import { Transform, type TransformCallback } from "node:stream";

const MODULE_PRELOAD = Buffer.from('<link rel="modulepreload"');
const LOW_PRIORITY = Buffer.from(' fetchpriority="low"');

/**
 * The app's scripts, preloaded by Remix's `<Scripts>` (`<link rel="modulepreload">`, fetched at
 * high priority), marked low priority: nothing on the page waits for them (the server's HTML and
 * its inline stylesheet are the whole first paint; hydration starts after it, entry.client.tsx),
 * so the browser paints first, and a phone on a slow network spends its first round trips on the
 * page. A flush never splits a tag, and a person's text is escaped, so the marker is only Remix's.
 */
export function lowPriorityPreloads(chunk: Buffer): Buffer {
  let at = chunk.indexOf(MODULE_PRELOAD);
  if (at === -1) return chunk;
  const parts: Buffer[] = [];
  let from = 0;
  while (at !== -1) {
    const end = at + MODULE_PRELOAD.length;
    parts.push(chunk.subarray(from, end), LOW_PRIORITY);
    from = end;
    at = chunk.indexOf(MODULE_PRELOAD, end);
  }
  parts.push(chunk.subarray(from));
  return Buffer.concat(parts);
}

/**
 * Where React writes a document: what it writes in one flush, handed on as one chunk. React's Node
 * stream writes 2 KB pieces and calls `flush()` when a flush is over; each piece would otherwise
 * travel alone through the web stream of the Response and out to the socket (Home's document was
 * 19 pieces, Legal's 10; now 3 each). A later flush (a suspended part arriving) is still sent
 * when React makes it, so the document streams as before.
 */
export class DocumentStream extends Transform {
  private pending: Buffer[] = [];

  /**
   * `lowPriorityScripts`: the preloads marked low priority (lowPriorityPreloads). Production only:
   * React in development warns of an attribute it did not render on a tag it hydrates.
   */
  constructor(private readonly lowPriorityScripts = false) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.pending.push(chunk);
    done();
  }

  /** Called by React at the end of each flush. */
  flush() {
    if (this.pending.length === 0) return;
    const chunk = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.push(this.lowPriorityScripts ? lowPriorityPreloads(chunk) : chunk);
    this.pending = [];
  }

  override _flush(done: TransformCallback) {
    this.flush();
    done();
  }
}
