import { expect, type Page } from "@playwright/test";
import { openVerificationLink, screenshot, test, verificationLink } from "./support";

// Home's verification card, with JavaScript on and off (docs/product.md, "Home: verifying the
// email"): "Check again" says what the identity provider answers, and the verification email's
// link brings the browser back to Home, which says "Email verified".

const card = (page: Page) => page.getByRole("heading", { name: "Verify your email", exact: true });

test("Check again says the email is not verified yet, naming the address; once the link is opened, it says Email verified and the card goes", async ({
  page,
  signedIn,
}) => {
  const email = await signedIn("verify-check");
  await expect(card(page)).toBeVisible();

  await page.getByRole("link", { name: "Check again" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Not verified yet" })).toHaveText(
    `Not verified yet — open the link we sent to ${email}`,
  );
  await expect(card(page)).toBeVisible();
  await screenshot(page, "home-not-verified-yet");

  await page.getByRole("button", { name: "Send verification email" }).click();
  await expect(page.getByTestId("flash").filter({ hasText: "Verification email sent" })).toBeVisible();
  await openVerificationLink(email);

  await page.getByRole("link", { name: "Check again" }).click();
  await expect(page.getByTestId("flash").filter({ hasText: "Email verified" })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === "/" && url.search === "");
  await expect(card(page)).toHaveCount(0);
  await expect(page.getByText("Not verified yet")).toHaveCount(0);
});

test("the verification email's link returns to the app's /?verified=1, and opening it lands on Home with Email verified", async ({
  page,
  signedIn,
  baseURL,
}) => {
  const email = await signedIn("verify-link");
  await page.getByRole("button", { name: "Send verification email" }).click();
  await expect(page.getByTestId("flash").filter({ hasText: "Verification email sent" })).toBeVisible();

  const link = await verificationLink(email);
  expect(new URL(link).searchParams.get("continueUrl"), "the link's continue URL").toBe(
    new URL("/?verified=1", baseURL).href,
  );
  // The provider's page (the Auth emulator's) verifies the address and sends the browser back.
  await page.goto(link);
  await expect(page.getByTestId("flash").filter({ hasText: "Email verified" })).toBeVisible();
  await expect(page).toHaveURL(new URL("/", baseURL).href);
  await expect(page.getByRole("heading", { name: /^Hi, / })).toBeVisible();
  await expect(card(page)).toHaveCount(0);
  await screenshot(page, "home-email-verified");
});
