import { expect, type Page } from "@playwright/test";
import { PASSWORD, screenshot, signInOverHttp, test } from "./support";

// Settings (docs/decisions/071-settings-is-a-real-page.md), with JavaScript on and off: the page
// the Profile gear opens, its switches, Sign out of every device, and the push switch's line.

const toasts = (page: Page, text: string) => page.getByTestId("flash").filter({ hasText: text });

test("the Profile gear opens Settings: its header goes Back to Profile, it has the five switches, Sign out of every device, Account Management, and Terms, Privacy and Cookies open /legal on their tab", async ({
  page,
  signedIn,
}) => {
  await signedIn("settings", "/profile");
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await expect(page.getByRole("switch")).toHaveCount(5);
  for (const heading of ["Notification Settings", "Sign out of every device", "Account Management", "Legal"]) {
    await expect(page.getByRole("heading", { name: heading, level: 2 })).toBeVisible();
  }
  await expect(page.getByRole("button", { name: "Sign out everywhere" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Delete account permanently" })).toBeVisible();
  await screenshot(page, "settings");

  for (const [title, tab] of [
    ["Terms of Service", "Terms"],
    ["Privacy Policy", "Privacy"],
    ["Cookie Policy", "Cookies"],
  ] as const) {
    await page.getByRole("link", { name: title }).click();
    await expect(page).toHaveURL(new RegExp(`/legal\\?tab=${tab.toLowerCase()}$`));
    await expect(page.getByRole("link", { name: tab, exact: true })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { name: title, level: 2 })).toBeVisible();
    await page.goto("/settings");
  }

  await page.getByRole("link", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/profile$/);
});

test("a switch saved on Settings says Notification preferences updated and stays on Settings", async ({
  page,
  signedIn,
}) => {
  await signedIn("settingsswitch", "/settings");
  const marketing = page.getByRole("switch", { name: /^Marketing/ });
  await expect(marketing).toHaveAttribute("aria-checked", "true");
  await marketing.click();
  await expect(toasts(page, "Notification preferences updated")).toBeVisible();
  await expect(page).toHaveURL(/\/settings(#notification-settings)?$/);
  await expect(marketing).toHaveAttribute("aria-checked", "false");
  await page.goto("/settings");
  await expect(page.getByRole("switch", { name: /^Marketing/ })).toHaveAttribute("aria-checked", "false");
});

test("Sign out of every device ends this browser's session and another browser's: /auth says Signed out of every device, and the other browser is sent to sign in", async ({
  page,
  signedIn,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const email = await signedIn("everywhere");
  const other = await browser.newContext({ baseURL, javaScriptEnabled });
  try {
    const otherPage = await other.newPage();
    await signInOverHttp(otherPage, email, PASSWORD, baseURL!);
    await otherPage.goto("/settings");
    await expect(otherPage.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();

    await page.goto("/settings");
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(toasts(page, "Signed out of every device")).toBeVisible();
    await screenshot(page, "settings-signed-out-everywhere");
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fsettings$/);

    await otherPage.goto("/settings");
    await expect(otherPage).toHaveURL(/\/auth\?redirectTo=%2Fsettings$/);
  } finally {
    await other.close();
  }
});
