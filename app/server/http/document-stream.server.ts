import { Transform, type TransformCallback } from "node:stream";

const MODULE_PRELOAD = Buffer.from('<link rel="modulepreload"');
const HELD_PRELOAD = '<link rel="x-modulepreload"';
const MODULE_SCRIPT = ' type="module" async="">';
const HELD_SCRIPT = ' type="x-module-after-paint">';
const REMIX_CONTEXT = ">window.__remixContext = ";

/**
 * In the browser, once the page is painted: the held preloads and the app's module script made live
 * again. The module script is replaced by a copy at its place (a script the parser passed over
 * never runs, and hydration matches elements by place and tag); a background tab paints no frames,
 * so there it starts at once. The rest of the document may still be arriving when a frame is
 * painted: then it waits for the document's end. Each preload is made live in a task of its own,
 * and the module script in the last: starting a request takes the main thread a few milliseconds,
 * and on /auth all of them together made one task of 35 ms (140 ms on Lighthouse's slowed phone,
 * docs/decisions/103).
 */
const AFTER_FIRST_PAINT =
  "(()=>{const go=()=>{const held=document.querySelector('script[type=\"x-module-after-paint\"]');" +
  "if(!held){document.addEventListener('DOMContentLoaded',go,{once:true});return}" +
  "const steps=[...document.querySelectorAll('link[rel=\"x-modulepreload\"]')].map((link)=>()=>{link.rel='modulepreload'});" +
  "steps.push(()=>{const script=document.createElement('script');script.type='module';script.nonce=held.nonce;" +
  "script.textContent=held.textContent;held.replaceWith(script)});" +
  "const next=()=>{steps.shift()();if(steps.length>0)setTimeout(next,0)};next()};" +
  "document.visibilityState==='hidden'?go():requestAnimationFrame(()=>setTimeout(go,0))})();";

/**
 * The app's scripts, preloaded and started by Remix's `<Scripts>`, held until the page is painted.
 * Nothing on the page waits for them (the server's HTML and its inline stylesheet are the whole
 * first paint, and every form works without them), but fetched and parsed while the page is laid
 * out they take the phone's cores from its first paint: on a two-core machine the first layout took
 * 74 ms instead of about 20, under Lighthouse a long task of 300 ms, and the scripts' download
 * counted in its largest paint (docs/decisions/101). So the preloads are sent inert
 * (`rel="x-modulepreload"`), the module script with a type that does not run, and Remix's first
 * inline script starts them after the first paint. The markers are Remix's own tags: a person's
 * text is escaped, and a flush never splits a tag.
 */
export function scriptsAfterFirstPaint(chunk: Buffer): Buffer {
  const from = Math.min(
    ...[chunk.indexOf(MODULE_PRELOAD), chunk.indexOf(REMIX_CONTEXT), chunk.indexOf(MODULE_SCRIPT)].filter(
      (at) => at !== -1,
    ),
  );
  if (!Number.isFinite(from)) return chunk;
  const tail = chunk
    .subarray(from)
    .toString("utf8")
    .replaceAll('<link rel="modulepreload"', HELD_PRELOAD)
    .replace(REMIX_CONTEXT, `>${AFTER_FIRST_PAINT}window.__remixContext = `)
    .replace(MODULE_SCRIPT, HELD_SCRIPT);
  return Buffer.concat([chunk.subarray(0, from), Buffer.from(tail)]);
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
   * `scriptsAfterPaint`: the app's scripts held until the page is painted (scriptsAfterFirstPaint).
   * Production only: React in development warns of attributes it did not render on tags it hydrates.
   */
  constructor(private readonly scriptsAfterPaint = false) {
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
    this.push(this.scriptsAfterPaint ? scriptsAfterFirstPaint(chunk) : chunk);
    this.pending = [];
  }

  override _flush(done: TransformCallback) {
    this.flush();
    done();
  }
}
