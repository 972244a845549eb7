import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { MAX_REWARD_COINS } from "~/domain/tasks";
import type { OfferKind } from "~/domain/offer-kinds";

/**
 * An offer wall network, as the app sees it (docs/offer-walls.md): one module per network under
 * app/server/walls/networks/, each reading and verifying postbacks exactly as that network's own
 * documentation signs them. Adding a network is one module, its entry in the registry and its tests.
 */
export interface WallNetwork<Config = WallSettings> {
  /** The {network} of /api/{network}/postback and of WALL_{NAME}_… (lower case, letters and digits). */
  name: string;
  /** The network's own name, as people know it. */
  label: string;
  /**
   * What its wall is mostly made of, as the network presents its wall (docs/offer-walls.md, "Wall
   * cards"): Earn's card says it, unless the wall's own catalogue shows what it lists (empty: every kind).
   */
  bestFor: readonly OfferKind[];
  /** The settings it needs, by the suffix of their variable (WALL_BITLABS_APP_SECRET: "APP_SECRET"). */
  settings: readonly WallSetting[];
  /**
   * The query string to paste after the postback URL in the network's dashboard, with its macros
   * (docs/walls/{name}.md), or null when the network adds its own parameters. A secret of the
   * operator's that it carries stands as a placeholder: the console shows it, never the secret.
   */
  postbackQuery: string | null;
  /** The addresses its postbacks come from, as the network publishes them (empty: none published). */
  senderAddresses: readonly string[];
  /** Where its signature travels and whether it binds the postback (docs/walls/{name}.md, "What the signature covers"). */
  signature: WallSignature;
  /** The settings, checked (`settings` has said which are required): what the other methods get. */
  configure(settings: WallSettings): Config;
  /** The wall's page for one person, by their wall id (never the account's id or email); none for a network without a wall page. */
  wallUrl?(config: Config, wallUserId: string): string;
  /** Verifies a postback and says what it asks for. Never throws on what a sender controls. */
  readPostback(request: PostbackRequest, config: Config): PostbackReading;
  /**
   * The inverse of readPostback: the postback this network would send for `postback`, signed as
   * its documentation says, its reversal in the network's own form (`npm run walls -- simulate`);
   * null for a reversal from a network that documents none.
   */
  simulatedPostback(config: Config, postback: SimulatedPostback): OutgoingPostback | null;
  /** The answer that tells the network a postback was taken (a repeat included), so it stops retrying. */
  accepted: { status: 200; body: string };
  /**
   * The network's catalogue of offers, for a network with an offers API: Earn lists them, each
   * opening the network's click URL; they pay only by postback (docs/offer-walls.md, "Offers in Earn").
   */
  offers?: WallOffersApi<Config>;
}

/** How the app reads one network's catalogue of offers (app/server/walls/offers.server.ts fetches and caches it). */
export interface WallOffersApi<Config> {
  /** The request for the whole catalogue, or null when the optional settings it needs are not set. */
  request(config: Config): { url: string; init: RequestInit } | null;
  /** The answer's JSON as offers; throws on an answer it cannot read (a failure, like a 500). */
  read(payload: unknown): WallOffer[];
  /** An offer's click URL for one person, by their wall id (never the account's id or email). */
  clickUrl(clickUrlTemplate: string, wallUserId: string): string;
}

/** One offer of a network's catalogue, as the app keeps it. */
export interface WallOffer {
  /** The network's name (its WallNetwork.name). */
  network: string;
  id: string;
  name: string;
  description: string;
  /** Whole coins, at least 1: what the network's postback pays when it is completed. */
  coins: number;
  /** What the network pays the app, in dollars, when it says so. */
  payoutUsd: number | null;
  /** The click URL as the network gave it, before the person's wall id is put in. */
  clickUrlTemplate: string;
  /**
   * The offer's image as the catalogue lists it (an http or https URL without credentials), or null.
   * Never sent to a browser: pages show it through the app's image route (walls/offer-images.server.ts).
   */
  imageUrl: string | null;
  /** What kind of offer it is, from the catalogue's categories (domain/offer-kinds.ts), or null. */
  kind: OfferKind | null;
  /** How many steps pay it, when the catalogue lists them (a multi-step offer), else null. */
  steps: number | null;
}

/**
 * A network's signature as the app treats it. Its values are never stored or shown: the postback
 * log keeps a keyed digest of them (postbacks.server.ts), enough to see one used twice.
 */
export interface WallSignature {
  /** The query or body parameters that carry it (empty: none, or only a secret of the operator's). */
  parameters: readonly string[];
  /** The header that carries it, for a network that signs in a header. */
  header?: string;
  /**
   * Whether it covers the transaction id and the amount, each unambiguously. When it does not
   * (Torox, Lootably, Revlum, AdGate's unsigned token), the sender allowlist is required
   * (registry.server.ts), and a credit whose signature already paid another transaction is held
   * for an operator instead of paid (take_postback).
   */
  bindsTransaction: boolean;
}

