import { expect, test, type Page } from "@playwright/test";
import { signUp } from "./support";

// The copy and share buttons need JavaScript (spec §8 toasts).
async function openReferral(page: Page) {
  await signUp(page, "sharer");
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
  expect(first!.url).toMatch(new RegExp(`/auth\\?ref=${code}$`));
  await share.click(); // cancelled: no toast
  await share.click(); // fails
  await expect(page.getByText("Failed to share referral code")).toBeVisible();
  await expect(page.getByTestId("flash")).toHaveCount(2);
});

test("without a share sheet, Share with Friends copies the text for sharing by hand", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.addInitScript(() => Object.defineProperty(navigator, "share", { value: undefined }));
  const code = await openReferral(page);
  await page.getByRole("button", { name: "Share with Friends" }).click();
  await expect(page.getByText("Referral code copied! You can now share it manually")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(code);
});
