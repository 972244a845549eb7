import http from "node:http";
import { expect, test } from "@playwright/test";
import { signUpDirect } from "../support/emulator";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { ADGATE_CATALOGUE, startAdgateOffersApi } from "../support/wall-offer-apis";
import { screenshotsAtWidths, signInOverHttp, uniqueEmail } from "./support";

// Offer images in a browser, JavaScript on and off (issue 39, point 7; docs/decisions/099): Earn's
// offers from AdGate show their images, loaded from the app's own route under the pages' policy of
// images from 'self' only; one the route will not serve shows the app's own drawing.

/** A valid 1 × 1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

let app: PostgresApp;
let adgate: Awaited<ReturnType<typeof startAdgateOffersApi>>;
let images: http.Server;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  images = http.createServer((request, response) => {
    if (request.url === "/icon.png") response.writeHead(200, { "content-type": "image/png" }).end(PNG);
    else response.writeHead(200, { "content-type": "text/html" }).end("<p>not an image</p>");
  });
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  const { port } = images.address() as { port: number };
  adgate = await startAdgateOffersApi();
  adgate.state.catalogue = [
    { ...ADGATE_CATALOGUE[0], creatives: { icon: `http://127.0.0.1:${port}/icon.png` } },
    { ...ADGATE_CATALOGUE[1], creatives: { icon: `http://127.0.0.1:${port}/page.html` } },
  ];
  app = await startPostgresApp({
    WALL_ADGATE_ENABLED: "true",
    WALL_ADGATE_WALL_CODE: "nq6Upw",
    WALL_ADGATE_POSTBACK_TOKEN: "adgate-token-0123456789",
    WALL_ADGATE_AFFILIATE_ID: "60000",
    WALL_ADGATE_API_KEY: "adgate-offers-api-key-1",
    WALL_ADGATE_OFFERS_API_URL: adgate.url,
    OFFER_IMAGE_HTTP_HOSTS: "127.0.0.1",
  });
});
test.afterAll(async () => {
  await app?.stop();
  await adgate?.close();
  await new Promise((resolve) => images?.close(resolve));
});

test("Earn shows AdGate's offers with their images from the app's own route, and the app's drawing for one it will not serve", async ({
  page,
}) => {
  const email = uniqueEmail("images");
  await signUpDirect(email, "images-password");
  await signInOverHttp(page, email, "images-password", app.url);
  const blocked: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  await page.goto(`${app.url}/earn`);
  const list = page.getByRole("list", { name: "Offers from AdGate Media" });
  const pictures = list.locator("img");
  await expect(pictures).toHaveCount(2);
  for (const picture of await pictures.all()) {
    await picture.scrollIntoViewIfNeeded();
    expect(await picture.getAttribute("src")).toMatch(/^\/offer-images\/[A-Za-z0-9_-]{22}$/);
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  }
  expect(blocked).toEqual([]);
  await screenshotsAtWidths(page, "earn-offer-images", () => list.scrollIntoViewIfNeeded());
});
