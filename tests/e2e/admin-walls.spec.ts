import { expect, test } from "@playwright/test";
import { settled, signInOverHttp } from "./support";

// The console's Walls section in the browser (docs/operator-console.md, "Walls"), with JavaScript
// on and off: an owner changes a wall's hold, is told what is missing when turning it on without
// its settings, and gives it back to the environment. Each project changes a wall of its own
// (the other suites use BitLabs), and leaves it as it found it.

test("an owner sets a wall's hold in the console, is refused turning it on without its settings, and gives it back to the environment", async ({
  page,
  baseURL,
}, testInfo) => {
  const email = process.env.E2E_OPERATOR_EMAIL;
  const password = process.env.E2E_OPERATOR_PASSWORD;
  if (!email || !password) throw new Error("E2E_OPERATOR_EMAIL is not set: run the browser tests through `npm test`");
  const [network, label, missing] =
    testInfo.project.name === "javascript"
      ? ["torox", "Torox", "Needed to turn Torox on: the publisher id (Account)."]
      : ["adgem", "AdGem", "Needed to turn AdGem on: the app's id (Properties → your app)."];
  await signInOverHttp(page, email, password, baseURL!);
  await page.goto(`/admin/walls/${network}`);
  await settled(page);
  const hold = page.getByTestId("wall-setting").filter({ hasText: "Hold" });
  await expect(hold).toContainText("The app's hold for offer credits");

  const save = page.locator("#wall-save");
  await save.getByLabel("Hold (days)").fill("5");
  await save.getByLabel("Why (for the audit log)").fill("Browser test: a five-day hold");
  await save.getByRole("button", { name: `Save ${label}` }).click();
  await expect(page.getByText("Wall saved").first()).toBeVisible();
  await expect(hold).toContainText("5 days");
  await expect(hold).toContainText("Console");

  await page.locator("#wall-save").getByText("On", { exact: true }).click();
  await page.locator("#wall-save").getByLabel("Why (for the audit log)").fill("Browser test: turning it on");
  await page
    .locator("#wall-save")
    .getByRole("button", { name: `Save ${label}` })
    .click();
  await expect(page.getByText(missing)).toBeVisible();
  await expect(page.getByText(`Not saved: ${label} cannot run with these settings.`)).toBeVisible();
  await expect(page.getByRole("heading", { name: label, level: 1 })).toBeVisible();

  await page.goto(`/admin/walls/${network}`);
  await settled(page);
  const reset = page.locator("#wall-reset");
  await reset.getByLabel("Why (for the audit log)").fill("Browser test: back to the environment");
  await reset.getByRole("button", { name: "Reset to the environment" }).click();
  await expect(page.getByText("Back to the environment's settings").first()).toBeVisible();
  await expect(page.getByTestId("wall-setting").filter({ hasText: "Hold" })).toContainText(
    "The app's hold for offer credits",
  );
  await expect(page.locator("#wall-reset")).toHaveCount(0);
});
