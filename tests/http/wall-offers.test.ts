import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpClient } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startAdgateOffersApi, startLootablyOffersApi } from "../support/wall-offer-apis";

// The offer walls' catalogues (docs/offer-walls.md, "Offers in Earn"): AdGate's Offers API v3 and
// Lootably's Catalogue API, answered by local stand-ins speaking their protocols, listed in Earn
// and opened through the app's redirect with the person's wall id.

const ADGATE_KEY = "adgate-offers-api-key-1";
const LOOTABLY_KEY = "lootably-api-key-1";
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function person(app: PostgresApp): Promise<{ uid: string; wallId: string; client: HttpClient }> {
  const { email, client } = await app.signUp();
  const [row] = await app.sql<{ id: string; wall_id: string }>(
    "select id, wall_id from user_profiles where email = $1",
    [email],
  );
  return { uid: row!.id, wallId: row!.wall_id, client };
}

const WALLS = {
  WALL_ADGATE_ENABLED: "true",
  WALL_ADGATE_WALL_CODE: "nq6Upw",
  WALL_ADGATE_POSTBACK_TOKEN: "adgate-token-0123456789",
  WALL_LOOTABLY_ENABLED: "true",
  WALL_LOOTABLY_PLACEMENT_ID: "pl-1",
  WALL_LOOTABLY_POSTBACK_SECRET: "lootably-postback-secret-1",
  WALL_LOOTABLY_ALLOWED_ADDRESSES: "127.0.0.1",
  // A catalogue is refreshed every second here, so a test can make a refresh fail.
  OFFER_REFRESH_SECONDS: "1",
};

describe("offer walls' offers: AdGate and Lootably catalogues listed in Earn, from stand-ins of their APIs", () => {
  let app: PostgresApp;
  let adgate: Awaited<ReturnType<typeof startAdgateOffersApi>>;
  let lootably: Awaited<ReturnType<typeof startLootablyOffersApi>>;
  let member: Awaited<ReturnType<typeof person>>;

  beforeAll(async () => {
    adgate = await startAdgateOffersApi();
    lootably = await startLootablyOffersApi();
    app = await startPostgresApp({
      ...WALLS,
      WALL_ADGATE_AFFILIATE_ID: "60000",
      WALL_ADGATE_API_KEY: ADGATE_KEY,
      WALL_ADGATE_OFFERS_API_URL: adgate.url,
      WALL_LOOTABLY_API_KEY: LOOTABLY_KEY,
      WALL_LOOTABLY_OFFERS_API_URL: lootably.url,
    });
    member = await person(app);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await adgate?.close();
    await lootably?.close();
  });

  it("Earn lists each network's offers with their coins and dollars, leaves out those worth no whole coin, and keeps click URLs on the server", async () => {
    const response = await member.client.get("/earn");
    expect(response.status).toBe(200);
    // React separates neighbouring text with <!-- -->.
    const page = (await response.text()).replaceAll("<!-- -->", "");
    expect(page).toContain("Offers from AdGate Media");
    expect(page).toContain("Offers from Lootably");
    // Each wall's own list (the featured offers above them link to the same routes).
    const lists = page.slice(page.indexOf('id="wall-offers-'));
    const links = [...lists.matchAll(/href="(\/earn\/walls\/[a-z]+\/offers\/[^"]+)"/g)].map((match) => match[1]);
    expect(links).toEqual([
      "/earn/walls/adgate/offers/41001",
      "/earn/walls/adgate/offers/41002",
      "/earn/walls/lootably/offers/lb-7a",
    ]);
    expect(page).toMatch(/Install Chess Pro[\s\S]*?\+300 coins[\s\S]*?\$3\.00/);
    // Its events' points together.
    expect(page).toMatch(/Daily Survey[\s\S]*?\+100 coins[\s\S]*?\$1\.00/);
    // 450.75 coins: the whole ones, as its postback pays them.
    expect(page).toMatch(/Reach level 10 in Tower Clash[\s\S]*?\+450 coins[\s\S]*?\$4\.50/);
    expect(page).not.toContain("Free Trial");
    expect(page).not.toContain("Shop and earn");
    expect(page).not.toContain(".example/click");
  });

  it("the stand-ins saw the credentials: AdGate's aff, api_key and wall_code in the query; Lootably's placementID and apiKey in a JSON POST body, with no user data", () => {
    const query = adgate.state.queries[0]!;
    expect(Object.fromEntries(query)).toEqual({ aff: "60000", api_key: ADGATE_KEY, wall_code: "nq6Upw" });
    const request = lootably.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request.body)).toEqual({ placementID: "pl-1", apiKey: LOOTABLY_KEY });
  });

  it("an offer's link redirects to the network's click URL carrying the person's wall id, not their account id, and pays nothing", async () => {
    const location = async (path: string) => {
      const response = await member.client.get(path);
      expect(response.status).toBe(302);
      return response.headers.get("location") ?? "";
    };
    expect(await location("/earn/walls/adgate/offers/41001")).toBe(
      `https://wall.adgaterewards.example/click/41001?wall=nq6Upw&s1=${member.wallId}`,
    );
    expect(await location("/earn/walls/adgate/offers/41002")).toBe(
      `https://wall.adgaterewards.example/click/41002?wall=nq6Upw&s1=${member.wallId}`,
    );
    const lootablyUrl = await location("/earn/walls/lootably/offers/lb-7a");
    expect(lootablyUrl).toBe(`https://api.lootably.example/click?offer=lb-7a&placement=pl-1&user=${member.wallId}`);
    expect(lootablyUrl).not.toContain(member.uid);
    expect(
      await app.sql("select 1 from transaction_history where user_id = $1 and transaction_type = 'postback'", [
        member.uid,
      ]),
    ).toEqual([]);
  });

  it("a signed-out visitor is sent to sign in; an unknown offer, one worth nothing and a network without offers answer the app's 404 page", async () => {
    const signedOut = await fetch(`${app.url}/earn/walls/adgate/offers/41001`, { redirect: "manual" });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe("/auth?redirectTo=%2Fearn%2Fwalls%2Fadgate%2Foffers%2F41001");
    for (const path of [
      "/earn/walls/adgate/offers/99999",
      "/earn/walls/adgate/offers/41003",
      "/earn/walls/lootably/offers/lb-7b",
      "/earn/walls/bitlabs/offers/1",
    ]) {
      const response = await member.client.get(path);
      expect(response.status, path).toBe(404);
      const page = await response.text();
      expect(page, path).toContain("Oops! Page not found");
      // In the app shell: its bottom bar.
      expect(page, path).toContain('href="/earn"');
    }
  });

  // No timer in the test: an app that waited on the stalled wall would never answer (the test's own
  // limit fails it); the log shows that the app's timeout, not an answer, ended Lootably's call.
  it("while AdGate answers 500 and Lootably stalls, Earn renders 200 once its own timeout gives up on Lootably, with their last good offers, and logs each failure", async () => {
    const seen = { adgate: adgate.requests.length, lootably: lootably.requests.length };
    adgate.state.mode = "failing";
    lootably.state.mode = "stalling";
    try {
      await wait(1_100);
      const response = await member.client.get("/earn");
      expect(response.status).toBe(200);
      const page = await response.text();
      expect(page).toContain("Install Chess Pro");
      expect(page).toContain("Reach level 10 in Tower Clash");
      expect(adgate.requests.length).toBeGreaterThan(seen.adgate);
      expect(lootably.requests.length).toBeGreaterThan(seen.lootably);
      expect(app.stderr()).toContain("offer wall adgate, offers API, attempt 1: answered 500");
      expect(app.stderr()).toMatch(/offer wall lootably, offers API, attempt 1: .*(abort|timeout)/i);
      // The last good list still opens its offers.
      expect((await member.client.get("/earn/walls/lootably/offers/lb-7a")).status).toBe(302);
    } finally {
      adgate.state.mode = "ok";
      lootably.state.mode = "ok";
    }
  }, 30_000);

  it("the networks' own refusals (AdGate's status error, Lootably's success: false) are failures too: the last good offers stay, the log says why", async () => {
    adgate.state.mode = "refusing";
    lootably.state.mode = "refusing";
    try {
      await wait(1_100);
      const page = await (await member.client.get("/earn")).text();
      expect(page).toContain("Install Chess Pro");
      expect(page).toContain("Reach level 10 in Tower Clash");
      expect(app.stderr()).toContain("offer wall adgate, offers API, attempt 1: an answer not in the documented shape");
      expect(app.stderr()).toContain(
        "offer wall lootably, offers API, attempt 1: Lootably refused the request: Invalid API key.",
      );
    } finally {
      adgate.state.mode = "ok";
      lootably.state.mode = "ok";
    }
  }, 30_000);
});

