import { expect, test } from "@playwright/test";

// What a browser without JavaScript gets instead of the enhancements.
test.beforeEach(async ({ context }, testInfo) => {
  await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: testInfo.project.use.baseURL! }]);
});

test("without JavaScript the browser's own checks guard the form and Google sign-in says it needs JavaScript", async ({
  page,
}) => {
  await page.goto("/auth?tab=signup");
  await expect(page.getByRole("button", { name: "Continue with Google" })).toBeDisabled();
  await expect(page.getByText("Google sign-in needs JavaScript.")).toBeVisible();
  await page.getByPlaceholder("Enter your email").fill("not-an-email");
  await page.getByPlaceholder("Enter your password").fill("12345");
  await page.getByRole("button", { name: "Create Account" }).click();
  // The browser refused to submit: still on the form, and the field reports itself invalid.
  await expect(page).toHaveURL(/tab=signup$/);
  expect(
    await page.getByPlaceholder("Enter your email").evaluate((input: HTMLInputElement) => input.validity.typeMismatch),
  ).toBe(true);
});
