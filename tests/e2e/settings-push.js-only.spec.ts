import { expect } from "@playwright/test";
import { test } from "./support";

// The line under the push switch reads this browser (docs/decisions/071-settings-is-a-real-page.md).
// A refusal cannot be given by a headless browser's prompt, so the browser's answer is set before
// the page runs.

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
  await signedIn("pushenabled");
  await page.goto("/settings");
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
