import { expect, test, type Page } from "@playwright/test";
import { signUpOverHttp } from "./support";

// The copy and share buttons need JavaScript (the toasts of docs/product.md, "Refer: messages").
async function openReferral(page: Page) {
  await signUpOverHttp(page, "sharer");
  await page.goto("/referral");
  const copy = page.getByRole("button", { name: "Copy Code" });
  await expect(copy).toBeEnabled();
  return (await page.getByTestId("referral-code").textContent())!.trim();
}

test("Copy Code puts the code on the clipboard and says so", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const code = await openReferral(page);
  await page.getByRole("button", { name: "Copy Code" }).click();
  await expect(page.getByText("Referral code copied to clipboard!")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
});

test("the toasts' code downloads with the first toast: none while the page loads, then Copy Code's toast shows", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  // The first page after signing up shows its welcome message, and with it the toasts' code.
  await openReferral(page);
  // Routed requests skip the HTTP cache: the reloaded page requests every script it needs.
  await page.route("**/*", (route) => route.continue());
  const toastCode: string[] = [];
  page.on("request", (request) => {
    if (/\/Toasts-\w+\.js$/.test(request.url())) toastCode.push(request.url());
  });
  await page.reload({ waitUntil: "networkidle" });
  await expect(page.getByRole("button", { name: "Copy Code" })).toBeEnabled();
  await expect(page.getByTestId("flash")).toHaveCount(0);
  expect(toastCode).toHaveLength(0);
  await page.getByRole("button", { name: "Copy Code" }).click();
  await expect(page.getByRole("status").getByText("Referral code copied to clipboard!")).toBeVisible();
  expect(toastCode).toHaveLength(1);
  // Dismissed by its own control, as before the move.
  await page.getByRole("status").getByLabel("Dismiss").click();
  await expect(page.getByText("Referral code copied to clipboard!")).toBeHidden();
});

test("a failing clipboard says Failed to copy referral code", async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "clipboard", {
      value: { writeText: () => Promise.reject(new Error("denied")) },
    });
  });
  await openReferral(page);
  await page.getByRole("button", { name: "Copy Code" }).click();
  await expect(page.getByText("Failed to copy referral code")).toBeVisible();
});

test("Share with Friends opens the share sheet with the link, thanks on success, and stays quiet when cancelled", async ({
  page,
}) => {
  await page.addInitScript(() => {
    const shared: unknown[] = [];
    Object.assign(window, { shared });
    Object.defineProperty(navigator, "share", {
      value: (data: { url: string }) => {
        shared.push(data);
        return shared.length === 1
          ? Promise.resolve()
          : shared.length === 2
            ? Promise.reject(new DOMException("cancelled", "AbortError"))
            : Promise.reject(new Error("share failed"));
      },
    });
  });
  const code = await openReferral(page);
  const share = page.getByRole("button", { name: "Share with Friends" });
  await share.click();
  await expect(page.getByText("Thanks for sharing!")).toBeVisible();
  const [first] = (await page.evaluate(() => (window as unknown as { shared: { url: string }[] }).shared)) as {
    url: string;
  }[];
  expect(first!.url).toMatch(new RegExp(`/join/${code}$`));
  await share.click(); // cancelled: no toast
  await share.click(); // fails
  // Toasts show one at a time: the failure's comes once the thanks has gone (or at once, if it has).
  await expect(page.getByText("Failed to share referral code")).toBeVisible();
  // The cancelled share said nothing: no toast but the thanks and the failure.
  for (const text of await page.getByTestId("flash").allInnerTexts()) {
    expect(text).toMatch(/Thanks for sharing!|Failed to share referral code/);
  }
});

test("without a share sheet, Share with Friends copies the text for sharing by hand", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.addInitScript(() => Object.defineProperty(navigator, "share", { value: undefined }));
  const code = await openReferral(page);
  await page.getByRole("button", { name: "Share with Friends" }).click();
  await expect(page.getByText("Referral code copied! You can now share it manually")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(code);
});

test("while its data reloads, the page says Loading referrals... and the copy and share buttons wait", async ({
  page,
}) => {
  await openReferral(page);
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/referral.data*", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("link", { name: "Refer", exact: true }).click();
  await expect(page.getByText("Loading referrals...")).toBeVisible();
  await expect(page.getByRole("button", { name: "Share with Friends" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Copy Code" })).toBeDisabled();
  release();
  await expect(page.getByText("No referrals yet. Start sharing your code!")).toBeVisible();
  await expect(page.getByRole("button", { name: "Share with Friends" })).toBeEnabled();
});

test("Google sign-up from a share link checks the code before the popup: an unknown code stops it", async ({
  page,
}, testInfo) => {
  await page.context().addCookies([{ name: "hasSeenOnboarding", value: "true", url: testInfo.project.use.baseURL! }]);
  const sdkRequests: string[] = [];
  page.on("request", (request) => {
    if (/google-sign-in\.client-[\w-]+\.js$/.test(request.url())) sdkRequests.push(request.url());
  });
  await page.goto("/auth?ref=ZZZZZZZ");
  await expect(page.getByLabel("Referral code (optional)")).toHaveValue("ZZZZZZZ");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await expect(page.getByRole("alert")).toHaveText("This referral code is not valid");
  expect(sdkRequests).toHaveLength(0); // the popup (and its SDK) never started
});
