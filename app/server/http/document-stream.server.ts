import { Transform, type TransformCallback } from "node:stream";

/**
 * Where React writes a document: what it writes in one flush, handed on as one chunk. React's Node
 * stream writes 2 KB pieces and calls `flush()` when a flush is over; each piece would otherwise
 * travel alone through the web stream of the Response and out to the socket (Home's document was
 * 19 pieces, Legal's 10; now 3 each). A later flush (a suspended part arriving) is still sent
 * when React makes it, so the document streams as before.
 */
export class DocumentStream extends Transform {
  private pending: Buffer[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.pending.push(chunk);
    done();
  }

  /** Called by React at the end of each flush. */
  flush() {
    if (this.pending.length === 0) return;
    this.push(this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending));
    this.pending = [];
  }

  override _flush(done: TransformCallback) {
    this.flush();
    done();
  }
}
