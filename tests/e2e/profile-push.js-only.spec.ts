import { expect, type Page } from "@playwright/test";
import { screenshot, test } from "./support";
import { FULL_BROWSER } from "./full-browser";

// Push notifications need JavaScript: the browser's permission, the service worker and the FCM
// token. No FCM is reachable here and no web-push config is set, so turning push on always ends in
// "Could not enable notifications"; what differs is how far it gets.

test.use({ launchOptions: FULL_BROWSER });

const pushSwitch = (page: Page) => page.getByRole("switch", { name: /^Push notifications/ });
const toasts = (page: Page, text: string) => page.getByTestId("flash").filter({ hasText: text });

/** Opens My Account once React has taken over: before that the switch is the no-JS form, which asks no permission. */
async function openProfile(page: Page) {
  await page.goto("/profile");
  await expect(pushSwitch(page)).toHaveAttribute("type", "button");
}

/** Turns push off (on by default for a new account) and waits until that is saved. */
async function turnPushOff(page: Page) {
  await expect(pushSwitch(page)).toHaveAttribute("aria-checked", "true");
  await pushSwitch(page).click();
  await expect(toasts(page, "Notification preferences updated")).toBeVisible();
  await expect(pushSwitch(page)).toHaveAttribute("aria-checked", "false");
  await expect(pushSwitch(page)).toBeEnabled();
}

async function expectPushFailure(page: Page) {
  const failure = toasts(page, "Could not enable notifications");
  await expect(failure).toBeVisible();
  await expect(failure).toContainText("Please check your browser settings and try again.");
  await expect(pushSwitch(page)).toHaveAttribute("aria-checked", "false");
  await expect(pushSwitch(page)).toBeEnabled();
}

test("with notification permission denied, turning Push notifications off and on again says Could not enable notifications and the switch stays off", async ({
  page,
  signedIn,
  context,
}) => {
  await context.clearPermissions();
  await signedIn("pushdenied");
  await openProfile(page);
  await expect(page.getByText("This device needs JavaScript to receive push notifications.")).toHaveCount(0);
  // Every toast put on the page, kept as it comes (toasts show one at a time and leave by themselves).
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { seenToasts: seen });
    new MutationObserver((changes) => {
      for (const change of changes)
        for (const node of change.addedNodes)
          if (node instanceof HTMLElement && node.matches('[data-testid="flash"]'))
            seen.push(node.querySelector("p")?.textContent ?? "");
    }).observe(document.getElementById("toasts")!, { childList: true });
  });
  await turnPushOff(page);

  await pushSwitch(page).click();
  await expectPushFailure(page);
  expect(await page.evaluate(() => Notification.permission)).not.toBe("granted");
  // The failed enable saved nothing: only turning it off said "updated".
  const seen = await page.evaluate(() => (window as unknown as { seenToasts: string[] }).seenToasts);
  expect(seen.filter((title) => title === "Notification preferences updated")).toHaveLength(1);
  await screenshot(page, "profile-push-denied");

  // Nothing was saved: the account's setting is still off.
  await page.reload();
  await expect(pushSwitch(page)).toHaveAttribute("aria-checked", "false");
});

test("with notification permission granted, turning Push notifications on registers /service-worker.js, then fails at the FCM token step (Could not enable notifications) and the switch stays off", async ({
  page,
  signedIn,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["notifications"], { origin: baseURL });
  await signedIn("pushgranted");
  await openProfile(page);
  await turnPushOff(page);
  const tokenRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/push-tokens") tokenRequests.push(request.url());
  });

  await pushSwitch(page).click();
  await expectPushFailure(page);
  expect(await page.evaluate(() => Notification.permission)).toBe("granted");
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await navigator.serviceWorker.getRegistrations()).some((registration) =>
          (registration.active ?? registration.waiting ?? registration.installing)?.scriptURL.endsWith(
            "/service-worker.js",
          ),
        ),
      ),
    )
    .toBe(true);
  // The step after the service worker (the device token) never got as far as the server.
  expect(tokenRequests).toHaveLength(0);
  await screenshot(page, "profile-push-granted-no-fcm");

  await page.reload();
  await expect(pushSwitch(page)).toHaveAttribute("aria-checked", "false");
});

test("GET /service-worker.js answers 200 with a JavaScript content-type and the push handler", async ({ page }) => {
  const response = await page.request.get("/service-worker.js");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("javascript");
  expect(response.headers()["service-worker-allowed"]).toBe("/");
  expect(await response.text()).toContain('addEventListener("push"');
});
