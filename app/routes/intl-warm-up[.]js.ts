import { methodNotAllowed } from "~/server/http/responses.server";

// GET /intl-warm-up.js: a worker each page starts once it is painted (the starter in
// server/http/document-stream.server.ts). The first Intl object made in a browser's page process
// loads its locale data: 35–70 ms on a two-core machine, four times that on a slow phone. Made on
// this worker's thread, that load is done off the page's main thread, and the page's own Intl
// objects (the time zone, its dates) cost about a millisecond each after it (docs/decisions/103).
const WARM_UP = "Intl.DateTimeFormat().resolvedOptions();close();\n";

export function loader() {
  return new Response(WARM_UP, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}

// Any other method: a 405 that says which to use.
export const action = () => methodNotAllowed("GET");
