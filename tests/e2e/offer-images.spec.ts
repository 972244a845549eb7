import http from "node:http";
import { expect, test } from "@playwright/test";
import { signUpDirect } from "../support/emulator";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { ADGATE_CATALOGUE, startAdgateOffersApi } from "../support/wall-offer-apis";
import { screenshotsAtWidths, signInOverHttp, uniqueEmail } from "./support";

// Offer images and featured offers in a browser, JavaScript on and off (issue 39, point 7;
// docs/decisions/099 and 100): Earn's offers from AdGate show their images, loaded from the app's
// own route under the pages' policy of images from 'self' only; one the route will not serve shows
// the app's own drawing. The featured offers lead the page; the wall's card says what it is for.

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
    { ...ADGATE_CATALOGUE[0], categories: ["iOS", "Games"], creatives: { icon: `http://127.0.0.1:${port}/icon.png` } },
    { ...ADGATE_CATALOGUE[1], categories: ["Surveys"], creatives: { icon: `http://127.0.0.1:${port}/page.html` } },
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

test("Earn leads with the featured offers (image, 'Up to N coins ($X)', kind, usual time, the wall) above everything else, each a link to the app's redirect; the wall's card says what it is best for and its typical payout", async ({
  page,
}) => {
  const email = uniqueEmail("featured");
  await signUpDirect(email, "featured-password");
  await signInOverHttp(page, email, "featured-password", app.url);
  await page.goto(`${app.url}/earn`);
  const featured = page.getByRole("list", { name: "Featured offers" });
  const items = featured.getByRole("listitem");
  await expect(items).toHaveCount(2);
  // By coins: 300 before 100.
  await expect(items.nth(0)).toContainText("Install Chess Pro");
  await expect(items.nth(0)).toContainText("Up to 300 coins ($3.00)");
  await expect(items.nth(0)).toContainText("Game");
  await expect(items.nth(0)).toContainText("Days of play");
  await expect(items.nth(0)).toContainText("AdGate Media");
  // Paid in two events: its steps.
  await expect(items.nth(1)).toContainText("Up to 100 coins ($1.00)");
  await expect(items.nth(1)).toContainText("2 steps");
  expect(await items.nth(0).getByRole("link").getAttribute("href")).toBe("/earn/walls/adgate/offers/41001");
  await expect(items.nth(0).locator("img")).toHaveAttribute("src", /^\/offer-images\/[A-Za-z0-9_-]{22}$/);
  // Above the rest of the page: the first of its sections.
  const featuredTop = (await featured.boundingBox())!.y;
  const myOffersTop = (await page.getByRole("link", { name: /My offers/ }).boundingBox())!.y;
  expect(featuredTop).toBeLessThan(myOffersTop);
  const card = page.getByRole("link", { name: /AdGate Media.*Best for/ });
  await expect(card).toContainText("Best for games and surveys");
  await expect(card).toContainText("Typical payout 100 coins ($1.00)");
  await screenshotsAtWidths(page, "earn-featured", () => page.evaluate(() => window.scrollTo(0, 0)));
  await screenshotsAtWidths(page, "earn-wall-cards", () => card.scrollIntoViewIfNeeded());
});
