import { expect } from "@playwright/test";
import { completeTasks, screenshot, test } from "./support";

// Notices you can read again (issue 36), with JavaScript on and off: the header's bell counts the
// unread, opens the list, and the count is gone once they are read.

test("the bell counts an unread notice, opens Notices where it is New in its toast's words, and has no count once read", async ({
  page,
  signedIn,
}) => {
  await signedIn("notices");
  await completeTasks(page, ["task-004"]);
  await page.goto("/");
  const bell = page.getByRole("link", { name: "Notices, 1 unread" });
  await expect(bell).toBeVisible();
  await expect(bell.getByTestId("unread-notices")).toHaveText("1");
  await bell.click();
  await expect(page).toHaveURL(/\/notices$/);
  await expect(page.getByRole("heading", { level: 1, name: "Notices" })).toBeVisible();
  const notice = page.getByRole("list", { name: "Notices" }).getByRole("link").first();
  await expect(notice).toContainText("Task Completed");
  await expect(notice).toContainText(/You earned 150 coins \(\$1\.50\) for ".+" — available to withdraw\./);
  await expect(notice).toContainText("New");
  await screenshot(page, "notices");

  await page.getByRole("link", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Notices", exact: true })).toBeVisible();
  await expect(page.getByTestId("unread-notices")).toHaveCount(0);
});
