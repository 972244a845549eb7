import { startHttpStandIn, type Exchange } from "./stand-in";

/**
 * Local stand-ins for the offer walls' offers APIs, speaking each network's protocol as its
 * documentation (and integrations of it) describe it: AdGate's Offers API v3 (GET with aff,
 * api_key and wall_code in the query) and Lootably's Catalogue API (a POST whose JSON body carries
 * placementID and apiKey). Each answers with its catalogue, or as `mode` says: a 500, a request
 * taken and never answered, JSON that does not parse, JSON in another shape, or the network's own
 * refusal.
 */
export type OffersApiMode = "ok" | "failing" | "stalling" | "unparsable" | "wrong-shape" | "refusing";

/** A click URL of AdGate's, with the s1= integrations fill in at its end. */
export const ADGATE_CATALOGUE = [
  {
    id: 41001,
    name: "Chess Pro - iOS - US",
    anchor: "Install Chess Pro",
    description: "Install and win one game",
    requirements: "Win one game",
    click_url: "https://wall.adgaterewards.example/click/41001?wall=nq6Upw&s1=",
    creatives: { icon: "https://cdn.adgate.example/41001.png" },
    points: 300,
    payout: "3.00",
  },
  {
    // Worth its events' points together (no offer-level points).
    id: "41002",
    name: "Survey",
    anchor: "Daily Survey",
    description: "Answer ten questions",
    click_url: "https://wall.adgaterewards.example/click/41002?wall=nq6Upw",
    events: [
      { name: "Start", points: "20", payout: "0.20" },
      { name: "Finish", points: "80", payout: "0.80" },
    ],
  },
  // Worth nothing: not listed.
  {
    id: 41003,
    name: "Free Trial",
    anchor: "Free Trial",
    click_url: "https://wall.adgaterewards.example/c/3",
    points: 0,
  },
];

export const LOOTABLY_CATALOGUE = [
  {
    type: "singlestep",
    offerID: "lb-7a",
    name: "Reach level 10 in Tower Clash",
    description: "Install and reach level 10",
    currencyReward: 450.75,
    revenue: 4.5,
    image: "https://cdn.lootably.example/7a.png",
    link: "https://api.lootably.example/click?offer=lb-7a&placement=pl-1&user={userID}",
  },
  // An amount known only at completion: not listed.
  {
    type: "singlestep",
    offerID: "lb-7b",
    name: "Shop and earn",
    description: "",
    currencyReward: "variable",
    revenue: "variable",
    link: "https://api.lootably.example/click?offer=lb-7b&user={userID}",
  },
];

function answer(exchange: Exchange, mode: OffersApiMode, ok: unknown, refusal: unknown) {
  switch (mode) {
    case "stalling":
      return; // taken, never answered (close() ends it)
    case "failing":
      return exchange.json(500, { error: "unavailable" });
    case "unparsable":
      return exchange.text(200, '{"data": [{,');
    case "wrong-shape":
      return exchange.json(200, { offers: "none today" });
    case "refusing":
      return exchange.json(200, refusal);
    default:
      return exchange.json(200, ok);
  }
}

/** AdGate's Offers API v3 at `${url}/v3/offers`. */
export async function startAdgateOffersApi() {
  const state = {
    mode: "ok" as OffersApiMode,
    catalogue: ADGATE_CATALOGUE as unknown[],
    queries: [] as URLSearchParams[],
  };
  const server = await startHttpStandIn((exchange) => {
    const url = new URL(exchange.incoming.url ?? "/", "http://stand-in.local");
    state.queries.push(url.searchParams);
    if (exchange.request.method !== "GET" || url.pathname !== "/v3/offers") {
      return exchange.json(404, { status: "error", message: "Not found" });
    }
    answer(
      exchange,
      state.mode,
      { status: "success", data: state.catalogue },
      {
        status: "error",
        message: "Invalid API key",
      },
    );
  });
  return { url: `${server.url}/v3/offers`, state, requests: server.requests, close: server.close };
}

/** Lootably's Offers API at `${url}/api/v2/offers/get`. */
export async function startLootablyOffersApi() {
  const state = { mode: "ok" as OffersApiMode, catalogue: LOOTABLY_CATALOGUE as unknown[] };
  const server = await startHttpStandIn((exchange) => {
    if (exchange.request.method !== "POST" || exchange.request.path !== "/api/v2/offers/get") {
      return exchange.json(404, { success: false, message: "Not found" });
    }
    const refusal = { success: false, message: "Invalid API key.", data: { requestID: "req-2" } };
    answer(exchange, state.mode, { success: true, data: { requestID: "req-1", offers: state.catalogue } }, refusal);
  });
  return { url: `${server.url}/api/v2/offers/get`, state, requests: server.requests, close: server.close };
}
