import { expect, test } from "@playwright/test";

test("an open Earn page shows a task completed in another tab without a reload", async ({
  page,
  context,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: baseURL }]);
  await page.goto("/auth?tab=signup");
  await page.getByPlaceholder("Enter your email").fill(`live.${Date.now()}@example.com`);
  await page.getByPlaceholder("Enter your password").fill("live-pass-1");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/earn");
  const row = page.getByRole("link", { name: /Cooking Tips Video/ });
  await expect(row).not.toContainText("Done");
  let loads = 0;
  page.on("load", () => (loads += 1));

  // Another tab of the same person completes the task.
  const other = await context.newPage();
  await other.goto("/earn?task=task-006");
  await other.getByRole("dialog").getByRole("button", { name: "Start Task" }).click();
  await expect(other.getByText("You earned 80 coins.")).toBeVisible({ timeout: 15_000 });

  await expect(row).toContainText("Done", { timeout: 10_000 });
  expect(loads).toBe(0);
});
