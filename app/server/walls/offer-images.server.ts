import { createHash } from "node:crypto";
import { lookup } from "node:dns/promises";
import { get as httpGet, type IncomingMessage } from "node:http";
import { get as httpsGet } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { getEnv } from "../runtime/env.server";
import type { WallOffer } from "./network.server";
import { wallOfferLists } from "./offers.server";

// The offer walls' images through the app's own route (issue 39, point 7; docs/decisions/099): the
// pages' Content-Security-Policy keeps images to 'self'. The route serves only an image a catalogue
// listed, by an id the app gave it (never a URL from the request), fetched on the server, its size
// and type checked, and kept in memory.

/** The most an image may weigh, and how long one fetch may take. */
export const OFFER_IMAGE_MAX_BYTES = 256 * 1024;
const FETCH_DEADLINE_MS = 3_000;
/** How long a fetched image, or a failure to fetch one, is kept. */
const KEPT_MS = 24 * 60 * 60 * 1000;
const FAILURE_KEPT_MS = 5 * 60 * 1000;
/** Kept images at most, the oldest dropped first. */
const MAX_KEPT = 500;

/** The types served, each known by its first bytes (SVG, which can carry script, is not one). */
const SIGNATURES: readonly { type: string; matches: (bytes: Uint8Array) => boolean }[] = [
  { type: "image/png", matches: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 },
  { type: "image/jpeg", matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: "image/gif", matches: (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 },
  {
    type: "image/webp",
    matches: (b) =>
      b[0] === 0x52 &&
      b[1] === 0x49 &&
      b[2] === 0x46 &&
      b[3] === 0x46 &&
      b[8] === 0x57 &&
      b[9] === 0x45 &&
      b[10] === 0x42 &&
      b[11] === 0x50,
  },
];

/** The image type its bytes say, when it is one the route serves; else null. */
export function sniffImageType(bytes: Uint8Array): string | null {
  return SIGNATURES.find((signature) => signature.matches(bytes))?.type ?? null;
}

/** The id the app gives an image of a network's catalogue: the same for the same URL, nothing of it readable. */
export function offerImageId(network: string, imageUrl: string): string {
  return createHash("sha256").update(`${network}\n${imageUrl}`).digest("base64url").slice(0, 22);
}

export const OFFER_IMAGE_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * Whether the app fetches this URL: https on the default port, to a host that is not an address of
 * this machine or its private network; plain http only to a host OFFER_IMAGE_HTTP_HOSTS names (the
 * tests' stand-ins). A catalogue is the networks' word, not the request's, but it is still checked.
 */
export function fetchableImageUrl(imageUrl: string, httpHosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(imageUrl);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === "http:") return httpHosts.includes(url.hostname);
  if (url.protocol !== "https:" || url.port !== "") return false;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal")) return false;
  return isIP(host) === 0 || !privateAddress(host);
}

type Resolve = (host: string) => Promise<{ address: string }[]>;

/**
 * The name lookup of an https image's connection: the host's addresses, refused when any of them is
 * private, loopback, link-local or shared, or when there is none. The connection is made to an
 * address this lookup returned, so a name whose answers change between a check and the connection
 * (DNS rebinding) cannot lead into this machine's network. `resolve` is the system's resolver;
 * tests give their own.
 */
export function publicOnlyLookup(resolve: Resolve = (name) => lookup(name, { all: true })): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((answers) => {
        const addresses = answers
          .map(({ address }) => ({ address, family: isIP(address) }))
          .filter(({ family }) => !options.family || family === options.family);
        if (addresses.length === 0 || answers.some(({ address }) => privateAddress(address))) {
          throw Object.assign(new Error(`${hostname} does not resolve to public addresses only`), {
            code: "ENOTPUBLIC",
          });
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, "", 0));
  };
}

