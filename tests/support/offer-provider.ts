import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ExternalOffer } from "~/domain/tasks";

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
  const stalled = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    state.requests += 1;
    state.authorization.push(request.headers.authorization);
    if (state.stalling) {
      stalled.add(response);
      response.once("close", () => stalled.delete(response));
      return;
    }
    if (state.failing || request.url !== "/offers") {
      response.writeHead(state.failing ? 500 : 404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: "unavailable" }));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ offers: PROVIDER_OFFERS }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/offers`;
  return {
    url,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of stalled) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
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