export interface WallSetting {
  /** The variable is WALL_{NAME}_{suffix}. */
  suffix: string;
  /** What it is, in the network's own words, for the message when it is missing. */
  meaning: string;
  required: boolean;
  /** A secret: never logged, and removed from the postback log. */
  secret?: boolean;
  /** The fewest characters it may have (a token of the operator's own). */
  minLength?: number;
  /** An http or https address (an API's, which tests point at a stand-in). */
  url?: boolean;
  /** Another setting (its suffix) this one needs: setting one without the other is a mistake. */
  with?: string;
}

export type WallSettings = Readonly<Record<string, string | undefined>>;

/** A postback as it arrived. */
export interface PostbackRequest {
  method: string;
  /**
   * The URL the network called, as it signed it: the app's public address (PUBLIC_URL, else the
   * request's own) with the path and the query string exactly as received.
   */
  url: string;
  /** The query string's parameters, decoded, in the order sent. */
  query: readonly (readonly [string, string])[];
  /** A form body's parameters (POST), decoded, in the order sent. */
  body: readonly (readonly [string, string])[];
  headers: Headers;
}

/** What `simulatedPostback` is asked to send. */
export interface SimulatedPostback {
  kind: "credit" | "reversal";
  /** The credit's id (a reversal names the credit it takes back, as readPostback reads it). */
  transactionId: string;
  wallUserId: string;
  /** Whole coins, positive (a reversal's too). */
  coins: number;
  offerId: string;
  offerName: string;
  /** The app's public address as the network calls it, without a trailing slash (BitLabs signs the whole URL). */
  appUrl: string;
}

/** A postback ready to send to the app at `{app address}{pathAndQuery}`. */
export interface OutgoingPostback {
  method: "GET" | "POST";
  /** /api/{network}/postback and the query string, exactly as the network calls it. */
  pathAndQuery: string;
  headers: Record<string, string>;
  /** A form body (application/x-www-form-urlencoded) for a POST; null for a GET. */
  body: string | null;
}

/** A GET of `network`'s postback route with `params` as its query string, in this order. */
export function getPostback(
  network: string,
  params: readonly (readonly [string, string])[],
  headers: Record<string, string> = {},
): OutgoingPostback {
  return {
    method: "GET",
    pathAndQuery: `/api/${network}/postback?${new URLSearchParams(params as [string, string][])}`,
    headers,
    body: null,
  };
}

/** What a postback asks for, once verified. */
export type PostbackReading =
  | {
      kind: "credit" | "reversal";
      /** The network's id of the credit (a reversal names the credit it takes back). */
      transactionId: string;
      /** The person's wall id, as the network sends it back. */
      wallUserId: string;
      /** Whole coins, positive (a reversal's too). */
      coins: number;
      /** What the network pays the app, in dollars, when it says so. */
      payoutUsd: number | null;
      offerId: string | null;
      offerName: string | null;
      /**
       * Why an operator must confirm it before it is recorded, whatever its signature: a reversal whose
       * reversal field the network's signature does not cover (Revlum's status). Absent: recorded at once.
       */
      review?: string;
    }
  /** Verified, but nothing to pay (a pending conversion, an event worth nothing): answered as taken. */
  | { kind: "ignored"; reason: string; transactionId: string | null; wallUserId: string | null }
  /** Not taken: 403 for a signature that does not match, 400 for what cannot be read. */
  | { kind: "refused"; status: 400 | 403; reason: string };

export const refused = (status: 400 | 403, reason: string): PostbackReading => ({ kind: "refused", status, reason });

/** Each name once across the query and the body, or null when a name repeats (which one was signed?). */
export function uniqueParameters(request: PostbackRequest): Map<string, string> | null {
  const params = new Map<string, string>();
  for (const [key, value] of [...request.query, ...request.body]) {
    if (params.has(key)) return null;
    params.set(key, value);
  }
  return params;
}

/** Hex digests compared in constant time, case aside; anything but hex of the right length is simply unequal. */
export function sameHex(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== "string" || given.length !== expected.length || !/^[0-9a-f]+$/i.test(given)) return false;
  return timingSafeEqual(Buffer.from(given.toLowerCase(), "hex"), Buffer.from(expected.toLowerCase(), "hex"));
}

export const md5Hex = (text: string) => createHash("md5").update(text, "utf8").digest("hex");
export const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
export const hmacHex = (algorithm: "sha1" | "sha256", key: string, text: string) =>
  createHmac(algorithm, key).update(text, "utf8").digest("hex");

const MAX_ID_LENGTH = 200;
const hasControlCharacter = (value: string) =>
  [...value].some((character) => character < " " || character === "\u007f");

/** A transaction, user or offer id as a network sends it: some text, not too long, no control characters. */
export function validId(value: string | undefined | null): value is string {
  return (
    typeof value === "string" && value.trim() !== "" && value.length <= MAX_ID_LENGTH && !hasControlCharacter(value)
  );
}

/**
 * An amount of coins as networks write it ("500", "500.00", "-250", "12.7"): its sign, and its whole
 * coins rounded down (a fraction of a coin is not paid, and a reversal takes back what the credit
 * gave); null for anything that is not a plain decimal number or is beyond MAX_REWARD_COINS.
 */
