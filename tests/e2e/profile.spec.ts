import { expect } from "@playwright/test";
import { holdRequests, openProfile, toasts, waitForHydration } from "./profile-support";
import { screenshot, test, PASSWORD } from "./support";

// Runs with JavaScript on and off: every part of Profile is a link or a form that works both ways;
// what only JavaScript adds (pending text, the optimistic switch, the disabled delete button) is
// checked in the JavaScript project.

test("the header says {name}'s Profile, Back goes to / and the Settings gear opens the Settings page at /settings", async ({
  page,
}) => {
  const { name } = await openProfile(page, "header");
  await expect(page.getByRole("link", { name: "Back" })).toHaveAttribute("href", "/");
  await expect(page.getByRole("link", { name: "Settings" })).toHaveAttribute("href", "/settings");
  await screenshot(page, "profile-account");

  await page.getByRole("link", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: `Hi, ${name}` })).toBeVisible();

  await page.goto("/profile");
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  // docs/decisions/071-settings-is-a-real-page.md: no longer the 404 page.
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toHaveCount(0);
});

test("the tabs My Account, Referrals and Help & Support switch through ?tab= in the URL", async ({ page }) => {
  await openProfile(page, "tabs");
  const tabs = page.getByRole("navigation", { name: "Profile sections" });
  await expect(tabs.getByRole("link", { name: "My Account" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { name: "Personal Information" })).toBeVisible();

  await tabs.getByRole("link", { name: "Referrals" }).click();
  await expect(page).toHaveURL(/\/profile\?tab=referrals$/);
  await expect(tabs.getByRole("link", { name: "Referrals" })).toHaveAttribute("aria-current", "page");
  await expect(tabs.getByRole("link", { name: "My Account" })).not.toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Go to Referral Program" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Personal Information" })).toHaveCount(0);

  await tabs.getByRole("link", { name: "Help & Support" }).click();
  await expect(page).toHaveURL(/\/profile\?tab=help$/);
  await expect(tabs.getByRole("link", { name: "Help & Support" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { name: "Frequently Asked Questions" })).toBeVisible();

  await tabs.getByRole("link", { name: "My Account" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole("heading", { name: "Personal Information" })).toBeVisible();

  // The URL alone picks the tab (a shared or reloaded link opens the same one).
  await page.goto("/profile?tab=help");
  await expect(tabs.getByRole("link", { name: "Help & Support" })).toHaveAttribute("aria-current", "page");
  await screenshot(page, "profile-tabs-help");
});

test("Edit Profile shows the read-only email, and Cancel throws away a typed name and its error, restoring the stored name", async ({
  page,
}) => {
  const { email, name } = await openProfile(page, "cancel");
  await page.getByRole("link", { name: "Edit Profile" }).click();
  await expect(page).toHaveURL(/edit=1/);
  const displayName = page.getByLabel("Display Name");
  await expect(displayName).toHaveValue(name);
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Email")).toBeDisabled();
  await expect(page.getByText("Email cannot be changed")).toBeVisible();
  // A refused attempt first, so Cancel has an error to throw away too.
  await displayName.fill("");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Your display name must be 1 to 50 characters")).toBeVisible();
  await displayName.fill("Somebody Else");
  await screenshot(page, "profile-edit");

  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByLabel("Display Name")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: `${name}'s Profile` })).toBeVisible();
  await expect(page.getByText("Somebody Else")).toHaveCount(0);

  await page.getByRole("link", { name: "Edit Profile" }).click();
  await expect(page.getByLabel("Display Name")).toHaveValue(name);
  await expect(page.getByText("Your display name must be 1 to 50 characters")).toHaveCount(0);
});

test("Save Changes (reading Saving... while it works, with JavaScript) updates the name, the header and the next edit: Profile updated successfully", async ({
  page,
  javaScriptEnabled,
}) => {
  const { name } = await openProfile(page, "rename");
  await page.getByRole("link", { name: "Edit Profile" }).click();
  await page.getByLabel("Display Name").fill("  Ada Lovelace  ");
  if (javaScriptEnabled) {
    const save = await holdRequests(page, "/profile", "POST");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect.poll(save.held).toBe(1);
    await expect(page.getByRole("button", { name: "Saving..." })).toBeDisabled();
    await expect(page.getByRole("heading", { level: 1, name: `${name}'s Profile` })).toBeVisible();
    save.release();
  } else {
    await page.getByRole("button", { name: "Save Changes" }).click();
  }
  await expect(page).toHaveURL(/\/profile$/);
  await expect(toasts(page, "Profile updated successfully")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Ada Lovelace's Profile" })).toBeVisible();
  await expect(page.getByLabel("Display Name")).toHaveCount(0);
  await screenshot(page, "profile-renamed");

  // Editing again starts from the new name.
  await page.getByRole("link", { name: "Edit Profile" }).click();
  await expect(page.getByLabel("Display Name")).toHaveValue("Ada Lovelace");

  // Stored, not just shown: a reload and Home say the same.
  await page.goto("/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Ada Lovelace's Profile" })).toBeVisible();
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Hi, Ada Lovelace" })).toBeVisible();
});

