import { expect, test } from "@playwright/test";
import { newOperator } from "../support/console";
import { signUpDirect } from "../support/emulator";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { screenshot, screenshotsAtWidths, signInOverHttp, uniqueEmail } from "./support";

// Promo codes in a browser, JavaScript on and off (issue 39, point 4; docs/decisions/095): a finance
// operator makes a code in the console, a person redeems it on Earn (after a code that does not
// exist is refused under the field), and the console shows its use.
let app: PostgresApp;
let finance: { email: string; uid: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  app = await startPostgresApp();
  finance = await newOperator(app, "finance");
});
test.afterAll(() => app?.stop());

test("finance makes a code in the console; a person redeems it on Earn and a wrong one is refused with why", async ({
  browser,
  page,
  javaScriptEnabled,
}, testInfo) => {
  const code = `E2E${javaScriptEnabled ? "ON" : "OFF"}${Date.now().toString(36).toUpperCase()}`.slice(0, 20);
  const today = new Date().toISOString().slice(0, 10);
  const nextWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

  await signInOverHttp(page, finance.email, "s3cret-pass", app.url);
  await page.goto(`${app.url}/admin/codes`);
  const make = page.getByTestId("form-create-code");
  await make.getByLabel("Code", { exact: true }).fill(code.toLowerCase());
  await make.getByLabel("Coins").fill("40");
  await make.getByLabel("How many people can use it").fill("2");
  await make.getByLabel("First day (UTC)").fill(today);
  await make.getByLabel("Last day (UTC)").fill(nextWeek);
  await make.getByLabel("Reason").fill("Launch week");
  await make.getByRole("button", { name: "Make code" }).click();
  await expect(page.getByText(`Code ${code} made`)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: code });
  await expect(row).toContainText("live");
  await expect(row).toContainText("0 of 2");
  await screenshotsAtWidths(page, "console-codes");

  const person = await browser.newContext({
    ...testInfo.project.use,
    javaScriptEnabled,
  });
  const phone = await person.newPage();
  const email = uniqueEmail("promo");
  await signUpDirect(email, "promo-password");
  await signInOverHttp(phone, email, "promo-password", app.url);
  await phone.goto(`${app.url}/earn`);
  const field = phone.getByLabel("Have a promo code?");
  await field.fill("NOSUCHCODE1");
  await phone.getByRole("button", { name: "Redeem" }).click();
  await expect(phone.getByText("That code does not exist. Check how it is spelled.")).toBeVisible();
  await expect(phone.getByLabel("Have a promo code?")).toHaveValue("NOSUCHCODE1");
  await expect(phone.getByLabel("Have a promo code?")).toHaveAttribute("aria-invalid", "true");
  await screenshotsAtWidths(phone, "earn-code-refused", () =>
    phone.getByLabel("Have a promo code?").scrollIntoViewIfNeeded(),
  );
  await phone.getByLabel("Have a promo code?").fill(code.toLowerCase());
  await phone.getByRole("button", { name: "Redeem" }).click();
  await expect(phone.getByText("Code redeemed")).toBeVisible();
  await expect(phone.getByText(`${code} gave you 40 coins ($0.40) — available to withdraw.`)).toBeVisible();
  await screenshot(phone, "earn-code-redeemed");
  await person.close();

  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: code })).toContainText("1 of 2");
  await expect(page.getByRole("row").filter({ hasText: code })).toContainText("$0.40");
});
