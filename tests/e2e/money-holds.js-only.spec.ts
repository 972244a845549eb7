import { expect, test } from "@playwright/test";
import { startTestApp } from "../support/app-server";
import { signUpDirect } from "../support/emulator";
import { signedPostbackQuery, startOfferProvider } from "../support/offer-provider";
import { screenshot, signInOverHttp, uniqueEmail } from "./support";

// With JavaScript, on an app of its own with the production settings (its fresh embedded database
// keeps the strict defaults, docs/decisions/066) and an offer provider (a local stand-in): the
// balance card's Pending and Locked bonus lines, on Home (live, as the postback arrives) and Withdraw.
const SECRET = "postback-secret-for-money-e2e";

let provider: Awaited<ReturnType<typeof startOfferProvider>>;
let app: Awaited<ReturnType<typeof startTestApp>>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  provider = await startOfferProvider();
  app = await startTestApp({
    OFFER_PROVIDER: "acme",
    OFFER_PROVIDER_API_URL: provider.url,
    OFFER_POSTBACK_SECRET: SECRET,
  });
});

test.afterAll(async () => {
  await app?.stop();
  await provider?.close();
});

/** "Dec 3", the UTC day `days` from now. */
const dayIn = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

test("Home shows the check-in's $0.10 as locked bonus, then a held offer's $0.05 as pending with its clearing day as the postback arrives; Withdraw shows the same", async ({
  page,
}) => {
  const email = uniqueEmail("money");
  const { localId } = await signUpDirect(email, "money-password");
  await signInOverHttp(page, email, "money-password", app.url);

  await page.getByRole("button", { name: "Check In Now (+10 coins)" }).click();
  await expect(page.getByText("You earned 10 coins ($0.10) — locked until your offer earnings clear.")).toBeVisible();
  const card = page.getByRole("region", { name: "Available Balance" });
  await expect(card.getByTestId("balance")).toHaveText("$0.00");
  await expect(card.getByTestId("locked-bonus-line")).toHaveText(
    "$0.10 bonus locked · earn $0.10 more from offers to unlock it",
  );
  await expect(card.getByTestId("pending-line")).toHaveCount(0);
  await expect(card.getByTestId("total-balance")).toHaveText("$0.10");
  await expect(card.getByText("Amounts are in dollars: 100 coins = $1.00.")).toBeVisible();

  // The provider pays 5 coins for an offer done on its own site: held for 7 days; the open Home
  // hears of the completion and shows it, no reload.
  const before = dayIn(7);
  const postback = await fetch(
    new URL(
      `/api/acme/postback?${signedPostbackQuery({ user_id: localId, transaction_id: `money-${localId}`, amount: "5", offer_id: "acme-1" }, SECRET)}`,
      app.url,
    ),
  );
  expect(await postback.text()).toBe("OK");
  const clears = new RegExp(`^\\$0\\.05 pending · next clears (${before}|${dayIn(7)})$`);
  await expect(card.getByTestId("pending-line")).toHaveText(clears);
  await expect(card.getByTestId("locked-bonus-line")).toHaveText(
    "$0.10 bonus locked · earn $0.05 more from offers to unlock it",
  );
  await expect(card.getByTestId("balance")).toHaveText("$0.00");
  await expect(card.getByTestId("total-balance")).toHaveText("$0.15");
  await screenshot(page, "home-pending-locked");

  await page.getByRole("link", { name: "Withdraw", exact: true }).first().click();
  await expect(page.getByRole("heading", { name: "Withdraw Money" })).toBeVisible();
  const withdrawCard = page.getByRole("region", { name: "Available Balance" });
  await expect(withdrawCard.getByTestId("balance")).toHaveText("$0.00");
  await expect(withdrawCard.getByTestId("pending-line")).toHaveText(clears);
  await expect(withdrawCard.getByTestId("locked-bonus-line")).toHaveText(
    "$0.10 bonus locked · earn $0.05 more from offers to unlock it",
  );
  await expect(withdrawCard.getByTestId("total-balance")).toHaveText("$0.15");
  await screenshot(page, "withdraw-pending-locked");
});
