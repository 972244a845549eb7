import { describe, expect, it } from "vitest";
import { listableCoins } from "~/server/walls/network.server";
import { adgate } from "~/server/walls/networks/adgate.server";
import { bitlabs } from "~/server/walls/networks/bitlabs.server";
import { lootably } from "~/server/walls/networks/lootably.server";
import { readWalls } from "~/server/walls/registry.server";

// Reading the offer walls' catalogues (docs/offer-walls.md, "Offers in Earn"): the request each
// network's offers API takes, its answer mapped to the app's offers, and the click URL per person.

const WALL_ID = "w0123456789abcdef0123456789abcdef";

const adgateConfig = (settings: Record<string, string> = {}) =>
  adgate.configure({ WALL_CODE: "nq6Upw", POSTBACK_TOKEN: "t".repeat(16), ...settings });
const lootablyConfig = (settings: Record<string, string> = {}) =>
  lootably.configure({ PLACEMENT_ID: "pl-1", POSTBACK_SECRET: "s", ...settings });

describe("listableCoins: an offer's reward as whole coins, from 1 to MAX_REWARD_COINS", () => {
  it("rounds numbers and decimal strings down, and turns down nothing, fractions of a coin, negatives, words and huge values", () => {
    expect([300, "300", 450.75, "12.99", 1].map(listableCoins)).toEqual([300, 300, 450, 12, 1]);
    for (const value of [0, 0.5, "0.99", -5, "variable", "", null, undefined, {}, 1e12, Number.NaN, "1e3"]) {
      expect(listableCoins(value), String(value)).toBeNull();
    }
  });
});

describe("AdGate Offers API v3: GET with aff, api_key and wall_code; {status: success, data: [offers]}", () => {
  it("asks nothing without both the affiliate id and the API key, and otherwise the configured URL with the three in its query", () => {
    expect(adgate.offers!.request(adgateConfig())).toBeNull();
    expect(adgate.offers!.request(adgateConfig({ AFFILIATE_ID: "60000" }))).toBeNull();
    const request = adgate.offers!.request(adgateConfig({ AFFILIATE_ID: "60000", API_KEY: "k1" }))!;
    expect(request.url).toBe("https://api.adgatemedia.com/v3/offers?aff=60000&api_key=k1&wall_code=nq6Upw");
    expect(request.init.method ?? "GET").toBe("GET");
    const elsewhere = adgate.offers!.request(
      adgateConfig({ AFFILIATE_ID: "60000", API_KEY: "k 1", OFFERS_API_URL: "http://127.0.0.1:9/v3/offers" }),
    )!;
    expect(elsewhere.url).toBe("http://127.0.0.1:9/v3/offers?aff=60000&api_key=k+1&wall_code=nq6Upw");
  });

  it("maps offers: anchor as the name, points (else the events' together) as coins, payout in dollars, creatives.icon as the image (an http(s) URL only), the kind its text categories name, its events as steps; leaves out those worth no coin or unreadable", () => {
    const offers = adgate.offers!.read({
      status: "success",
      data: [
        {
          id: 1,
          name: "internal",
          anchor: "Install Chess",
          description: "Win a game",
          click_url: "https://c.example/1?s1=",
          points: "250",
          payout: 2.5,
          creatives: { icon: "https://cdn.example/1.png" },
          categories: ["Android", "Games"],
        },
        {
          id: "2",
          name: "Survey",
          click_url: "https://c.example/2",
          creatives: { icon: "javascript:alert(1)" },
          categories: ["Surveys", 7, { name: "CPI" }],
          events: [
            { points: 20, payout: "0.2" },
            { points: "80", payout: "0.8" },
          ],
        },
        { id: 3, name: "Nothing", click_url: "https://c.example/3", points: 0 },
        { id: 4, name: "No link", points: 10 },
        { id: 5, name: "Script link", click_url: "javascript:alert(1)", points: 10 },
        "not an offer",
      ],
    });
    expect(offers).toEqual([
      {
        network: "adgate",
        id: "1",
        name: "Install Chess",
        description: "Win a game",
        coins: 250,
        payoutUsd: 2.5,
        clickUrlTemplate: "https://c.example/1?s1=",
        imageUrl: "https://cdn.example/1.png",
        kind: "game",
        steps: null,
      },
      {
        network: "adgate",
        id: "2",
        name: "Survey",
        description: "",
        coins: 100,
        payoutUsd: 1,
        clickUrlTemplate: "https://c.example/2",
        imageUrl: null,
        kind: "survey",
        steps: 2,
      },
    ]);
  });

  it("throws on an answer that is not {status: success, data: [...]}: an error status, another shape", () => {
    expect(() => adgate.offers!.read({ status: "error", message: "Invalid API key" })).toThrow(
      /not in the documented shape/,
    );
    expect(() => adgate.offers!.read({ status: "success", data: "none" })).toThrow(/data/);
    expect(() => adgate.offers!.read(null)).toThrow();
  });

  it("puts the wall id in s1, filling in an empty s1= or adding it", () => {
    expect(adgate.offers!.clickUrl("https://c.example/1?wall=a&s1=", WALL_ID)).toBe(
      `https://c.example/1?wall=a&s1=${WALL_ID}`,
    );
    expect(adgate.offers!.clickUrl("https://c.example/2", WALL_ID)).toBe(`https://c.example/2?s1=${WALL_ID}`);
  });
});

