import { expect, test } from "@playwright/test";
import { settled } from "./support";

// Enhancements that exist only when JavaScript runs.
test.beforeEach(async ({ context }, testInfo) => {
  await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: testInfo.project.use.baseURL! }]);
});

test("pending state: the button says Creating account... and the fields are disabled", async ({ page }) => {
  // Hold the post for a moment so the pending state can be seen.
  await page.route("**/auth*", async (route) => {
    if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.goto("/auth?tab=signup");
  await settled(page);
  await page.getByPlaceholder("Enter your email").fill(`pending.${Date.now()}@example.com`);
  await page.getByPlaceholder("Enter your password").fill("pending-pass");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("button", { name: "Creating account..." })).toBeVisible();
  await expect(page.getByPlaceholder("Enter your email")).toBeDisabled();
  await expect(page.getByPlaceholder("Enter your password")).toBeDisabled();
  await expect(page).toHaveURL(/\/$/);
});

test("client-side validation shows the spec's messages without a round trip", async ({ page }) => {
  let posts = 0;
  page.on("request", (request) => {
    if (request.method() === "POST") posts += 1;
  });
  await page.goto("/auth?tab=signup");
  // The page's scripts start after its first paint (docs/decisions/101): check once React runs it.
  await settled(page);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please fill in all fields");
  await page.getByPlaceholder("Enter your email").fill("short@example.com");
  await page.getByPlaceholder("Enter your password").fill("12345");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Password must be at least 6 characters long")).toBeVisible();
  expect(posts).toBe(0);
});

test("Google sign-in downloads the Firebase SDK only when pressed, and says so when Google cannot be reached", async ({
  page,
}) => {
  // Google's servers are outside this machine: make them unreachable on purpose.
  await page.route("https://apis.google.com/**", (route) => route.abort("internetdisconnected"));
  const sdkRequests: string[] = [];
  page.on("request", (request) => {
    if (/google-sign-in\.client-[\w-]+\.js$/.test(request.url())) sdkRequests.push(request.url());
  });
  await page.goto("/auth", { waitUntil: "networkidle" });
  expect(sdkRequests).toHaveLength(0);
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await expect.poll(() => sdkRequests.length).toBe(1);
  await expect(page.getByRole("alert")).toHaveText("An error occurred during authentication.", { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Continue with Google" })).toBeEnabled();
  // docs/product.md, "Auth": switching tab clears the error message, the Google one included.
  await page.getByRole("link", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(/tab=signup/);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await page.getByRole("link", { name: "Sign In" }).click();
  await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
});
