import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { appUrl } from "../support/http";

// The build's scripts are sent from the Brotli and gzip copies `npm run build` wrote beside them
// (scripts/precompress-assets.mjs, app/server/http/precompressed-assets.server.ts). Node's fetch
// decodes what it receives, so these requests go through node:http, which leaves the bytes as sent.
function request(pathname: string, { method = "GET", headers = {} as Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const sent = http.request(new URL(pathname, appUrl()), { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    sent.on("error", reject);
    sent.end();
  });
}

let script: string;
let built: Buffer;

beforeAll(async () => {
  // The framework's file: every page loads it, and it is the largest.
  const page = await (await fetch(new URL("/legal", appUrl()))).text();
  const names = [...page.matchAll(/\/build\/_shared\/chunk-\w+\.js/g)].map((match) => match[0]);
  const sizes = names.map((name) => ({ name, size: readFileSync(path.join("public", name)).length }));
  script = sizes.sort((a, b) => b.size - a.size)[0]!.name;
  built = readFileSync(path.join("public", script));
});

describe("the build's scripts are sent from the copies the build compressed", () => {
  it("a browser that takes Brotli gets the Brotli copy, which decodes to the built file byte for byte", async () => {
    const answer = await request(script, { headers: { "accept-encoding": "gzip, deflate, br, zstd" } });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["content-type"]).toBe("application/javascript; charset=utf-8");
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(answer.headers.vary).toBe("Accept-Encoding");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(answer.body).toEqual(readFileSync(path.join("public", `${script}.br`)));
    expect(brotliDecompressSync(answer.body).equals(built)).toBe(true);
    // What the benchmark counts: the framework travels in under a third of its size.
    expect(answer.body.length).toBeLessThan(built.length / 3);
  });

  it("a client that takes gzip only, or refuses Brotli with q=0, gets the gzip copy", async () => {
    for (const accepted of ["gzip", "br;q=0, gzip", "gzip;q=0.5, identity"]) {
      const answer = await request(script, { headers: { "accept-encoding": accepted } });
      expect(answer.headers["content-encoding"], accepted).toBe("gzip");
      expect(gunzipSync(answer.body).equals(built), accepted).toBe(true);
    }
  });

  it("a client that takes no compression gets the file as built", async () => {
    for (const accepted of [undefined, "identity", "br;q=0, gzip;q=0"]) {
      const answer = await request(script, { headers: accepted === undefined ? {} : { "accept-encoding": accepted } });
      expect(answer.status, String(accepted)).toBe(200);
      expect(answer.headers["content-encoding"], String(accepted)).toBeUndefined();
      expect(answer.body.equals(built), String(accepted)).toBe(true);
    }
  });

  it("a copy the browser already holds (If-None-Match with its ETag) is answered 304 without a body", async () => {
    const first = await request(script, { headers: { "accept-encoding": "br" } });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"br-/);
    const again = await request(script, { headers: { "accept-encoding": "br", "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // The gzip copy has its own tag: a cache never takes one encoding for the other.
    const gzip = await request(script, { headers: { "accept-encoding": "gzip", "if-none-match": etag } });
    expect(gzip.status).toBe(200);
  });

  it("HEAD answers the headers and no body; a POST is refused 405 naming GET and HEAD", async () => {
    const head = await request(script, { method: "HEAD", headers: { "accept-encoding": "br" } });
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.body.length).toBe(0);
    const post = await request(script, { method: "POST", headers: { "accept-encoding": "br" } });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
  });

  it("a name the build did not write is left to the static files: 404", async () => {
    const missing = await request("/build/_shared/chunk-NOTBUILT.js", { headers: { "accept-encoding": "br" } });
    expect(missing.status).toBe(404);
  });
});

// scripts/compile-hints.mjs (docs/decisions/103): the scripts every page starts with ask V8 to
// compile all their functions as the file arrives, off the main thread; a page's own module does not.
describe("the scripts every page starts with are marked for eager compilation", () => {
  const HINT = "//# allFunctionsCalledOnLoad\n";

  it("the entry module and the framework's file, as a browser receives them, begin with V8's compile hint; the page's own route module does not", async () => {
    const page = await (await fetch(new URL("/legal", appUrl()))).text();
    const entry = page.match(/\/build\/entry\.client-\w+\.js/)?.[0];
    const route = page.match(/\/build\/routes\/legal-\w+\.js/)?.[0];
    expect(entry).toBeDefined();
    expect(route).toBeDefined();
    for (const file of [entry!, script]) {
      const answer = await request(file, { headers: { "accept-encoding": "br" } });
      expect(brotliDecompressSync(answer.body).toString("utf8").startsWith(HINT), file).toBe(true);
      expect(
        gunzipSync((await request(file, { headers: { "accept-encoding": "gzip" } })).body).toString("utf8"),
      ).toMatch(/^\/\/# allFunctionsCalledOnLoad\n/);
    }
    const own = await request(route!, { headers: { "accept-encoding": "br" } });
    expect(brotliDecompressSync(own.body).toString("utf8").startsWith(HINT)).toBe(false);
  });
});
