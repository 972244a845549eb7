import { expect, test } from "@playwright/test";
import { cashOutOf } from "../support/console";
import { signUpDirect } from "../support/emulator";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { screenshotsAtWidths, settled, signInOverHttp, uniqueEmail } from "./support";

// Recent cash-outs in a browser, JavaScript on and off (issue 39, point 5; docs/decisions/098): Home
// and Withdraw show the feed; with JavaScript a cash-out paid while Home is open appears without a
// reload; Settings leaves the list. On an app that reads the feed again every second.
let app: PostgresApp;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  app = await startPostgresApp({ CASHOUT_FEED_REFRESH_SECONDS: "1" });
});
test.afterAll(() => app?.stop());

async function paidCashOut(dollars: number) {
  const owner = await cashOutOf(app, dollars, { method: "upi", upiId: `e2e.${Date.now().toString(36)}@okaxis` });
  if (owner.reviewState === "review")
    await app.sql("select approve_withdrawals(jsonb_build_array($1::text), 'test')", [owner.id]);
  await app.sql("select settle_withdrawal($1, 'completed', 'UTR-E2E')", [owner.id]);
  return owner;
}

test("Home and Withdraw show recent cash-outs; with JavaScript a new one appears while Home is open; Settings leaves the list", async ({
  page,
  javaScriptEnabled,
}) => {
  const dollars = javaScriptEnabled ? 21 : 22;
  await paidCashOut(dollars);
  const email = uniqueEmail("feed");
  await signUpDirect(email, "feed-password");
  await signInOverHttp(page, email, "feed-password", app.url);
  if (javaScriptEnabled) await settled(page);
  const feed = page.locator("section", { has: page.getByRole("heading", { name: "Recent cash-outs" }) });
  await expect(feed.getByText(`cashed out $${dollars}.00 by UPI`)).toBeVisible();
  await screenshotsAtWidths(page, "home-cashout-feed", () => feed.scrollIntoViewIfNeeded());

  if (javaScriptEnabled) {
    // Paid while the page is open: the events channel brings it, no reload.
    await paidCashOut(23);
    await expect(feed.getByText("cashed out $23.00 by UPI")).toBeVisible({ timeout: 15_000 });
  }

  await page.goto(`${app.url}/withdraw`);
  await expect(feed.getByText(`cashed out $${dollars}.00 by UPI`)).toBeVisible();
  await screenshotsAtWidths(page, "withdraw-cashout-feed", () => feed.scrollIntoViewIfNeeded());

  await page.goto(`${app.url}/settings`);
  const choice = page.locator("#cashout-feed");
  await screenshotsAtWidths(page, "settings-cashout-feed", () => choice.scrollIntoViewIfNeeded());
  await choice.getByRole("button", { name: "Leave Recent cash-outs" }).click();
  await expect(page.getByText("You left Recent cash-outs")).toBeVisible();
  await expect(choice.getByRole("button", { name: "Show mine in Recent cash-outs" })).toBeVisible();
});