test("a blank or whitespace-only display name is refused with a message and the stored name stays", async ({
  page,
}) => {
  const { name } = await openProfile(page, "blankname");
  await page.getByRole("link", { name: "Edit Profile" }).click();
  for (const blank of ["", "   "]) {
    await page.getByLabel("Display Name").fill(blank);
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Your display name must be 1 to 50 characters")).toBeVisible();
    await expect(page.getByLabel("Display Name")).toHaveAttribute("aria-invalid", "true");
  }
  await expect(toasts(page, "Profile updated successfully")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: `${name}'s Profile` })).toBeVisible();
  await screenshot(page, "profile-blank-name");

  await page.goto("/profile");
  await expect(page.getByRole("heading", { level: 1, name: `${name}'s Profile` })).toBeVisible();
});

test("Recent Activity lists a check-in made on Home as Daily check-in +$0.10", async ({ page, signedIn }) => {
  await signedIn("activity", "/profile");
  await expect(page.getByText("No activity yet. Check in or complete a task to start earning.")).toBeVisible();

  await page.goto("/");
  await page.getByRole("button", { name: "Check In Now (+10 coins)" }).click();
  await expect(page.getByRole("button", { name: "Checked In Today" })).toBeDisabled();
  await page.getByRole("link", { name: "Profile" }).last().click();
  const activity = page.getByRole("list", { name: "Recent activity" }).getByRole("listitem");
  await expect(activity).toHaveCount(1);
  await expect(activity.first()).toContainText("Daily check-in");
  await expect(activity.first()).toContainText("+$0.10");
  await screenshot(page, "profile-recent-activity");
});

test("turning Marketing off and on again saves each change (Notification preferences updated) and a reload keeps it; with JavaScript the switch flips before the server answers", async ({
  page,
  javaScriptEnabled,
}) => {
  await openProfile(page, "marketing");
  const marketing = page.getByRole("switch", { name: /^Marketing/ });
  await expect(page.getByRole("switch")).toHaveCount(5);
  await expect(marketing).toHaveAttribute("aria-checked", "true");

  if (javaScriptEnabled) {
    // Optimistic: the new state shows while the save is still held back.
    const save = await holdRequests(page, "/profile", "POST");
    await marketing.click();
    await expect.poll(save.held).toBe(1);
    await expect(marketing).toHaveAttribute("aria-checked", "false");
    await expect(marketing).toBeDisabled();
    await expect(toasts(page, "Notification preferences updated")).toHaveCount(0);
    save.release();
  } else {
    await marketing.click();
  }
  await expect(toasts(page, "Notification preferences updated")).toBeVisible();
  await expect(marketing).toHaveAttribute("aria-checked", "false");
  await expect(marketing).toBeEnabled();
  await screenshot(page, "profile-marketing-off");

  await page.reload();
  await waitForHydration(page);
  await expect(marketing).toHaveAttribute("aria-checked", "false");
  // The other switches were left alone.
  for (const other of [/^Email notifications/, /^Withdrawal updates/, /^Reward alerts/]) {
    await expect(page.getByRole("switch", { name: other })).toHaveAttribute("aria-checked", "true");
  }

  await marketing.click();
  await expect(toasts(page, "Notification preferences updated")).toBeVisible();
  await expect(marketing).toHaveAttribute("aria-checked", "true");
  await page.reload();
  await expect(marketing).toHaveAttribute("aria-checked", "true");
});

