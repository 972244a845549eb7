import { expect } from "@playwright/test";
import { invalidSettingMessage, settingOf } from "~/domain/settings";
import { screenshot, screenshotsAtWidths, signInOverHttp, test } from "./support";

// The console's settings with JavaScript (docs/operator-console.md, "Settings"): the Save button's
// pending state, the saved toast, the refused field's message and focus. Without JavaScript the
// same form is posted in tests/http/admin-settings.test.ts. The test app is shared: this changes
// only how long notices are tried (nothing another spec reads), and puts it back.

const WINDOW = "Time to deliver a notice (hours)";

test("an owner saves a setting with a pending Save button and a toast, and a refused value keeps the focus on its field with its message", async ({
  page,
  baseURL,
}) => {
  const email = process.env.E2E_OPERATOR_EMAIL;
  const password = process.env.E2E_OPERATOR_PASSWORD;
  if (!email || !password) throw new Error("E2E_OPERATOR_EMAIL is not set: run the browser tests through `npm test`");
  await signInOverHttp(page, email, password, baseURL!);
  await page.goto("/admin/settings");
  await page.waitForLoadState("networkidle");
  const field = page.getByLabel(WINDOW);
  const original = await field.inputValue();
  const changed = String(Number(original) + 1);

  // The post held back a moment, so that the pending state can be seen.
  await page.route("**/admin/settings**", async (route) => {
    if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  await field.fill(changed);
  await page.getByLabel("Reason for the change").fill("Checking the console's pending state");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("button", { name: "Saving…" })).toBeDisabled();
  await expect(page.getByText("Settings saved: 1 changed")).toBeVisible();
  await expect(field).toHaveValue(changed);
  await expect(page.getByTestId("setting-change").first()).toContainText(`${original} hours → ${changed} hours`);
  await expect(page.getByLabel("Reason for the change")).toHaveValue("");

  await field.fill("0");
  await page.getByLabel("Reason for the change").fill("A value it refuses");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText(invalidSettingMessage(settingOf("notice_delivery_window_hours")))).toBeVisible();
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(`Now: ${changed} hours`)).toBeVisible();
  await screenshot(page, "console-settings-refused");

  // Put back for the other specs.
  await field.fill(original);
  await page.getByLabel("Reason for the change").fill("Back as it was");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText(`Now: ${original} hours`)).toBeVisible();
});

test("the network flags are a group of checkboxes, one per flag the provider reports, none ticked at first", async ({
  page,
  baseURL,
}) => {
  await signInOverHttp(page, process.env.E2E_OPERATOR_EMAIL!, process.env.E2E_OPERATOR_PASSWORD!, baseURL!);
  await page.goto("/admin/settings");
  const review = page.getByRole("group", { name: "Networks whose cash-outs need review" });
  const pause = page.getByRole("group", { name: "Networks that pause earning" });
  for (const group of [review, pause]) {
    await expect(group.getByRole("checkbox")).toHaveCount(5);
    for (const flag of ["VPN", "Proxy", "Tor", "Private relay (iCloud)", "Data centre"]) {
      await expect(group.getByRole("checkbox", { name: flag })).not.toBeChecked();
    }
  }
  await screenshotsAtWidths(page, "console-settings-network-flags", () => review.scrollIntoViewIfNeeded());
  // The topic that holds them, alone (the whole page is several screens tall).
  if (process.env.E2E_SCREENSHOTS) {
    await page
      .locator("section", { has: review })
      .screenshot({ path: test.info().outputPath("console-settings-network-flags-topic.png") });
  }
});
