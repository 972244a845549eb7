import { expect, type Locator, type Page } from "@playwright/test";
import { earnSixDollars, openVerificationLink, screenshot, test, uniqueEmail } from "./support";

// Every form filled and sent with the keyboard alone (Tab, typing, arrows, Enter, Space), with
// JavaScript on and off: no click, no fill(), no focus() from the test.

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails if it never comes. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 80 } = {}) {
  for (let press = 0; press < max; press++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

const flash = (page: Page, text: string) => page.getByTestId("flash").filter({ hasText: text });

test("sign up, then sign in, with the keyboard alone", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: baseURL! }]);
  await page.goto("/auth?tab=signup");
  const email = uniqueEmail("keys");
  await tabTo(page, page.getByPlaceholder("Enter your email"));
  await page.keyboard.type(email);
  await page.keyboard.press("Tab");
  await expect(page.getByPlaceholder("Enter your password")).toBeFocused();
  await page.keyboard.type("e2e-password");
  await screenshot(page, "keyboard-focus-password");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);

  await context.clearCookies();
  await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: baseURL! }]);
  await page.goto("/auth");
  await tabTo(page, page.getByPlaceholder("Enter your email"));
  await page.keyboard.type(email);
  await tabTo(page, page.getByPlaceholder("Enter your password"));
  await page.keyboard.type("e2e-password");
  await tabTo(page, page.getByRole("button", { name: "Sign In", exact: true }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
  await expect(flash(page, "Signed in successfully!")).toBeVisible();
});

test("check in on Home with the keyboard alone", async ({ page, signedIn }) => {
  await signedIn("keys-checkin");
  const checkIn = page.getByRole("button", { name: /Check In Now/ });
  await tabTo(page, checkIn);
  await screenshot(page, "keyboard-focus-check-in");
  await page.keyboard.press("Space");
  await expect(flash(page, "Checked in!")).toBeVisible();
  await expect(page.getByRole("button", { name: "Checked In Today" })).toBeDisabled();
});

test("open a task, start it and complete it with the keyboard alone", async ({ page, signedIn, javaScriptEnabled }) => {
  await signedIn("keys-task", "/earn");
  await tabTo(page, page.getByRole("link", { name: /Try a Budgeting App/ }));
  await screenshot(page, "keyboard-focus-task-link");
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Try a Budgeting App" });
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByRole("button", { name: "Start Task" }));
  await screenshot(page, "keyboard-focus-start-task");
  await page.keyboard.press("Enter");
  if (javaScriptEnabled) {
    // The completion is sent by itself once the five seconds are up.
    await expect(dialog.getByRole("button", { name: /Wait \ds/ })).toBeDisabled();
  } else {
    await expect(page).toHaveURL(/started=1/);
    await page.waitForTimeout(5_200);
    await tabTo(page, dialog.getByRole("button", { name: "Complete Task" }));
    await page.keyboard.press("Enter");
  }
  await expect(flash(page, "Task Completed")).toBeVisible({ timeout: 15_000 });
  await expect(dialog).toHaveCount(0);
});

test("withdraw to UPI with the keyboard alone: the amount, the method chosen with an arrow key, the UPI ID, Enter", async ({
  page,
  signedIn,
}) => {
  const email = await signedIn("keys-withdraw", "/withdraw");
  await tabTo(page, page.getByRole("button", { name: "Send verification email" }));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Verification email sent")).toBeVisible();
  await openVerificationLink(email);
  await earnSixDollars(page);
  await page.goto("/withdraw");

  await tabTo(page, page.getByLabel("Amount (USD)"));
  await page.keyboard.type("5");
  await tabTo(page, page.getByRole("radio", { name: /PayPal/ }));
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("radio", { name: /UPI/ })).toBeChecked();
  await expect(page.getByRole("radio", { name: /UPI/ })).toBeFocused();
  await screenshot(page, "keyboard-focus-radio-card");
  await tabTo(page, page.getByLabel("UPI ID"));
  await page.keyboard.type("name@okhdfcbank");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Your $5.00 withdrawal has been initiated.")).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$1.30");
});

test("send feedback with the keyboard alone", async ({ page, signedIn }) => {
  await signedIn("keys-feedback", "/profile?tab=help");
  // Name and email come filled in from the account.
  await tabTo(page, page.getByLabel("Name", { exact: true }));
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Keyboard Person");
  await tabTo(page, page.getByLabel("Message"));
  await page.keyboard.type("Sent without a mouse.");
  await screenshot(page, "keyboard-focus-textarea");
  await tabTo(page, page.getByRole("button", { name: "Submit Feedback" }));
  await page.keyboard.press("Enter");
  await expect(flash(page, "Feedback submitted successfully!")).toBeVisible();
});

test("change the display name with the keyboard alone", async ({ page, signedIn }) => {
  await signedIn("keys-name", "/profile");
  await tabTo(page, page.getByRole("link", { name: "Edit Profile" }));
  await page.keyboard.press("Enter");
  const name = page.getByLabel("Display Name");
  await expect(name).toBeVisible();
  await tabTo(page, name);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Keys Only");
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Display Name")).toHaveCount(0);
  await expect(page.getByText("Keys Only").first()).toBeVisible();
});
