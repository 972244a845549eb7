import { expect, test } from "@playwright/test";
import { newMember } from "../support/console";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { openBeforeScripts, settled, signInOverHttp } from "./support";

// Withdraw before its scripts run (a slow phone; docs/decisions/101 and 105), on an app of its own
// with a rupee rate in force: what the person chose and typed on the server's page is kept once the
// page is live. JavaScript only: without it there is no moment before the scripts run.
let app: PostgresApp;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  app = await startPostgresApp();
  await app.sql("select apply_app_config_patch('{\"usd_inr_rate\": 83.25}', 'Ana Owner', null, 'e2e')");
});
test.afterAll(async () => {
  await app?.stop();
});

test("UPI chosen and an amount typed before Withdraw's scripts ran stay chosen and typed once they run, with the rupees beside", async ({
  page,
}) => {
  const person = await newMember(app);
  await app.sql("select record_email_verified($1)", [person.uid]);
  await app.sql("select add_user_coins($1, 1000)", [person.uid]);
  await signInOverHttp(page, person.email, "s3cret-pass", app.url);
  const scripts = await openBeforeScripts(page, new URL("/withdraw", app.url).href);
  const upi = page.getByRole("radio", { name: /UPI \(India\)/ });
  const paypal = page.getByRole("radio", { name: /PayPal/ });
  await page.locator("label").filter({ hasText: "UPI (India)" }).click();
  await page.getByLabel("Amount (USD)").fill("5");
  await expect(upi).toBeChecked();
  scripts.release();
  await settled(page);
  // The early choice is told to React once the page is live (docs/decisions/105): the default that
  // the person left (PayPal) is not chosen again over it.
  await expect(upi).toBeChecked();
  await expect(paypal).not.toBeChecked();
  await expect(page.getByLabel("UPI ID")).toBeVisible();
  await expect(page.getByLabel("PayPal email")).toBeHidden();
  await expect(page.getByLabel("Amount (USD)")).toHaveValue("5");
  await expect(page.getByTestId("rupees-beside")).toHaveText(
    "≈ ₹416.25 Paid in rupees at $1\u00a0=\u00a0₹83.25, fixed when you send the request.",
  );
});
