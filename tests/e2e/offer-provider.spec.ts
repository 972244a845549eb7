import { expect, test } from "@playwright/test";
import { startTestApp } from "../support/app-server";
import { signUpDirect } from "../support/emulator";
import { signedPostbackQuery, startOfferProvider } from "../support/offer-provider";
import { screenshot, signInOverHttp, uniqueEmail } from "./support";

// With JavaScript on and off, on an app of its own with an offer provider (a local stand-in):
// a provider offer finished in the app waits for the provider's postback, which pays it.
const SECRET = "postback-secret-for-e2e-tests";

let provider: Awaited<ReturnType<typeof startOfferProvider>>;
let providerApp: Awaited<ReturnType<typeof startTestApp>>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  provider = await startOfferProvider();
  providerApp = await startTestApp({
    OFFER_PROVIDER: "acme",
    OFFER_PROVIDER_API_URL: provider.url,
    OFFER_POSTBACK_SECRET: SECRET,
  });
});

test.afterAll(async () => {
  await providerApp?.stop();
  await provider?.close();
});

test("a provider offer completed in the app shows Waiting for confirmation and pays nothing until the provider's postback", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = uniqueEmail("offer");
  const { localId } = await signUpDirect(email, "offer-password");
  await signInOverHttp(page, email, "offer-password", providerApp.url);

  await page.goto(new URL("/earn", providerApp.url).href);
  const row = page.getByRole("link", { name: /Install Chess Pro/ });
  await row.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("300 coins")).toBeVisible();
  await dialog.getByRole("button", { name: "Start Task" }).click();
  if (!javaScriptEnabled) {
    await expect(dialog.getByRole("button", { name: "Complete Task" })).toBeVisible();
    await page.waitForTimeout(5_200);
    await dialog.getByRole("button", { name: "Complete Task" }).click();
  }
  await expect(page.getByText("Waiting for confirmation")).toBeVisible({ timeout: 15_000 });
  await expect(
    page.getByText(
      'Thanks for finishing "Install Chess Pro"! Your 300 coins will be added as soon as the offer provider confirms it, usually within a few minutes.',
      { exact: false },
    ),
  ).toBeVisible();
  await expect(page.getByText("Task Completed")).toHaveCount(0);
  await expect(row).toContainText("Pending");
  await screenshot(page, "offer-pending");
  await row.click();
  await expect(page.getByRole("dialog").getByText(/Waiting for confirmation: your coins arrive/)).toBeVisible();
  // A finished offer's dialog has nothing to do but close (issue 18).
  await page.getByRole("dialog").getByRole("link", { name: "Close" }).click();

  // The provider confirms: the offer is paid once and shows Done (at once with JavaScript, live).
  const postback = await fetch(
    new URL(
      `/api/acme/postback?${signedPostbackQuery({ user_id: localId, transaction_id: `e2e-${localId}`, amount: "300", offer_id: "acme-2" }, SECRET)}`,
      providerApp.url,
    ),
  );
  expect(await postback.text()).toBe("OK");
  if (!javaScriptEnabled) await page.reload();
  await expect(row).toContainText("Done");
  // This app keeps the production settings (docs/decisions/066): the $3.00 is in its hold, so
  // Home's Available figure stays $0.00 and the card's lines show it pending.
  await page.getByRole("link", { name: "Home" }).click();
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
  await expect(page.getByTestId("pending-line")).toContainText("$3.00 pending · next clears");
  await expect(page.getByTestId("total-balance")).toHaveText("$3.00");
});
