import { expect } from "@playwright/test";
import { holdRequests, openProfile, toasts } from "./profile-support";
import { test, PASSWORD } from "./support";

// With JavaScript only: without it the refusal is a new page, shown once it has been read, so
// nothing can be typed before the page's data is read again.

test("a password typed again while the refusal shows and the page is still being read again is kept, and deletes the account", async ({
  page,
}) => {
  await openProfile(page, "retype");
  const password = page.getByLabel("Password");
  const remove = page.getByRole("button", { name: "Delete account permanently" });
  await password.fill("not-the-password");
  // The page's data read again after the refusal waits until the password has been typed again.
  const read = await holdRequests(page, "/profile", "GET");
  const readAgain = page.waitForResponse(
    (response) => response.request().method() === "GET" && new URL(response.url()).pathname === "/profile.data",
  );
  await remove.click();
  await expect(page.getByRole("alert")).toHaveText(
    "Failed to delete account. Please check your password and try again.",
  );
  await password.fill(PASSWORD);
  expect(read.held()).toBeGreaterThan(0);
  read.release();
  await readAgain;
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  await expect(password).toHaveValue(PASSWORD);
  await remove.click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(toasts(page, "Your account has been deleted")).toBeVisible();
});
