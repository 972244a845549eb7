import { expect, type Locator, type Page } from "@playwright/test";
import { screenshot, test } from "./support";

// The task dialog (Earn) and the withdrawal history sheet (Withdraw) with JavaScript: focus moves
// in when they open, Tab and Shift+Tab go round inside, and Escape closes them and gives the focus
// back to the link that opened them. (Without JavaScript they are parts of the page, closed by their
// links: tests/e2e/accessibility.spec.ts and cash-out.spec.ts.)

const focusInside = (dialog: Locator) => dialog.evaluate((element) => element.contains(document.activeElement));

/** Presses Tab (or Shift+Tab) `count` times, checking after each that the focus stayed inside `dialog`; returns the names it visited. */
async function tabRound(page: Page, dialog: Locator, count: number, key = "Tab") {
  const visited: string[] = [];
  for (let press = 0; press < count; press++) {
    await page.keyboard.press(key);
    expect(await focusInside(dialog), `after ${press + 1} × ${key}`).toBe(true);
    visited.push(
      await page.evaluate(() => {
        const active = document.activeElement!;
        return (active.getAttribute("aria-label") ?? active.textContent ?? "").trim();
      }),
    );
  }
  return visited;
}

async function openWithKeyboard(page: Page, link: Locator) {
  for (let press = 0; press < 80 && !(await link.evaluate((element) => element === document.activeElement)); press++) {
    await page.keyboard.press("Tab");
  }
  await expect(link).toBeFocused();
  await page.keyboard.press("Enter");
}

test("the task dialog takes the focus when it opens, keeps Tab and Shift+Tab inside, and Escape closes it, back on the task's link", async ({
  page,
  signedIn,
}) => {
  await signedIn("dialog-task", "/earn");
  const link = page.getByRole("link", { name: /Try a Budgeting App/ });
  await openWithKeyboard(page, link);

  const dialog = page.getByRole("dialog", { name: "Try a Budgeting App" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toBeFocused();
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  // Its controls: Cancel, then Start Task; the third Tab comes back to the first.
  expect(await tabRound(page, dialog, 5)).toEqual(["Cancel", "Start Task", "Cancel", "Start Task", "Cancel"]);
  await screenshot(page, "dialog-focus-cancel");
  expect(await tabRound(page, dialog, 3, "Shift+Tab")).toEqual(["Start Task", "Cancel", "Start Task"]);

  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/earn$/);
  await expect(link).toBeFocused();
  await screenshot(page, "dialog-closed-focus-back-on-task");
});

test("the task dialog opened by a page load takes the focus too, and Escape leaves it on the task's link", async ({
  page,
  signedIn,
}) => {
  await signedIn("dialog-direct", "/earn?task=task-003");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeFocused();
  const title = await dialog.getByRole("heading").textContent();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("link", { name: new RegExp(title!) })).toBeFocused();
});

test("after Start Task, Tab stays in the task dialog while the countdown runs, and the completed task closes it, back on the task's link", async ({
  page,
  signedIn,
}) => {
  await signedIn("dialog-start", "/earn");
  const link = page.getByRole("link", { name: /Try a Budgeting App/ });
  await openWithKeyboard(page, link);
  const dialog = page.getByRole("dialog", { name: "Try a Budgeting App" });
  await expect(dialog).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Start Task" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: /Wait \ds/ })).toBeDisabled();
  // The button that had the focus is gone (the countdown's is disabled): Tab brings it back inside.
  expect(await tabRound(page, dialog, 2)).toEqual(["Cancel", "Cancel"]);
  await expect(page.getByTestId("flash").filter({ hasText: "Task Completed" })).toBeVisible({ timeout: 15_000 });
  await expect(dialog).toHaveCount(0);
  await expect(link).toBeFocused();
});

test("the withdrawal history sheet takes the focus when it opens, keeps Tab and Shift+Tab inside, and Escape closes it, back on History", async ({
  page,
  signedIn,
}) => {
  await signedIn("dialog-history", "/withdraw");
  const history = page.getByRole("link", { name: "History" });
  await openWithKeyboard(page, history);

  const sheet = page.getByRole("dialog", { name: "Withdrawal History" });
  await expect(sheet).toBeVisible();
  await expect(sheet).toBeFocused();
  // One control: the close button, every time.
  expect(await tabRound(page, sheet, 3)).toEqual(["Close history", "Close history", "Close history"]);
  expect(await tabRound(page, sheet, 2, "Shift+Tab")).toEqual(["Close history", "Close history"]);
  await screenshot(page, "history-focus-close");

  await page.keyboard.press("Escape");
  await expect(sheet).toHaveCount(0);
  await expect(page).toHaveURL(/\/withdraw$/);
  await expect(history).toBeFocused();
});
