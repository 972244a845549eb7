import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import {
  ADGATE_CATALOGUE,
  LOOTABLY_CATALOGUE,
  startAdgateOffersApi,
  startLootablyOffersApi,
} from "../support/wall-offer-apis";

// The offer walls' images through the app's own route (issue 39, point 7; docs/decisions/099): Earn
// shows each catalogue image as /offer-images/{id}, an id the app gave it; the route fetches only
// what a catalogue lists (never a URL from the request), checks its type by its bytes and its size,
// keeps it, and answers the app's own drawing for anything it would not serve. The catalogues and
// the networks' image server are local stand-ins (plain http allowed to 127.0.0.1 for them alone).

/** A PNG's first bytes, then padding: what the route takes for a PNG. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);

/** The networks' image server: each path answers one way, and every request is counted. */
async function startImageServer() {
  const hits = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const path = request.url ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const send = (type: string, body: Buffer | string) => {
      response.writeHead(200, { "content-type": type });
      response.end(body);
    };
    if (path === "/ok.png" || path === "/popular.png") return send("image/png", PNG);
    if (path === "/page.png") return send("text/html", "<script>alert(1)</script>");
    if (path === "/lying.png") return send("image/png", "<svg onload=alert(1)></svg>");
    if (path === "/icon.svg") return send("image/svg+xml", "<svg xmlns='http://www.w3.org/2000/svg'/>");
    if (path === "/huge.png") return send("image/png", Buffer.concat([PNG, Buffer.alloc(300 * 1024)]));
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    hits: (path: string) => hits.get(path) ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("offer images through the app's own route", () => {
  let app: PostgresApp;
  let images: Awaited<ReturnType<typeof startImageServer>>;
  let adgate: Awaited<ReturnType<typeof startAdgateOffersApi>>;
  let lootably: Awaited<ReturnType<typeof startLootablyOffersApi>>;
  /** Each catalogue offer's image path on the image server, by the offer's title. */
  const IMAGES: Record<string, string> = {
    "Install Chess Pro": "/ok.png",
    "Daily Survey": "/page.png",
  };

  beforeAll(async () => {
    images = await startImageServer();
    adgate = await startAdgateOffersApi();
    lootably = await startLootablyOffersApi();
    adgate.state.catalogue = [
      { ...ADGATE_CATALOGUE[0], creatives: { icon: `${images.url}/ok.png` } },
      { ...ADGATE_CATALOGUE[1], creatives: { icon: `${images.url}/page.png` } },
      { ...ADGATE_CATALOGUE[0], id: 41004, anchor: "Lying icon", creatives: { icon: `${images.url}/lying.png` } },
      { ...ADGATE_CATALOGUE[0], id: 41005, anchor: "Vector icon", creatives: { icon: `${images.url}/icon.svg` } },
      { ...ADGATE_CATALOGUE[0], id: 41006, anchor: "Huge icon", creatives: { icon: `${images.url}/huge.png` } },
    ];
    lootably.state.catalogue = [
      { ...LOOTABLY_CATALOGUE[0], image: "https://127.0.0.1/internal.png" },
      {
        ...LOOTABLY_CATALOGUE[0],
        offerID: "lb-7c",
        name: "Popular offer",
        link: "https://api.lootably.example/click?offer=lb-7c&user={userID}",
        image: `${images.url}/popular.png`,
      },
    ];
    app = await startPostgresApp({
      WALL_ADGATE_ENABLED: "true",
      WALL_ADGATE_WALL_CODE: "nq6Upw",
      WALL_ADGATE_POSTBACK_TOKEN: "adgate-token-0123456789",
      WALL_ADGATE_AFFILIATE_ID: "60000",
      WALL_ADGATE_API_KEY: "adgate-offers-api-key-1",
      WALL_ADGATE_OFFERS_API_URL: adgate.url,
      WALL_LOOTABLY_ENABLED: "true",
      WALL_LOOTABLY_PLACEMENT_ID: "pl-1",
      WALL_LOOTABLY_POSTBACK_SECRET: "lootably-postback-secret-1",
      WALL_LOOTABLY_ALLOWED_ADDRESSES: "127.0.0.1",
      WALL_LOOTABLY_API_KEY: "lootably-api-key-1",
      WALL_LOOTABLY_OFFERS_API_URL: lootably.url,
      OFFER_IMAGE_HTTP_HOSTS: "127.0.0.1",
    });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await adgate?.close();
    await lootably?.close();
    await images?.close();
  });

  /** Earn's image path for the offer with this title. */
  async function imageOf(title: string): Promise<string> {
    const page = (await (await fetch(`${app.url}/earn`)).text()).replaceAll("<!-- -->", "");
    // The last image before the title is the offer's own.
    const item = page.slice(0, page.indexOf(title));
    const match = [...item.matchAll(/src="(\/offer-images\/[A-Za-z0-9_-]{22})"/g)].at(-1);
    if (!match) throw new Error(`no image beside ${title}`);
    return match[1]!;
  }
  const placeholder = async (response: Response) => {
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    const body = await response.text();
    expect(body).toContain('<rect width="48" height="48"');
    expect(body).not.toContain("script");
    expect(body).not.toContain("onload");
  };

  it("shows each listed image in Earn through the app's route, never the network's URL, under a policy of 'self' for images", async () => {
    const response = await fetch(`${app.url}/earn`);
    expect(response.headers.get("content-security-policy")).toContain("img-src 'self'");
    const page = await response.text();
    expect(page).not.toContain(images.url);
    expect(page).not.toContain("127.0.0.1/internal.png");
    expect(await imageOf("Install Chess Pro")).toMatch(/^\/offer-images\//);
  });

  it("serves a listed PNG with its type, checked by its bytes, and keeps it: a second request does not reach the network", async () => {
    const path = await imageOf("Install Chess Pro");
    const first = await fetch(`${app.url}${path}`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/png");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("content-security-policy")).toContain("sandbox");
    expect(Buffer.from(await first.arrayBuffer()).equals(PNG)).toBe(true);
    expect(images.hits(IMAGES["Install Chess Pro"]!)).toBe(1);
    const second = await fetch(`${app.url}${path}`);
    expect(Buffer.from(await second.arrayBuffer()).equals(PNG)).toBe(true);
    expect(images.hits("/ok.png")).toBe(1);
  });

  it("answers its own drawing for an image that is a page, bytes that lie about their type, an SVG, or one too big", async () => {
    for (const title of ["Daily Survey", "Lying icon", "Vector icon", "Huge icon"]) {
      await placeholder(await fetch(`${app.url}${await imageOf(title)}`));
    }
  });

  it("does not fetch an https image on an address of this machine's network", async () => {
    await placeholder(await fetch(`${app.url}${await imageOf("Reach level 10 in Tower Clash")}`));
  });

  it("fetches an image once when ten requests for it arrive together", async () => {
    const path = await imageOf("Popular offer");
    const answers = await Promise.all(Array.from({ length: 10 }, () => fetch(`${app.url}${path}`)));
    for (const answer of answers) expect(Buffer.from(await answer.arrayBuffer()).equals(PNG)).toBe(true);
    expect(images.hits("/popular.png")).toBe(1);
  });

  it("answers 404 for an id no catalogue lists, and takes no URL from the request", async () => {
    const unknown = await fetch(`${app.url}/offer-images/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(unknown.status).toBe(404);
    const before = images.hits("/ok.png");
    const named = await fetch(
      `${app.url}/offer-images/AAAAAAAAAAAAAAAAAAAAAA?url=${encodeURIComponent(`${images.url}/ok.png`)}`,
    );
    expect(named.status).toBe(404);
    expect((await fetch(`${app.url}/offer-images/..%2F..%2Fetc`)).status).toBe(404);
    expect(images.hits("/ok.png")).toBe(before);
  });
});
