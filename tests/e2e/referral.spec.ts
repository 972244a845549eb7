import { expect } from "@playwright/test";
import { screenshot, screenshotsAtWidths, test, uniqueEmail } from "./support";

// With JavaScript on and off: a friend opens the share link (the invitation's page), signs up with the code filled in,
// and shows up in the referrer's list.
test("a friend signs up through the share link and appears in Your Referrals as pending", async ({
  page,
  signedIn,
  browser,
}, testInfo) => {
  await signedIn("referrer");
  await page.getByRole("link", { name: "Refer", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Refer & Earn" })).toBeVisible();
  await expect(page.getByText("Share your code and earn $5 for each friend who joins")).toBeVisible();
  await expect(page.getByText("No referrals yet. Start sharing your code!")).toBeVisible();
  const code = (await page.getByTestId("referral-code").textContent())!.trim();
  expect(code).toMatch(/^[A-HJ-NP-Z2-9]{7}$/);
  await screenshot(page, "referral-empty");

  const friend = await browser.newContext({
    ...testInfo.project.use,
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
  });
  const friendPage = await friend.newPage();
  // The share link lands on the invitation's page (docs/decisions/096), then Sign Up with the code.
  await friendPage.goto(`/join/${code}`);
  await expect(friendPage.getByRole("heading", { name: "You're invited" })).toBeVisible();
  await expect(
    friendPage.getByText("Join with this invitation: you get $1.00, and the friend who invited you gets $5.00."),
  ).toBeVisible();
  await screenshotsAtWidths(friendPage, "join");
  await friendPage.getByRole("link", { name: "Create account" }).click();
  await expect(friendPage.getByRole("button", { name: "Create Account" })).toBeVisible();
  await expect(friendPage.getByLabel("Referral code (optional)")).toHaveValue(code);
  await screenshot(friendPage, "auth-referral-link");
  await friendPage.getByPlaceholder("Enter your email").fill(uniqueEmail("friend"));
  await friendPage.getByPlaceholder("Enter your password").fill("friend-password");
  await friendPage.getByRole("button", { name: "Create Account" }).click();
  await expect(friendPage).toHaveURL(/\/$/);
  await friend.close();

  await page.reload();
  await expect(page.getByText("Total: 1")).toBeVisible();
  await expect(page.getByText("Joined today")).toBeVisible();
  await expect(page.getByText("$5.00 pending")).toBeVisible();
  await screenshot(page, "referral-list");
});

test("a sign-up with an unknown referral code is refused on the field", async ({ page }, testInfo) => {
  await page.context().addCookies([{ name: "hasSeenOnboarding", value: "true", url: testInfo.project.use.baseURL! }]);
  await page.goto("/auth?tab=signup");
  await page.getByPlaceholder("Enter your email").fill(uniqueEmail("badcode"));
  await page.getByPlaceholder("Enter your password").fill("friend-password");
  await page.getByLabel("Referral code (optional)").fill("ZZZZZZZ");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("This referral code is not valid")).toBeVisible();
  await expect(page.getByLabel("Referral code (optional)")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/auth/);
});
