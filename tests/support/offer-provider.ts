import { createHmac } from "node:crypto";
import type { ExternalOffer } from "~/domain/tasks";
import { startHttpStandIn } from "./stand-in";

export const PROVIDER_OFFERS: ExternalOffer[] = [
  {
    offer_id: "acme-1",
    name: "Daily Poll",
    description: "Answer a short poll",
    type: "survey",
    currency_value: 40,
    time_estimate: 150,
    image_url: null,
    offer_hash: "h1",
  },
  {
    offer_id: "acme-2",
    name: "Install Chess Pro",
    description: "Install and open",
    type: "video_to_install",
    currency_value: 300,
    time_estimate: 600,
    image_url: null,
    offer_hash: "h2",
  },
  {
    offer_id: 3,
    name: "Play Tower Clash",
    description: "Reach level 3",
    type: "game_engagement",
    currency_value: "125",
    time_estimate: 1200,
    image_url: null,
    offer_hash: "h3",
  },
  {
    offer_id: "acme-4",
    name: "Mystery Offer",
    description: "Something new",
    type: "brand_new_type",
    currency_value: null,
    time_estimate: null,
    image_url: null,
    offer_hash: "h4",
  },
  {
    // A payout beyond any integer column: not listed (MAX_REWARD_COINS), so it can never be started.
    offer_id: "acme-5",
    name: "Jackpot Offer",
    description: "Too good to be true",
    type: "survey",
    currency_value: 1e12,
    time_estimate: 60,
    image_url: null,
    offer_hash: "h5",
  },
];

/**
 * A local stand-in for an offer provider's API: GET /offers answers like the provider, fails on
 * demand (`failing`: a 500), or stalls (`stalling`: takes the request and never answers).
 */
export async function startOfferProvider() {
  const state = { failing: false, stalling: false, requests: 0, authorization: [] as (string | undefined)[] };
  const server = await startHttpStandIn(({ request, incoming, json }) => {
    state.requests += 1;
    state.authorization.push(request.headers.authorization);
    // Stalling: the request is taken and never answered (close() ends it).
    if (state.stalling) return;
    if (state.failing || incoming.url !== "/offers") {
      json(state.failing ? 500 : 404, { error: "unavailable" });
      return;
    }
    json(200, { offers: PROVIDER_OFFERS });
  });
  return { url: `${server.url}/offers`, state, close: server.close };
}

/** RFC 3986 percent-encoding, as docs/offer-provider.md tells providers (the provider's side, written independently). */
const encode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The provider's postback signature as docs/offer-provider.md words it: encoded `key=value` pairs, sorted, joined with `&`. */
export function signPostback(params: Record<string, string>, secret: string) {
  const canonical = Object.entries(params)
    .map(([key, value]) => `${encode(key)}=${encode(value)}`)
    .sort()
    .join("&");
  return createHmac("sha256", secret).update(canonical).digest("hex");
}

/** A signed postback query string. */
export function signedPostbackQuery(params: Record<string, string>, secret: string) {
  return new URLSearchParams({ ...params, sig: signPostback(params, secret) }).toString();
}
