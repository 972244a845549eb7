import { expect } from "@playwright/test";
import { completeTasks, earnSixDollars, openVerificationLink, screenshot, test } from "./support";

// Runs with JavaScript on and off: the verification gate, earning enough to cash out, PayPal and
// UPI withdrawals, and the history sheet.

test("verify the email, then withdraw to PayPal and to UPI, and see both in the history", async ({
  page,
  signedIn,
  javaScriptEnabled,
}) => {
  const email = await signedIn("cashout");
  await page.getByRole("link", { name: "Withdraw", exact: true }).first().click();
  await expect(page.getByRole("heading", { name: "Withdraw Money" })).toBeVisible();
  await expect(page.getByText("Verify your email to cash out")).toBeVisible();
  await screenshot(page, "withdraw-verify-gate");
  await page.getByRole("button", { name: "Send verification email" }).click();
  await expect(page.getByText("Verification email sent")).toBeVisible();
  await openVerificationLink(email);
  await page.getByRole("link", { name: "Check again" }).click();
  await expect(page.getByRole("button", { name: "Withdraw Funds" })).toBeVisible();
  // Nothing available yet: the form says what to do, before anything is typed, and cannot be sent.
  await expect(page.locator("#cash-out-notice")).toContainText("Earn $1.00 more");
  await expect(page.locator("#cash-out-notice")).toContainText("UPI's minimum is $1.00 and you have $0.00 available.");
  await expect(page.getByRole("button", { name: "Withdraw Funds" })).toBeDisabled();
  await expect(page.getByLabel("Amount (USD)")).toBeDisabled();
  await screenshot(page, "withdraw-nothing-available");

  await earnSixDollars(page);
  await page.reload();
  await expect(page.getByTestId("balance")).toHaveText("$6.30");
  await expect(page.locator("#cash-out-notice")).toHaveCount(0);

  // A refused request keeps what was typed and says why, on the field.
  await page.getByLabel("Amount (USD)").fill("4.99");
  await page.getByLabel("PayPal email").fill("me@example.com");
  await page.getByRole("button", { name: "Withdraw Funds" }).click();
  await expect(page.getByText("Minimum withdrawal amount is $5.00")).toBeVisible();
  await screenshot(page, "withdraw-refused");

  await page.getByLabel("Amount (USD)").fill("5");
  await page.getByLabel("PayPal email").fill("me@example.com");
  await page.getByRole("button", { name: "Withdraw Funds" }).click();
  await expect(page.getByText("Withdrawal request submitted successfully (TEST MODE)")).toBeVisible();
  await expect(page.getByText("Your $5.00 withdrawal has been initiated.")).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$1.30");
  await expect(page.getByLabel("Amount (USD)")).toHaveValue("");

  // UPI: its own field (and its hint) replace the PayPal email, with or without JavaScript.
  await page.locator("label").filter({ hasText: "UPI (India)" }).click();
  await expect(page.getByLabel("PayPal email")).toBeHidden();
  await expect(page.getByText("For example name@okhdfcbank or 9876543210@ybl")).toBeVisible();
  await page.getByLabel("Amount (USD)").fill("1");
  await page.getByLabel("UPI ID").fill("name@okhdfcbank");
  await screenshot(page, "withdraw-upi");
  await page.getByRole("button", { name: "Withdraw Funds" }).click();
  await expect(page.getByText("Your $1.00 withdrawal has been initiated.")).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$0.30");

  await page.getByRole("link", { name: "History" }).click();
  const sheet = page.getByRole("dialog", { name: "Withdrawal History" });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByText("View all your past withdrawal requests.")).toBeVisible();
  // One row group per withdrawal: the spec's columns, then where it went and its step.
  const withdrawals = sheet.locator("tbody");
  await expect(withdrawals).toHaveCount(2);
  await expect(withdrawals.nth(0)).toContainText("$1.00");
  await expect(withdrawals.nth(0)).toContainText("UPI");
  await expect(withdrawals.nth(0)).toContainText("To na•••@okhdfcbank");
  await expect(withdrawals.nth(1)).toContainText("PayPal");
  await expect(withdrawals.nth(1)).toContainText("To m•••@example.com");
  await expect(sheet.getByTestId("money-state").first()).toHaveText(/^(In review|Sending)$/);
  await screenshot(page, "withdraw-history");
  if (javaScriptEnabled) {
    await page.keyboard.press("Escape");
  } else {
    await sheet.getByRole("link", { name: "Close history" }).click();
  }
  await expect(sheet).toHaveCount(0);
  await expect(page).toHaveURL(/\/withdraw$/);
});

test("an account without withdrawals sees No withdrawal history yet", async ({ page, signedIn }) => {
  await signedIn("nohistory", "/withdraw?history=1");
  await expect(page.getByRole("dialog", { name: "Withdrawal History" })).toContainText("No withdrawal history yet");
});

test("the amount holds what is typed to digits and two decimals with JavaScript (and what is typed after a refusal, while the page reloads), and without it the field is marked invalid", async ({
  page,
  signedIn,
  javaScriptEnabled,
}) => {
  const email = await signedIn("amount", "/withdraw");
  // $1.50 available: enough for UPI, so the form is open, and less than the $5.00 typed below.
  await completeTasks(page, ["task-004"]);
  await page.getByRole("button", { name: "Send verification email" }).click();
  // Sent once the page says so (with JavaScript the post is still on its way when the click returns).
  await expect(page.getByText("Verification email sent")).toBeVisible();
  await openVerificationLink(email);
  await page.getByRole("link", { name: "Check again" }).click();
  const amount = page.getByLabel("Amount (USD)");
  await expect(amount).toHaveAttribute("inputmode", "decimal");
  if (javaScriptEnabled) {
    // "Check again" loads the page anew: typing before React has hydrated it goes in unfiltered, so
    // the typing is tried again until the page's own handler holds it.
    await expect(async () => {
      await amount.fill("");
      await amount.pressSequentially("12.345x");
      await expect(amount).toHaveValue("12.34", { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    expect(await amount.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(true);

    // A refusal shows while the page's data reloads: what is typed meanwhile stays once the reload
    // ends (the form was made again then, and the amount went back to what was sent).
    await amount.fill("5");
    await page.getByLabel("PayPal email").fill("me@example.com");
    let endReload!: () => void;
    const reloadHeld = new Promise<void>((resolve) => (endReload = resolve));
    await page.route("**/withdraw.data*", async (route) => {
      if (route.request().method() === "GET") await reloadHeld;
      await route.continue();
    });
    const withdraw = page.getByRole("button", { name: "Withdraw Funds" });
    await withdraw.click();
    await expect(page.getByText("Amount exceeds your available balance")).toBeVisible();
    await expect(page.getByRole("button", { name: "Processing..." }), "the reload is still held").toBeVisible();
    await amount.fill("3");
    endReload();
    await expect(withdraw).toBeVisible();
    await expect(amount).toHaveValue("3");
  } else {
    await amount.pressSequentially("12.345x");
    await expect(amount).toHaveValue("12.345x");
    expect(await amount.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);
  }
});
