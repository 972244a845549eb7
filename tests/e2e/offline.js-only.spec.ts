import { expect, type Page } from "@playwright/test";
import { screenshot, test } from "./support";

// The service worker (registered by every page once it has loaded) shows the offline page when a
// page cannot be fetched. Service workers need JavaScript, so this runs with it only.

/** Waits until the app's service worker is active and controls the page. */
async function controlledByServiceWorker(page: Page) {
  await page.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (
      registration.active?.scriptURL.endsWith("/service-worker.js") === true &&
      navigator.serviceWorker.controller !== null
    );
  });
}

test("after a first visit, pages opened with the network cut show the offline page at their own address, and Try again loads the page once the network is back", async ({
  page,
  signedIn,
  context,
}) => {
  await signedIn("offline");
  await controlledByServiceWorker(page);

  await context.setOffline(true);
  await page.goto("/leaderboard");
  await expect(page.getByRole("heading", { name: "You're offline" })).toBeVisible();
  await expect(page.getByText("Rewards needs an internet connection to show your balance and tasks.")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/leaderboard");
  await expect(page).toHaveTitle("Offline · Rewards");
  await screenshot(page, "offline");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Try again" })).toBeFocused();
  await screenshot(page, "offline-focus-try-again");
  await page.reload();
  await expect(page.getByRole("heading", { name: "You're offline" })).toBeVisible();
  await page.goto("/earn?task=task-001");
  await expect(page.getByRole("heading", { name: "You're offline" })).toBeVisible();

  await context.setOffline(false);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page).toHaveURL(/\/earn\?task=task-001$/);
  await expect(page.getByRole("dialog", { name: "Shopping Habits Survey" })).toBeVisible();
});

test("a visitor who is not signed in gets the offline page too, and with the network on every page still comes from the server", async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: baseURL! }]);
  await page.goto("/legal");
  await controlledByServiceWorker(page);
  // Online, the worker passes page loads to the network: a fresh document, with its own nonce.
  const first = await page.goto("/auth");
  const second = await page.reload();
  expect(first!.headers()["content-security-policy"]).not.toBe(second!.headers()["content-security-policy"]);
  await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();

  await context.setOffline(true);
  await page.goto("/legal?tab=privacy");
  await expect(page.getByRole("heading", { name: "You're offline" })).toBeVisible();
});

test("a link followed in the app with the network cut says You're offline, and its Try Again shows the offline page until the network is back", async ({
  page,
  signedIn,
  context,
}) => {
  await signedIn("offline-link");
  await controlledByServiceWorker(page);
  // Earn's code is in the page already (a route whose code cannot be downloaded makes Remix load the
  // whole page instead, which shows the offline page); its data is what fails.
  await page.getByRole("link", { name: "Earn", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Earn Rewards" })).toBeVisible();
  await page.getByRole("link", { name: "Home", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);

  await context.setOffline(true);
  await page.getByRole("link", { name: "Earn", exact: true }).click();
  await expect(page).toHaveURL(/\/earn$/);
  await expect(page.getByRole("heading", { name: "You're offline" })).toBeVisible();
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
  await screenshot(page, "offline-in-app");
  // Its Try Again is a page load: the service worker answers it with the offline page.
  await page.getByRole("link", { name: "Try Again" }).click();
  await expect(page.getByRole("link", { name: "Try again" })).toBeVisible();
  await expect(page).toHaveTitle("Offline · Rewards");

  await context.setOffline(false);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { name: "Earn Rewards" })).toBeVisible();
});