function privateAddress(address: string): boolean {
  if (isIP(address) === 6) {
    const lower = address.toLowerCase();
    return (
      lower === "::1" ||
      lower === "::" ||
      /^f[cd]/.test(lower) ||
      /^fe[89ab]/.test(lower) ||
      lower.startsWith("::ffff:")
    );
  }
  const [a, b] = address.split(".").map(Number) as [number, number];
  return (
    a === 10 ||
    a === 127 ||
    a === 0 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

type Kept = { ok: true; type: string; bytes: Uint8Array; until: number } | { ok: false; until: number };
const store = globalThis as typeof globalThis & {
  __offerImages?: Map<string, Kept>;
  __offerImagesFetching?: Map<string, Promise<Kept>>;
};
const kept = (store.__offerImages ??= new Map());
/** Fetches under way, by id: requests for an image being fetched wait for that one fetch. */
const fetching = (store.__offerImagesFetching ??= new Map());

/**
 * A catalogue's images by the id the app gave them, hashed once per fetched catalogue (a catalogue's
 * list is the same array until it is refreshed, so a refresh is hashed anew).
 */
const imagesOfCatalogue = new WeakMap<readonly WallOffer[], Map<string, string>>();

function catalogueImages(network: string, offers: readonly WallOffer[]): Map<string, string> {
  let images = imagesOfCatalogue.get(offers);
  if (!images) {
    images = new Map();
    for (const offer of offers) if (offer.imageUrl) images.set(offerImageId(network, offer.imageUrl), offer.imageUrl);
    imagesOfCatalogue.set(offers, images);
  }
  return images;
}

/** The URL of the image the id names, when a catalogue lists it now. */
async function listedImage(id: string): Promise<string | undefined> {
  for (const list of await wallOfferLists()) {
    const imageUrl = catalogueImages(list.name, list.offers).get(id);
    if (imageUrl) return imageUrl;
  }
  return undefined;
}

/** The answer to a GET of an image: its status, declared type, and body unless it passed `max` bytes. */
interface ImageAnswer {
  status: number;
  type: string;
  bytes: Uint8Array | null;
}

/**
 * GET `url` without following a redirect (it could lead anywhere the checks refuse), given up after
 * `deadlineMs`, its body read only when the status is 2xx and the declared type one the route
 * serves, and only up to `max` bytes. `lookup` resolves the host for the connection itself.
 */
export function getImage(
  url: URL,
  { lookup: resolveHost, deadlineMs, max }: { lookup?: LookupFunction; deadlineMs: number; max: number },
): Promise<ImageAnswer> {
  const get = url.protocol === "https:" ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      {
        // A connection of its own, looked up as it is made (none kept from an earlier fetch).
        agent: false,
        lookup: resolveHost,
        signal: AbortSignal.timeout(deadlineMs),
        headers: { accept: "image/png,image/jpeg,image/gif,image/webp" },
      },
      (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        const type = String(response.headers["content-type"] ?? "")
          .split(";")[0]!
          .trim()
          .toLowerCase();
        if (status < 200 || status > 299 || !SIGNATURES.some((signature) => signature.type === type)) {
          request.destroy();
          resolve({ status, type, bytes: null });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > max) {
            request.destroy();
            resolve({ status, type, bytes: null });
          } else chunks.push(chunk);
        });
        response.on("end", () => resolve({ status, type, bytes: new Uint8Array(Buffer.concat(chunks)) }));
        // Cut off before its end (the deadline, the connection): no image.
        response.on("error", reject);
        response.on("close", () => {
          if (!response.complete) reject(new Error("the answer ended before its body did"));
        });
      },
    );
    request.on("error", reject);
  });
}

async function fetchImage(imageUrl: string): Promise<Kept> {
  const failed: Kept = { ok: false, until: Date.now() + FAILURE_KEPT_MS };
  const httpHosts = getEnv().offerImageHttpHosts;
  if (!fetchableImageUrl(imageUrl, httpHosts)) return failed;
  const url = new URL(imageUrl);
  try {
    const answer = await getImage(url, {
      // https: only to public addresses, checked as the connection is made; plain http only reaches
      // the hosts OFFER_IMAGE_HTTP_HOSTS names (the tests' stand-ins).
      lookup: url.protocol === "https:" ? publicOnlyLookup() : undefined,
      deadlineMs: FETCH_DEADLINE_MS,
      max: OFFER_IMAGE_MAX_BYTES,
    });
    // The bytes must be the type the network declared.
    if (!answer.bytes || sniffImageType(answer.bytes) !== answer.type) return failed;
    return { ok: true, type: answer.type, bytes: answer.bytes, until: Date.now() + KEPT_MS };
  } catch (error) {
    console.error(`offer image ${url.host}: could not fetch it:`, (error as Error).message);
    return failed;
  }
}

/**
 * The image the id names: "unknown" when no catalogue lists it now, "unavailable" when it could not
 * be fetched as an image the route serves (kept for five minutes), else its type and bytes.
 */
export async function offerImage(
  id: string,
): Promise<{ state: "unknown" } | { state: "unavailable" } | { state: "ok"; type: string; bytes: Uint8Array }> {
  if (!OFFER_IMAGE_ID.test(id)) return { state: "unknown" };
  const imageUrl = await listedImage(id);
  if (!imageUrl) return { state: "unknown" };
  let entry = kept.get(id);
  if (!entry || entry.until <= Date.now()) {
    let pending = fetching.get(id);
    if (!pending) {
      pending = fetchImage(imageUrl).finally(() => fetching.delete(id));
      fetching.set(id, pending);
    }
    entry = await pending;
    kept.delete(id);
    kept.set(id, entry);
    for (const oldest of kept.keys()) {
      if (kept.size <= MAX_KEPT) break;
      kept.delete(oldest);
    }
  }
  return entry.ok ? { state: "ok", type: entry.type, bytes: entry.bytes } : { state: "unavailable" };
}
