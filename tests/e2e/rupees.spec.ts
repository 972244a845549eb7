import { expect, test } from "@playwright/test";
import { newMember } from "../support/console";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { screenshot, screenshotsAtWidths, signInOverHttp } from "./support";

// Rupees for UPI users (issue 37, point 3; docs/decisions/087), with JavaScript on and off, on an
// app of its own with a rupee rate in force: Withdraw shows the UPI minimum in both monies and,
// with UPI chosen, the rupees beside the amount (as it is typed, with JavaScript; the rate without);
// the history says the rupees the request fixed.
let app: PostgresApp;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  app = await startPostgresApp();
  await app.sql("select apply_app_config_patch('{\"usd_inr_rate\": 83.25}', 'Ana Owner', null, 'e2e')");
});
test.afterAll(async () => {
  await app?.stop();
});

test("a UPI cash-out shows its rupees beside the dollars, fixes them when sent, and the history says them", async ({
  page,
  javaScriptEnabled,
}) => {
  const person = await newMember(app);
  await app.sql("select record_email_verified($1)", [person.uid]);
  await app.sql("select add_user_coins($1, 1000)", [person.uid]);
  await signInOverHttp(page, person.email, "s3cret-pass", app.url);
  await page.goto(new URL("/withdraw", app.url).href);

  const upi = page.locator("label").filter({ hasText: "UPI (India)" });
  await expect(upi).toContainText("Min. $1.00 (≈ ₹83.25)");
  const rupees = page.getByTestId("rupees-beside");
  // PayPal chosen: no rupees.
  await page
    .locator("label")
    .filter({ hasText: /^PayPalMin/ })
    .click();
  await expect(rupees).toBeHidden();
  await upi.click();
  await expect(rupees).toHaveText("Paid in rupees at $1\u00a0=\u00a0₹83.25, fixed when you send the request.");
  await page.getByLabel("Amount (USD)").fill("5");
  if (javaScriptEnabled)
    await expect(rupees).toHaveText(
      "≈ ₹416.25 Paid in rupees at $1\u00a0=\u00a0₹83.25, fixed when you send the request.",
    );
  await page.getByLabel("UPI ID").fill("payee@okaxis");
  await screenshotsAtWidths(page, "withdraw-upi-rupees");
  await page.getByRole("button", { name: "Withdraw Funds" }).click();
  await expect(page.getByText("Your $5.00 withdrawal has been initiated.")).toBeVisible();

  await page.getByRole("link", { name: "History" }).click();
  await expect(page.getByText("₹416.25 to be sent")).toBeVisible();
  await screenshot(page, "withdraw-history-rupees");
});
