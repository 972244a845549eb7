import { expect, test } from "@playwright/test";
import { screenshot, uniqueEmail } from "./support";

const PASSWORD = "journey-pass-1";

test("onboarding → sign-up → Home → Profile → log out → sign in", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo.project.name);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Complete Tasks, Earn Rewards" })).toBeVisible();
  await screenshot(page, "onboarding-1");
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page.getByRole("heading", { name: "Refer Friends, Multiply Earnings" })).toBeVisible();
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page.getByRole("heading", { name: "Withdraw to PayPal Instantly" })).toBeVisible();
  await page.getByRole("button", { name: "Get Started" }).click();

  await expect(page).toHaveURL(/\/auth$/);
  await screenshot(page, "auth-sign-in");
  await page.getByRole("link", { name: "Sign Up" }).click();
  await expect(page.getByRole("button", { name: "Create Account" })).toBeVisible();
  await expect(page.getByText("Forgot your password?")).toHaveCount(0);
  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByPlaceholder("Enter your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Account created successfully!")).toBeVisible();
  await expect(page.getByRole("heading", { name: `Hi, ${email.split("@")[0]}` })).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Earn" })).not.toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Profile" }).last()).toBeVisible();
  await screenshot(page, "home");

  // Log out lives on Profile (docs/product.md, "Profile: log out"), reached by the floating profile button.
  await page.getByRole("link", { name: "Profile" }).last().click();
  await expect(page.getByRole("heading", { name: `${email.split("@")[0]}'s Profile` })).toBeVisible();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByText("Logged out successfully")).toBeVisible();

  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByPlaceholder("Enter your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Signed in successfully!")).toBeVisible();
  await expect(page.getByRole("heading", { name: `Hi, ${email.split("@")[0]}` })).toBeVisible();
});

test("a wrong password shows the error above the tabs, and switching tab clears it", async ({
  page,
  context,
}, testInfo) => {
  await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: testInfo.project.use.baseURL! }]);
  await page.goto("/auth");
  await page.getByPlaceholder("Enter your email").fill(uniqueEmail("nobody"));
  await page.getByPlaceholder("Enter your password").fill("whatever-1");
  await page.getByRole("button", { name: "Sign In" }).click();
  const error = page.getByRole("alert");
  await expect(error).toHaveText("Invalid email or password. Please try again.");
  await screenshot(page, "auth-error");
  await page.getByRole("link", { name: "Sign Up" }).click();
  await expect(page.getByRole("button", { name: "Create Account" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("the 404 page answers unknown paths", async ({ page }) => {
  for (const path of ["/settings/more", "/does-not-exist"]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  }
  await screenshot(page, "not-found");
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page.getByRole("heading", { name: "Complete Tasks, Earn Rewards" })).toBeVisible();
});

test("the legal page switches between Terms, Privacy and Cookies", async ({ page }) => {
  await page.goto("/legal");
  await expect(page.getByRole("heading", { name: "Terms of Service" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await screenshot(page, "legal-terms");
  for (const [tab, title] of [
    ["Privacy", "Privacy Policy"],
    ["Cookies", "Cookie Policy"],
  ] as const) {
    await page.getByRole("link", { name: tab, exact: true }).click();
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    await expect(page.getByRole("link", { name: tab, exact: true })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { level: 3 })).toHaveCount(5);
    await expect(page.getByRole("heading", { level: 3 }).first()).toHaveText(/^1\. /);
    await expect(page.getByRole("heading", { level: 3 }).last()).toHaveText(/^5\. /);
  }
  await expect(page.getByRole("heading", { level: 3 }).first()).toHaveText(/types/i);
  await expect(page.getByRole("heading", { level: 3 }).last()).toHaveText(/changes/i);
});

test("forgot password sends the reset email with the typed address", async ({ page }) => {
  await page.goto("/auth");
  await page.getByPlaceholder("Enter your email").fill(`forgot.${Date.now()}@example.com`);
  await page.getByRole("button", { name: "Forgot your password?" }).click();
  await expect(page.getByText("Password reset email sent! Please check your inbox.")).toBeVisible();
});
