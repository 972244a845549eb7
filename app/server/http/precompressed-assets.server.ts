import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { EarlyRequest, EarlyRoute } from "./incoming.server";

/**
 * The browser build's scripts and stylesheet, sent from the Brotli and gzip copies `npm run build`
 * wrote beside them (scripts/precompress-assets.mjs): smaller than the server's own compression
 * and no CPU per request. A file without copies (`remix dev`'s rebuilds) is left to remix-serve,
 * which compresses it per request as before.
 */

// Built names: letters, digits and the route names' `$ . _ - [ ]`; never `..`.
const BUILT_ASSET = /^\/build\/[\w$.[\]/-]+\.(js|css)$/;
const CONTENT_TYPES = { js: "application/javascript; charset=utf-8", css: "text/css; charset=utf-8" } as const;
// Every built name carries its content's hash: a name never changes content.
const CACHE_CONTROL = "public, max-age=31536000, immutable";

// Preferred first: Brotli is about 10 % smaller than gzip.
const ENCODINGS = [
  { coding: "br", extension: "br" },
  { coding: "gzip", extension: "gz" },
] as const;
type Coding = (typeof ENCODINGS)[number]["coding"];

interface Asset {
  file: string;
  type: string;
  copies: Partial<Record<Coding, { body: Uint8Array<ArrayBuffer>; etag: string }>>;
}

const assets = new Map<string, Asset>();

function precompressedAsset(pathname: string): Asset | null {
  const known = assets.get(pathname);
  if (known) return known;
  const match = BUILT_ASSET.exec(pathname);
  if (!match || pathname.includes("..")) return null;
  const file = path.join(process.cwd(), "public", pathname);
  const asset: Asset = { file, type: CONTENT_TYPES[match[1] as keyof typeof CONTENT_TYPES], copies: {} };
  for (const { coding, extension } of ENCODINGS) {
    if (!existsSync(`${file}.${extension}`)) continue;
    const body = new Uint8Array(readFileSync(`${file}.${extension}`));
    asset.copies[coding] = { body, etag: `"${coding}-${createHash("sha1").update(body).digest("base64url")}"` };
  }
  if (Object.keys(asset.copies).length === 0) return null;
  assets.set(pathname, asset);
  return asset;
}

/**
 * Whether an Accept-Encoding header takes `coding`: named with a q above 0, or, when it is not
 * named at all, through `*` with a q above 0.
 */
export function acceptsEncoding(header: string | null, coding: Coding): boolean {
  if (!header) return false;
  const quality = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...parameters] = part.trim().toLowerCase().split(";");
    const q = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find(Boolean);
    quality.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  return (quality.get(coding) ?? quality.get("*") ?? 0) > 0;
}

async function answerAsset(request: EarlyRequest, asset: Asset): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response("Method Not Allowed\n", {
      status: 405,
      headers: { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const headers = new Headers({ "Content-Type": asset.type, "Cache-Control": CACHE_CONTROL, Vary: "Accept-Encoding" });
  const accepted = request.headers.get("Accept-Encoding");
  const coding = ENCODINGS.map((encoding) => encoding.coding).find(
    (name) => asset.copies[name] && acceptsEncoding(accepted, name),
  );
  // A client that takes neither (rare: curl without --compressed) gets the file as built.
  if (!coding)
    return new Response(request.method === "HEAD" ? null : new Uint8Array(readFileSync(asset.file)), {
      headers,
    });
  const copy = asset.copies[coding]!;
  headers.set("ETag", copy.etag);
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (ifNoneMatch?.split(",").some((tag) => tag.trim() === copy.etag))
    return new Response(null, { status: 304, headers });
  headers.set("Content-Encoding", coding);
  return new Response(request.method === "HEAD" ? null : copy.body, { headers });
}

/** The early route (incoming.server.ts) for the build's precompressed files. */
export const precompressedAssetRoute: EarlyRoute = (pathname) => {
  const asset = precompressedAsset(pathname);
  return asset ? (request) => answerAsset(request, asset) : null;
};
