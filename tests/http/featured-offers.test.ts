import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpClient } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startAdgateOffersApi, startLootablyOffersApi } from "../support/wall-offer-apis";

// Featured offers and the walls' cards (issue 39, point 7; docs/decisions/100), from stand-ins of
// AdGate's Offers API v3 and Lootably's Catalogue API: what leads Earn, its badges, and what each
// wall's card says it is best for and usually pays.

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Twelve AdGate offers of 100 to 1,200 coins: every third a survey, the others games; 50001 pays in three events. */
const ADGATE_OFFERS = Array.from({ length: 12 }, (_, index) => {
  const id = 50001 + index;
  const coins = (index + 1) * 100;
  return {
    id,
    name: `Offer ${id}`,
    anchor: `AdGate offer ${id}`,
    description: "Do the thing",
    click_url: `https://wall.adgaterewards.example/click/${id}?s1=`,
    categories: index % 3 === 0 ? ["Surveys"] : ["Android", "Games"],
    ...(index === 0
      ? {
          events: [
            { name: "Install", points: 20, payout: "0.20" },
            { name: "Level 5", points: 30, payout: "0.30" },
            { name: "Level 10", points: 50, payout: "0.50" },
          ],
        }
      : { points: coins, payout: (coins / 100).toFixed(2) }),
  };
});

const LOOTABLY_OFFERS = [
  {
    offerID: "lb-7a",
    name: "Reach level 10 in Tower Clash",
    description: "Install and reach level 10",
    currencyReward: 450,
    revenue: 4.5,
    categories: ["game"],
    goals: [{ goalID: "g1" }, { goalID: "g2" }, { goalID: "g3" }],
    link: "https://api.lootably.example/click?offer=lb-7a&user={userID}",
  },
  {
    offerID: "lb-8",
    name: "Try Budget Buddy",
    description: "Install and open",
    currencyReward: 200,
    revenue: 2,
    categories: ["app"],
    link: "https://api.lootably.example/click?offer=lb-8&user={userID}",
  },
];

/** The page's text with React's separators between neighbouring texts taken out. */
async function earnPage(client: HttpClient): Promise<string> {
  const response = await client.get("/earn");
  expect(response.status).toBe(200);
  return (await response.text()).replaceAll("<!-- -->", "");
}

/** One section of the page, by its heading's id. */
function section(page: string, headingId: string): string {
  const start = page.indexOf(`aria-labelledby="${headingId}"`);
  expect(start, headingId).toBeGreaterThan(-1);
  return page.slice(start, page.indexOf("</section>", start));
}

/** A section's offer links, in order. */
const offerLinks = (html: string) =>
  [...html.matchAll(/href="\/earn\/walls\/([a-z]+)\/offers\/([^"]+)"/g)].map((match) => `${match[1]}/${match[2]}`);

/** A wall card's text (its link and everything in it). */
function wallCard(page: string, name: string): string {
  const walls = section(page, "offer-walls");
  const start = walls.indexOf(`href="/earn/walls/${name}"`);
  expect(start, name).toBeGreaterThan(-1);
  return walls.slice(start, walls.indexOf("</a>", start)).replace(/<[^>]+>/g, "");
}

