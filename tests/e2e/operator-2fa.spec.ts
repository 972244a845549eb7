import { expect, test } from "@playwright/test";
import { newOperator } from "../support/console";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { stepNow, totp } from "../support/totp";
import { screenshotsAtWidths, signInOverHttp } from "./support";

// The console's authenticator (issue 38, point 2; docs/decisions/093), with JavaScript on and off,
// on an app of its own that asks for it (as every deployment does): an operator's first visit to
// /admin sets it up with a QR code and the typed key, a first code turns it on and shows ten recovery
// codes, and the console opens; a later sign-in asks for a code.
test.describe.configure({ mode: "serial" });

let app: PostgresApp;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  app = await startPostgresApp({ OPERATOR_2FA: "on" });
});
test.afterAll(async () => {
  await app?.stop();
});

test("an operator's first visit sets up the authenticator with a QR code and the key; its first code shows ten recovery codes; the console opens; a new sign-in asks for a code", async ({
  page,
  browser,
}) => {
  const owner = await newOperator(app, "owner");
  await signInOverHttp(page, owner.email, "s3cret-pass", app.url);
  await page.goto(new URL("/admin/withdrawals", app.url).href);
  await expect(page).toHaveURL(/\/admin\/2fa\?redirectTo=%2Fadmin%2Fwithdrawals$/);
  await expect(page.getByRole("heading", { name: "Set up your authenticator" })).toBeVisible();
  const qr = page.getByRole("img", { name: "QR code to scan with your authenticator app" });
  await expect(qr.locator("svg")).toBeVisible();
  expect((await qr.boundingBox())!.width).toBeGreaterThan(150);
  const secret = (await page.getByTestId("totp-secret").textContent())!.replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await screenshotsAtWidths(page, "operator-2fa-enrol");

  const step = stepNow();
  await page.getByLabel("6-digit code").fill(totp(secret, step));
  await page.getByRole("button", { name: "Turn on the authenticator" }).click();
  await expect(page.getByRole("heading", { name: "Save your recovery codes" })).toBeVisible();
  await expect(page.getByTestId("recovery-codes").locator("li")).toHaveCount(10);
  await screenshotsAtWidths(page, "operator-2fa-recovery-codes");
  await page.getByRole("link", { name: "I saved them, continue" }).click();
  await expect(page).toHaveURL(new URL("/admin/withdrawals", app.url).href);
  await expect(page.getByRole("heading", { name: "Withdrawals", exact: false }).first()).toBeVisible();

  // Another browser: the password alone reaches the code step, the next step's code the console.
  const context = await browser.newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled });
  const other = await context.newPage();
  try {
    await signInOverHttp(other, owner.email, "s3cret-pass", app.url);
    await other.goto(new URL("/admin", app.url).href);
    await expect(other.getByRole("heading", { name: "Enter your authenticator code" })).toBeVisible();
    await expect(other.getByTestId("totp-secret")).toHaveCount(0);
    await screenshotsAtWidths(other, "operator-2fa-verify");
    await other.getByLabel("6-digit code").fill(totp(secret, step + 1));
    await other.getByRole("button", { name: "Verify" }).click();
    await expect(other).toHaveURL(new URL("/admin", app.url).href);
  } finally {
    await context.close();
  }
});