export function parseCoins(value: string | undefined | null): { negative: boolean; coins: number } | null {
  const parsed = readCoins(value);
  return parsed === null || parsed.coins > MAX_REWARD_COINS ? null : parsed;
}

/** An amount of coins as parseCoins reads it, beyond MAX_REWARD_COINS too (creditOrReversal refuses those with their own reason). */
export function readCoins(value: string | undefined | null): { negative: boolean; coins: number } | null {
  if (typeof value !== "string" || !/^[+-]?[0-9]{1,12}(\.[0-9]{1,12})?$/.test(value)) return null;
  const number = Number(value);
  return { negative: number < 0, coins: Math.floor(Math.abs(number)) };
}

/** The refusal's reason for an amount over MAX_REWARD_COINS (docs/offer-walls.md, "The amount cap"). */
export const OVER_CAP_REASON = `amount over the cap of ${MAX_REWARD_COINS.toLocaleString("en-US")} coins a postback`;

/**
 * An offer's reward in whole coins as a catalogue gives it (a number, or a plain decimal string),
 * rounded down as the postback's are; null unless it is from 1 to MAX_REWARD_COINS (not listed).
 */
export function listableCoins(value: unknown): number | null {
  const parsed = parseCoins(typeof value === "number" && Number.isFinite(value) ? String(value) : (value as string));
  return parsed && !parsed.negative && parsed.coins >= 1 ? parsed.coins : null;
}

/** A catalogue's answer read with `schema`; anything else throws, saying what did not match (the log shows it). */
export function parseAnswer<T>(schema: z.ZodType<T>, payload: unknown): T {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issues = result.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "answer"}: ${issue.message}`);
  throw new Error(`an answer not in the documented shape (${issues.join("; ")})`);
}

/**
 * A catalogue's offers: each read with `schema` and turned into a WallOffer by `toOffer`; one that
 * does not match, or that `toOffer` turns down (no coins, no way to name the person), is left out.
 */
export function listOffers<T>(items: readonly unknown[], schema: z.ZodType<T>, toOffer: (item: T) => WallOffer | null) {
  return items.flatMap((item) => {
    const result = schema.safeParse(item);
    const offer = result.success ? toOffer(result.data) : null;
    return offer ? [offer] : [];
  });
}

/** Dollars as networks write them ("0.36", "-0.36"); null when absent or not a plain number. */
export function parseUsd(value: string | undefined | null): number | null {
  if (typeof value !== "string" || !/^[+-]?[0-9]{1,9}(\.[0-9]{1,12})?$/.test(value)) return null;
  return Math.abs(Number(value));
}

/** A catalogue's categories as text: the strings among them (at most 20), anything else left out. */
export function catalogueCategories(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === "string" && item.length <= 100).slice(0, 20);
}

/** An image URL a catalogue lists: http or https, no user or password, at most 2,000 characters; else null. */
export function catalogueImageUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) return null;
  return url.href;
}

/** The offer's id and name when sent and readable; else null. */
export function optionalText(value: string | undefined | null, maxLength = MAX_ID_LENGTH): string | null {
  if (typeof value !== "string" || value.trim() === "" || hasControlCharacter(value)) return null;
  return value.length > maxLength ? value.slice(0, maxLength) : value;
}

/**
 * The common tail of every network's reading: the ids checked, the coins read, a zero amount
 * ignored (networks send events worth nothing). A credit with a negative amount says two things
 * at once (the network's own reversal form says otherwise): refused, never paid as its size.
 */
export function creditOrReversal(parts: {
  reversal: boolean;
  /** For a reversal told only by a field the signature does not cover: what that field is (held for an operator). */
  unsignedReversal?: string | null;
  transactionId: string | undefined | null;
  wallUserId: string | undefined | null;
  coins: { coins: number; negative: boolean } | null;
  payoutUsd?: string | null;
  offerId?: string | null;
  offerName?: string | null;
}): PostbackReading {
  if (!validId(parts.transactionId)) return refused(400, "missing or unreadable transaction id");
  if (!validId(parts.wallUserId)) return refused(400, "missing or unreadable user id");
  if (parts.coins === null) return refused(400, "missing or unreadable amount");
  if (parts.coins.coins > MAX_REWARD_COINS) return refused(400, OVER_CAP_REASON);
  if (!parts.reversal && parts.coins.negative && parts.coins.coins > 0) {
    return refused(400, "a negative amount on a postback that is no reversal");
  }
  if (parts.coins.coins === 0) {
    return {
      kind: "ignored",
      reason: "worth no coins",
      transactionId: parts.transactionId,
      wallUserId: parts.wallUserId,
    };
  }
  return {
    kind: parts.reversal ? "reversal" : "credit",
    transactionId: parts.transactionId,
    wallUserId: parts.wallUserId,
    coins: parts.coins.coins,
    payoutUsd: parseUsd(parts.payoutUsd),
    offerId: optionalText(parts.offerId),
    offerName: optionalText(parts.offerName),
    ...(parts.reversal && parts.unsignedReversal
      ? { review: `${parts.unsignedReversal} is not covered by the signature` }
      : {}),
  };
}