describe("featured offers and wall cards in Earn, from stand-ins of AdGate's and Lootably's catalogues", () => {
  let app: PostgresApp;
  let adgate: Awaited<ReturnType<typeof startAdgateOffersApi>>;
  let lootably: Awaited<ReturnType<typeof startLootablyOffersApi>>;
  let client: HttpClient;
  let wallId: string;

  beforeAll(async () => {
    adgate = await startAdgateOffersApi();
    adgate.state.catalogue = [...ADGATE_OFFERS];
    lootably = await startLootablyOffersApi();
    lootably.state.catalogue = [...LOOTABLY_OFFERS];
    app = await startPostgresApp({
      WALL_ADGATE_ENABLED: "true",
      WALL_ADGATE_WALL_CODE: "nq6Upw",
      WALL_ADGATE_POSTBACK_TOKEN: "adgate-token-0123456789",
      WALL_ADGATE_ALLOWED_ADDRESSES: "127.0.0.1",
      WALL_ADGATE_AFFILIATE_ID: "60000",
      WALL_ADGATE_API_KEY: "adgate-offers-api-key-1",
      WALL_ADGATE_OFFERS_API_URL: adgate.url,
      WALL_LOOTABLY_ENABLED: "true",
      WALL_LOOTABLY_PLACEMENT_ID: "pl-1",
      WALL_LOOTABLY_POSTBACK_SECRET: "lootably-postback-secret-1",
      WALL_LOOTABLY_ALLOWED_ADDRESSES: "127.0.0.1",
      WALL_LOOTABLY_API_KEY: "lootably-api-key-1",
      WALL_LOOTABLY_OFFERS_API_URL: lootably.url,
      // A wall without an offers API: its card says what the network is for.
      WALL_BITLABS_ENABLED: "true",
      WALL_BITLABS_APP_TOKEN: "bitlabs-app-token-1",
      WALL_BITLABS_APP_SECRET: "bitlabs-app-secret-1",
      // Catalogues and typical payouts are read again every second here.
      OFFER_REFRESH_SECONDS: "1",
    });
    const signedUp = await app.signUp();
    client = signedUp.client;
    const [row] = await app.sql<{ wall_id: string }>("select wall_id from user_profiles where email = $1", [
      signedUp.email,
    ]);
    wallId = row!.wall_id;
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await adgate?.close();
    await lootably?.close();
  });

  it("Earn leads with four featured offers, badged ones first then by coins, two at most from one wall; the top tenth by coins is 'High paying' and nothing of the walls' first listing is 'New'", async () => {
    const page = await earnPage(client);
    // Featured comes before everything else the page lists.
    expect(page.indexOf('id="featured-offers"')).toBeLessThan(page.indexOf('id="offer-walls"'));
    const featured = section(page, "featured-offers");
    // Fourteen offers: the top tenth is the two best-paying (1,200 and 1,100), both AdGate's; a third
    // of AdGate's (1,000) would pass Lootably's two, but one wall fills at most two places.
    expect(offerLinks(featured)).toEqual(["adgate/50012", "adgate/50011", "lootably/lb-7a", "lootably/lb-8"]);
    expect(featured.match(/High paying/g)).toHaveLength(2);
    expect(page).not.toMatch(/>New</);
    expect(featured).toContain("Up to <strong");
    expect(featured.replace(/<[^>]+>/g, "")).toContain("Up to 1,200 coins ($12.00)");
    // Lootably's offer of three goals says its steps; its kind from its categories.
    const towerClash = featured.slice(featured.indexOf("lb-7a"), featured.indexOf("lb-8")).replace(/<[^>]+>/g, "");
    expect(towerClash).toContain("Up to 450 coins ($4.50)");
    expect(towerClash).toContain("Game");
    expect(towerClash).toContain("3 steps");
    expect(towerClash).toContain("Lootably");
    const budget = featured.slice(featured.indexOf("lb-8")).replace(/<[^>]+>/g, "");
    expect(budget).toContain("App");
    expect(budget).toContain("About 10 min");
    // The clock goes with the time and with nothing else of the line.
    const budgetMarkup = featured.slice(featured.indexOf("lb-8"));
    expect(budgetMarkup).toMatch(/<\/svg>About 10 min/);
    expect(budgetMarkup).not.toMatch(/<\/svg>(App|Lootably)</);
    // The catalogue's URLs stay on the server.
    expect(page).not.toContain(".example/click");
    const seen = await app.sql<{ network: string; listed: number; first: number }>(
      "select network, count(*)::int as listed, count(*) filter (where from_first_listing)::int as first from wall_offers_seen group by network order by network",
    );
    expect(seen).toEqual([
      { network: "adgate", listed: 12, first: 12 },
      { network: "lootably", listed: 2, first: 2 },
    ]);
  });

  it("each wall's card says what it is best for and its typical payout: a catalogue's most listed kinds and median offer; a wall without one, what the network is for and that payouts vary", async () => {
    const page = await earnPage(client);
    // AdGate: eight games, four surveys; the lower middle of 100 … 1,200 coins.
    expect(wallCard(page, "adgate")).toContain("Best for games and surveys");
    expect(wallCard(page, "adgate")).toContain("Typical payout 600 coins ($6.00)");
    expect(wallCard(page, "lootably")).toContain("Best for games and apps");
    expect(wallCard(page, "lootably")).toContain("Typical payout 200 coins ($2.00)");
    expect(wallCard(page, "bitlabs")).toContain("Best for surveys");
    expect(wallCard(page, "bitlabs")).toContain("Payouts vary by offer");
  });

  it("an offer a catalogue lists after the first listing is 'New' (noted once in the database) and, paying the most, leads the featured offers", async () => {
    adgate.state.catalogue = [
      ...ADGATE_OFFERS,
      {
        id: 50013,
        name: "Offer 50013",
        anchor: "Brand new survey panel",
        description: "Join and answer",
        click_url: "https://wall.adgaterewards.example/click/50013?s1=",
        categories: ["Surveys"],
        points: 2000,
        payout: "20.00",
      },
    ];
    await wait(1_100);
    const featured = section(await earnPage(client), "featured-offers");
    // New and high paying first; the top tenth of fifteen is now 2,000 and 1,200.
    expect(offerLinks(featured)).toEqual(["adgate/50013", "adgate/50012", "lootably/lb-7a", "lootably/lb-8"]);
    const newest = featured.slice(featured.indexOf("50013"), featured.indexOf("50012"));
    expect(newest).toContain(">New<");
    expect(newest).toContain(">High paying<");
    expect(featured.match(/>New</g)).toHaveLength(1);
    const [row] = await app.sql<{ from_first_listing: boolean; fresh: boolean }>(
      "select from_first_listing, first_seen_at > now() - interval '1 minute' as fresh from wall_offers_seen where network = 'adgate' and offer_id = '50013'",
    );
    expect(row).toEqual({ from_first_listing: false, fresh: true });
  });

  it("from 20 credits in the last 30 days a wall's typical payout is their median, not its catalogue's", async () => {
    // Twenty AdGate postbacks for this person, paying 10, 20, … 200 coins: the median is 100.
    for (let index = 1; index <= 20; index += 1) {
      const query = new URLSearchParams({
        token: "adgate-token-0123456789",
        conversion_id: `typical-${index}`,
        user_id: wallId,
        points: String(index * 10),
        payout: (index / 10).toFixed(2),
        state: "approved",
      });
      const response = await fetch(`${app.url}/api/adgate/postback?${query}`);
      expect([response.status, await response.text()], `postback ${index}`).toEqual([200, "OK"]);
      if (index === 19) {
        // Nineteen credits say nothing yet: still the catalogue's median (now of thirteen offers).
        await wait(1_100);
        expect(wallCard(await earnPage(client), "adgate")).toContain("Typical payout 700 coins ($7.00)");
      }
    }
    await wait(1_100);
    expect(wallCard(await earnPage(client), "adgate")).toContain("Typical payout 100 coins ($1.00)");
  }, 30_000);

  it("an offer the person was credited for (AdGate names it by the title its wall shows) is not featured to them again, and the next one takes its place; another person still sees it", async () => {
    const before = offerLinks(section(await earnPage(client), "featured-offers"));
    expect(before).toEqual(["adgate/50013", "adgate/50012", "lootably/lb-7a", "lootably/lb-8"]);
    const query = new URLSearchParams({
      token: "adgate-token-0123456789",
      conversion_id: "featured-done-1",
      user_id: wallId,
      points: "1200",
      payout: "12.00",
      state: "approved",
      // {vc_title}, as AdGate's wall showed it: the catalogue's anchor, whatever the case.
      offer_title: "ADGATE OFFER 50012",
    });
    const response = await fetch(`${app.url}/api/adgate/postback?${query}`);
    expect([response.status, await response.text()]).toEqual([200, "OK"]);

    expect(offerLinks(section(await earnPage(client), "featured-offers"))).toEqual([
      "adgate/50013",
      "adgate/50011",
      "lootably/lb-7a",
      "lootably/lb-8",
    ]);
    const someoneElse = (await app.signUp()).client;
    expect(offerLinks(section(await earnPage(someoneElse), "featured-offers"))).toEqual(before);
  });
});
