import { expect, test } from "@playwright/test";
import { uniqueEmail } from "./support";

// The password reset keeps the typed address in the Email field (docs/decisions/070), with
// JavaScript (the page stays) and without (a new page after the post).
test.beforeEach(async ({ context }, testInfo) => {
  await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: testInfo.project.use.baseURL! }]);
});

test("Forgot your password? keeps the typed email in the field after the reset is sent", async ({ page }) => {
  const email = uniqueEmail("reset-keeps");
  await page.goto("/auth");
  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByRole("button", { name: "Forgot your password?" }).click();
  await expect(page.getByText("Password reset email sent! Please check your inbox.")).toBeVisible();
  await expect(page.getByPlaceholder("Enter your email")).toHaveValue(email);
});
