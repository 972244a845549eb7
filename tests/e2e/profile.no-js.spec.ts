import { expect } from "@playwright/test";
import { screenshot, test } from "./support";

// What Profile shows only to a browser without JavaScript.

test("without JavaScript the Push notifications switch says This device needs JavaScript to receive push notifications.", async ({
  page,
  signedIn,
}) => {
  await signedIn("pushnojs", "/profile");
  const push = page.getByRole("switch", { name: /^Push notifications/ });
  await expect(push).toHaveAttribute("aria-checked", "true");
  const note = page.getByText("This device needs JavaScript to receive push notifications.");
  await expect(note).toBeVisible();
  await expect(page.getByText(/On this device: (enabled|not enabled yet)/)).toHaveCount(0);
  await note.scrollIntoViewIfNeeded();
  await screenshot(page, "profile-push-no-js");
});

test("without JavaScript the delete button is enabled with an empty password, and an empty password is refused", async ({
  page,
  signedIn,
}) => {
  const email = await signedIn("deletenojs", "/profile");
  await page.getByRole("button", { name: "Delete account permanently" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Failed to delete account. Please check your password and try again.",
  );
  await expect(page.getByRole("heading", { level: 1, name: `${email.split("@")[0]}'s Profile` })).toBeVisible();
});
