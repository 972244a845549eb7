import { expect } from "@playwright/test";
import { test } from "./support";

// What Settings shows only to a browser without JavaScript (with JavaScript, the push line reads
// this browser's permission: settings-push.js-only.spec.ts).

test("without JavaScript, the push switch is the account's (on) and the line under it says this device needs JavaScript, with no Enable on this device", async ({
  page,
  signedIn,
}) => {
  await signedIn("settingspush", "/settings");
  const push = page.getByRole("switch", { name: /^Push notifications/ });
  await expect(push).toHaveAttribute("aria-checked", "true");
  await expect(push).toContainText("Alerts on the devices where you enable them");
  await expect(page.getByText("This device needs JavaScript to receive push notifications.")).toBeVisible();
  await expect(page.getByText(/On this device: (enabled|not enabled yet)/)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Enable on this device" })).toHaveCount(0);
});