describe("Lootably Catalogue API: POST {placementID, apiKey}; {success: true, data: {offers}} or {success: false, message}", () => {
  it("asks nothing without the API key, and otherwise POSTs the placement and key as JSON, with no user data", () => {
    expect(lootably.offers!.request(lootablyConfig())).toBeNull();
    const request = lootably.offers!.request(lootablyConfig({ API_KEY: "k1" }))!;
    expect(request.url).toBe("https://api.lootably.com/api/v2/offers/get");
    expect(request.init.method).toBe("POST");
    expect(request.init.headers).toMatchObject({ "content-type": "application/json" });
    expect(JSON.parse(request.init.body as string)).toEqual({ placementID: "pl-1", apiKey: "k1" });
  });

  it("maps offers: currencyReward as coins (rounded down), revenue in dollars, image as the image, the kind its categories name, its goals as steps; leaves out 'variable' rewards and links without {userID}", () => {
    const offers = lootably.offers!.read({
      success: true,
      data: {
        requestID: "r1",
        offers: [
          {
            type: "singlestep",
            offerID: "a1",
            name: "Tower Clash",
            description: "Reach level 10",
            currencyReward: 450.75,
            revenue: 4.5,
            link: "https://l.example/c?o=a1&u={userID}",
            image: "https://user:pass@cdn.example/a1.png",
            categories: ["game", "app"],
            goals: [{ goalID: "g1" }, { goalID: "g2" }, { goalID: "g3" }],
          },
          { offerID: "a2", name: "Variable", currencyReward: "variable", link: "https://l.example/c?u={userID}" },
          { offerID: "a3", name: "No macro", currencyReward: 10, link: "https://l.example/c?o=a3" },
          { offerID: "a4", currencyReward: 10, link: "https://l.example/c?u={userID}" },
        ],
      },
    });
    expect(offers).toEqual([
      {
        network: "lootably",
        id: "a1",
        name: "Tower Clash",
        description: "Reach level 10",
        coins: 450,
        payoutUsd: 4.5,
        clickUrlTemplate: "https://l.example/c?o=a1&u={userID}",
        // With a user and password: not an image the app fetches.
        imageUrl: null,
        // Filed under game and app: a game (games win).
        kind: "game",
        steps: 3,
      },
    ]);
  });

  it("throws on a refusal, with Lootably's message, and on another shape", () => {
    expect(() => lootably.offers!.read({ success: false, message: "Invalid API key." })).toThrow(
      "Lootably refused the request: Invalid API key.",
    );
    expect(() => lootably.offers!.read({ success: true, data: { offers: {} } })).toThrow(/not in the documented shape/);
    expect(() => lootably.offers!.read([])).toThrow();
  });

  it("fills the wall id in for every {userID}", () => {
    expect(lootably.offers!.clickUrl("https://l.example/c?u={userID}&again={userID}", WALL_ID)).toBe(
      `https://l.example/c?u=${WALL_ID}&again=${WALL_ID}`,
    );
  });
});

describe("the offers settings (WALL_ADGATE_…, WALL_LOOTABLY_…)", () => {
  const ADGATE = {
    WALL_ADGATE_ENABLED: "true",
    WALL_ADGATE_WALL_CODE: "c",
    WALL_ADGATE_POSTBACK_TOKEN: "t".repeat(16),
  };

  it("are optional: a wall without them is on, lists no offers, and has no empty secret to remove from the log", () => {
    const { walls, problems } = readWalls(ADGATE);
    expect(problems).toEqual([]);
    expect(adgate.offers!.request(walls[0]!.config as ReturnType<typeof adgateConfig>)).toBeNull();
    expect(walls[0]!.secrets).toEqual(["t".repeat(16)]);
    expect(bitlabs.offers).toBeUndefined();
  });

  it("name what is missing or wrong: the affiliate id without the key (or the reverse), an offers API URL that is not http(s)", () => {
    expect(readWalls({ ...ADGATE, WALL_ADGATE_API_KEY: "k" }).problems).toEqual([
      { variable: "WALL_ADGATE_AFFILIATE_ID", message: expect.stringMatching(/^is required with WALL_ADGATE_API_KEY/) },
    ]);
    expect(readWalls({ ...ADGATE, WALL_ADGATE_AFFILIATE_ID: "1" }).problems).toEqual([
      { variable: "WALL_ADGATE_API_KEY", message: expect.stringMatching(/^is required with WALL_ADGATE_AFFILIATE_ID/) },
    ]);
    const lootablyProblems = readWalls({
      WALL_LOOTABLY_ENABLED: "true",
      WALL_LOOTABLY_PLACEMENT_ID: "p",
      WALL_LOOTABLY_POSTBACK_SECRET: "s",
      WALL_LOOTABLY_ALLOWED_ADDRESSES: "203.0.113.20",
      WALL_LOOTABLY_OFFERS_API_URL: "ftp://api.example/offers",
    }).problems;
    expect(lootablyProblems).toEqual([
      { variable: "WALL_LOOTABLY_OFFERS_API_URL", message: "must be an http or https URL" },
    ]);
  });

  it("keeps the API keys among the wall's secrets, so the postback log removes them", () => {
    const { walls } = readWalls({ ...ADGATE, WALL_ADGATE_AFFILIATE_ID: "1", WALL_ADGATE_API_KEY: "adgate-key" });
    expect(walls[0]!.secrets).toEqual(["t".repeat(16), "adgate-key"]);
  });
});