describe("offer walls' offers: unreadable answers and a missing optional key", () => {
  let app: PostgresApp;
  let adgate: Awaited<ReturnType<typeof startAdgateOffersApi>>;
  let lootably: Awaited<ReturnType<typeof startLootablyOffersApi>>;
  let member: Awaited<ReturnType<typeof person>>;

  beforeAll(async () => {
    adgate = await startAdgateOffersApi();
    adgate.state.mode = "unparsable";
    lootably = await startLootablyOffersApi();
    app = await startPostgresApp({
      ...WALLS,
      WALL_ADGATE_AFFILIATE_ID: "60000",
      WALL_ADGATE_API_KEY: ADGATE_KEY,
      WALL_ADGATE_OFFERS_API_URL: adgate.url,
      // No WALL_LOOTABLY_API_KEY: the wall without its offers.
      WALL_LOOTABLY_OFFERS_API_URL: lootably.url,
    });
    member = await person(app);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await adgate?.close();
    await lootably?.close();
  });

  it("AdGate answering JSON that does not parse, then JSON in another shape: Earn renders 200 listing none of its offers, and the log says why", async () => {
    const first = await member.client.get("/earn");
    expect(first.status).toBe(200);
    const firstPage = await first.text();
    expect(firstPage).not.toContain("Offers from AdGate Media");
    expect(firstPage).toContain('href="/earn/walls/adgate"');
    expect(app.stderr()).toMatch(/offer wall adgate, offers API, attempt 1: .*JSON/);

    adgate.state.mode = "wrong-shape";
    await wait(1_100);
    const second = await member.client.get("/earn");
    expect(second.status).toBe(200);
    expect(await second.text()).not.toContain("Offers from AdGate Media");
    expect(app.stderr()).toContain("offer wall adgate, offers API, attempt 1: an answer not in the documented shape");
    expect((await member.client.get("/earn/walls/adgate/offers/41001")).status).toBe(404);
  }, 30_000);

  it("Lootably without its API key: no offers listed and its API never asked, while its wall still opens", async () => {
    const page = await (await member.client.get("/earn")).text();
    expect(page).toContain('href="/earn/walls/lootably"');
    expect(page).not.toContain("Offers from Lootably");
    expect((await member.client.get("/earn/walls/lootably")).status).toBe(200);
    expect((await member.client.get("/earn/walls/lootably/offers/lb-7a")).status).toBe(404);
    expect(lootably.requests).toEqual([]);
  });
});
