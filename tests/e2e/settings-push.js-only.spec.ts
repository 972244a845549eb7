import { expect, type Page } from "@playwright/test";
import { screenshot, test } from "./support";
import { FULL_BROWSER } from "./full-browser";

// The line under the push switch reads this browser (docs/decisions/071-settings-is-a-real-page.md).
// A refusal cannot be given by a headless browser's prompt, so the browser's answer is set before
// the page runs.

test.use({ launchOptions: FULL_BROWSER });

const pushSwitch = (page: Page) => page.getByRole("switch", { name: /^Push notifications/ });
const toasts = (page: Page, text: string) => page.getByTestId("flash").filter({ hasText: text });

test("the push switch is the account's and the line under it is this device's: on for the account and not enabled here (with Enable on this device), off with the account", async ({
  page,
  signedIn,
}) => {
  await signedIn("settingspush", "/settings");
  await expect(pushSwitch(page)).toHaveAttribute("aria-checked", "true");
  await expect(pushSwitch(page)).toContainText("Alerts on the devices where you enable them");
  const line = page.getByTestId("push-device-state");
  await expect(pushSwitch(page)).toHaveAttribute("type", "button");
  await expect(line).toHaveText(/^On this device: not enabled yet\.\s*Enable on this device$/);
  await expect(line.getByRole("button", { name: "Enable on this device" })).toBeVisible();
  await expect(page.getByText("This device needs JavaScript to receive push notifications.")).toHaveCount(0);
  await line.scrollIntoViewIfNeeded();
  await screenshot(page, "settings-push-not-enabled-here");

  await pushSwitch(page).click();
  await expect(toasts(page, "Notification preferences updated")).toBeVisible();
  await expect(pushSwitch(page)).toHaveAttribute("aria-checked", "false");
  await expect(line).toHaveText("On this device: off.");
  await expect(line.getByRole("button")).toHaveCount(0);
});

test("with notifications blocked in the browser, the line says On this device: blocked in browser settings, offers no Enable on this device, and the switch stays the account's", async ({
  page,
  signedIn,
}) => {
  await page.addInitScript(() => Object.defineProperty(Notification, "permission", { get: () => "denied" }));
  await signedIn("pushblocked");
  for (const path of ["/settings", "/profile"]) {
    await page.goto(path);
    const push = page.getByRole("switch", { name: /^Push notifications/ });
    await expect(push).toHaveAttribute("type", "button");
    await expect(push).toHaveAttribute("aria-checked", "true");
    const line = page.getByTestId("push-device-state");
    await expect(line, path).toHaveText("On this device: blocked in browser settings.");
    await expect(page.getByRole("button", { name: "Enable on this device" }), path).toHaveCount(0);
  }
});

test("with this device's token registered, the line says On this device: enabled.", async ({
  page,
  signedIn,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["notifications"], { origin: baseURL });
  await signedIn("pushenabled", "/settings");
  const token = `fcm-e2e-${Date.now().toString(36)}-${"y".repeat(40)}`;
  const status = await page.evaluate(async (value) => {
    const response = await fetch("/api/push-tokens", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ intent: "register", token: value }),
    });
    localStorage.setItem("rewards:push-token", value);
    return response.status;
  }, token);
  expect(status).toBe(200);
  await page.reload();
  await expect(page.getByTestId("push-device-state")).toHaveText("On this device: enabled.");
  await expect(page.getByRole("switch", { name: /^Push notifications/ })).toHaveAttribute("aria-checked", "true");
});