test("Deactivate account asks for confirmation, then signs out to /auth (Your account has been deactivated); signing in again reactivates it", async ({
  page,
}) => {
  const { email, name } = await openProfile(page, "deactivate");
  await page.getByRole("link", { name: "Deactivate account" }).click();
  await expect(page.getByText("Deactivate your account now?")).toBeVisible();
  await screenshot(page, "profile-deactivate-confirm");

  // Cancel leaves it as it was.
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByText("Deactivate your account now?")).toHaveCount(0);
  await expect(page).toHaveURL(/\/profile$/);

  await page.getByRole("link", { name: "Deactivate account" }).click();
  await page.getByRole("button", { name: "Deactivate", exact: true }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(toasts(page, "Your account has been deactivated")).toBeVisible();
  await screenshot(page, "auth-deactivated");

  // Signed out: Profile sends the visitor to sign in.
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile$/);

  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByPlaceholder("Enter your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  const welcome = toasts(page, "Signed in successfully!");
  await expect(welcome).toBeVisible();
  await expect(welcome).toContainText("Welcome back! Your account has been reactivated.");
  await expect(page.getByRole("heading", { level: 1, name: `${name}'s Profile` })).toBeVisible();
  await screenshot(page, "profile-reactivated");

  // Only the first sign-in after deactivation says so.
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByPlaceholder("Enter your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(toasts(page, "Signed in successfully!")).toBeVisible();
  await expect(page.getByText("Welcome back! Your account has been reactivated.")).toHaveCount(0);
});

test("Delete account (disabled until a password is typed, with JavaScript): a wrong password is refused, the right one deletes the account and its email can no longer sign in", async ({
  page,
  javaScriptEnabled,
}) => {
  const { email, name } = await openProfile(page, "delete");
  const password = page.getByLabel("Password");
  const remove = page.getByRole("button", { name: "Delete account permanently" });
  if (javaScriptEnabled) {
    await expect(remove).toBeDisabled();
    await password.fill("x");
    await expect(remove).toBeEnabled();
    await password.fill("");
    await expect(remove).toBeDisabled();
  } else {
    await expect(remove).toBeEnabled();
  }

  await password.fill("not-the-password");
  await remove.click();
  await expect(page.getByRole("alert")).toHaveText(
    "Failed to delete account. Please check your password and try again.",
  );
  await expect(page.getByRole("heading", { level: 1, name: `${name}'s Profile` })).toBeVisible();
  await screenshot(page, "profile-delete-refused");

  await password.fill(PASSWORD);
  await remove.click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(toasts(page, "Your account has been deleted")).toBeVisible();
  await screenshot(page, "auth-deleted");

  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByPlaceholder("Enter your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password. Please try again.");
  await expect(page).toHaveURL(/\/auth/);
});

test("Delete account with money left says the balance it gives up before any password, and goes only with I give up $0.10 ticked", async ({
  page,
}) => {
  await openProfile(page, "forfeit");
  await page.goto("/");
  await page.getByRole("button", { name: "Check In Now (+10 coins)" }).click();
  await expect(page.getByRole("button", { name: "Checked In Today" })).toBeDisabled();
  await page.goto("/profile");
  await waitForHydration(page);
  await expect(page.getByTestId("delete-forfeit")).toContainText(
    "Your account still holds $0.10. Deleting it gives that money up: it cannot be withdrawn or recovered afterwards.",
  );
  const giveUp = page.getByRole("checkbox", { name: "I give up $0.10" });
  await expect(giveUp).not.toBeChecked();
  await page.getByLabel("Password").fill(PASSWORD);
  const remove = page.getByRole("button", { name: "Delete account permanently" });
  await remove.click();
  // Not ticked: the browser asks for it, and nothing is sent.
  expect(await giveUp.evaluate((box: HTMLInputElement) => box.validity.valueMissing)).toBe(true);
  await expect(page).toHaveURL(/\/profile/);
  await screenshot(page, "profile-delete-forfeit");

  await giveUp.check();
  await remove.click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(toasts(page, "Your account has been deleted")).toBeVisible();
});

test("Log out on Profile goes to /auth with Logged out successfully, and Profile then asks to sign in", async ({
  page,
}) => {
  await openProfile(page, "logout");
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(toasts(page, "Logged out successfully")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
  await screenshot(page, "auth-logged-out");
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile$/);
});

test("the Referrals tab shows the referral code (copy button only with JavaScript) and Go to Referral Program opens /referral with the same code", async ({
  page,
  javaScriptEnabled,
}) => {
  await openProfile(page, "reftab");
  await page.getByRole("link", { name: "Referrals", exact: true }).click();
  await expect(page).toHaveURL(/tab=referrals/);
  const code = page.getByTestId("referral-code");
  await expect(code).toHaveText(/^[A-HJ-NP-Z2-9]{7}$/);
  const value = (await code.textContent())!;
  const copy = page.getByRole("button", { name: "Copy Code" });
  if (javaScriptEnabled) await expect(copy).toBeEnabled();
  else await expect(copy).toBeDisabled();
  await screenshot(page, "profile-referrals");

  await page.getByRole("link", { name: "Go to Referral Program" }).click();
  await expect(page).toHaveURL(/\/referral$/);
  await expect(page.getByRole("heading", { name: "Refer & Earn" })).toBeVisible();
  await expect(page.getByTestId("referral-code")).toHaveText(value);
});

test("the FAQ opens as <details> (with or without JavaScript) and says 3-5 business days and a $5 minimum", async ({
  page,
}) => {
  await openProfile(page, "faq");
  await page.getByRole("link", { name: "Help & Support" }).click();
  await expect(page.getByRole("heading", { name: "Frequently Asked Questions" })).toBeVisible();
  const paid = page.locator("details").filter({ hasText: "When will I get paid?" });
  const withdraw = page.locator("details").filter({ hasText: "How do I withdraw my earnings?" });
  await expect(paid.getByText("Payments are made within 3-5 business days.")).toBeHidden();

  await paid.locator("summary").click();
  await expect(paid).toHaveAttribute("open", "");
  await expect(paid.getByText("Payments are made within 3-5 business days.")).toBeVisible();
  await withdraw.locator("summary").click();
  await expect(withdraw.getByText("The minimum withdrawal is $5.")).toBeVisible();
  await expect(withdraw.getByTestId("faq-in-app")).toHaveText(
    "In this app the minimum depends on the method: PayPal $5.00, UPI $1.00.",
  );
  await expect(paid.getByRole("link", { name: "See when yours is expected" })).toHaveAttribute(
    "href",
    "/withdraw?history=1",
  );
  await screenshot(page, "profile-faq-open");

  await paid.locator("summary").click();
  await expect(paid.getByText("Payments are made within 3-5 business days.")).toBeHidden();
});

test("the feedback form is prefilled with the name and email, refuses a blank message with Please fill out all fields on the field and no failure banner, and a sent message appears in Your Feedback and clears the form", async ({
  page,
}) => {
  const { email, name } = await openProfile(page, "feedback");
  await page.getByRole("link", { name: "Help & Support" }).click();
  const form = page.locator("form#feedback");
  await expect(form.getByLabel("Name")).toHaveValue(name);
  await expect(form.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByText("You haven't sent any feedback yet.")).toBeVisible();

  // An empty message, then one of spaces only (blank once trimmed).
  for (const blank of ["", "   "]) {
    await form.getByLabel("Message").fill(blank);
    // Each refusal comes from the server and draws the form anew: wait for it (the old Message
    // field gone), or the second one's checks pass on the first's and its reply lands after the
    // message below is typed, drawing the form over it.
    const field = await form.getByLabel("Message").elementHandle();
    await form.getByRole("button", { name: "Submit Feedback" }).click();
    await expect
      .poll(() => field!.evaluate((element) => element.isConnected).catch(() => false), { timeout: 10_000 })
      .toBe(false);
    // On the blank field, not in a failure banner: nothing failed (docs/decisions/070).
    await expect(form.locator("#feedback-message-error")).toHaveText("Please fill out all fields");
    await expect(form.getByLabel("Message")).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByText("Failed to submit feedback")).toHaveCount(0);
    await expect(form.getByRole("alert")).toHaveCount(0);
  }
  await expect(toasts(page, "Feedback submitted successfully!")).toHaveCount(0);
  await expect(page.getByText("You haven't sent any feedback yet.")).toBeVisible();
  await screenshot(page, "profile-feedback-refused");

  const message = `The check-in card is great (${test.info().project.name})`;
  await form.getByLabel("Message").fill(message);
  await form.getByRole("button", { name: "Submit Feedback" }).click();
  await expect(toasts(page, "Feedback submitted successfully!")).toBeVisible();
  await expect(page).toHaveURL(/\/profile\?tab=help$/);
  // Shown as a conversation of one message, open (docs/decisions/082).
  const conversations = page.getByTestId("conversation");
  await expect(conversations).toHaveCount(1);
  const messages = conversations.getByTestId("conversation-message");
  await expect(messages).toHaveCount(1);
  await expect(messages).toHaveText(/^You · \w{3} \d+, \d{4}/);
  await expect(messages).toContainText(message);
  await expect(conversations.getByTestId("ticket-status")).toHaveText("Open");
  // The form is ready for the next message: empty, still prefilled, without the earlier error.
  await expect(form.getByLabel("Message")).toHaveValue("");
  await expect(form.getByLabel("Name")).toHaveValue(name);
  await expect(form.getByLabel("Email")).toHaveValue(email);
  await expect(form.getByRole("alert")).toHaveCount(0);
  await screenshot(page, "profile-feedback-sent");
});

test("Legal & Privacy Policies on Help & Support opens /legal", async ({ page }) => {
  await openProfile(page, "legal");
  await page.getByRole("link", { name: "Help & Support" }).click();
  await page.getByRole("link", { name: "Legal & Privacy Policies" }).click();
  await expect(page).toHaveURL(/\/legal$/);
  await expect(page.getByRole("heading", { name: "Terms of Service" })).toBeVisible();
  await screenshot(page, "legal-from-profile");
});
