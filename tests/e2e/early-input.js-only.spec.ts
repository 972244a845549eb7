import { expect } from "@playwright/test";
import { openProfile } from "./profile-support";
import { openBeforeScripts, PASSWORD, settled, signInOverHttp, test } from "./support";

// The page is painted before its scripts run (decision 101): what a person types, chooses or ticks
// before React listens is applied once it does (app/lib/early-input.ts, docs/decisions/105). Each
// test holds the app's scripts, acts on the painted page, then lets them run.

test("a search typed in Earn before the page's scripts ran is searched once they do", async ({ page, signedIn }) => {
  await signedIn("early-search");
  const scripts = await openBeforeScripts(page, "/earn");
  await page.getByRole("searchbox", { name: "Search for tasks" }).fill("zzzz");
  expect(new URL(page.url()).searchParams.get("q")).toBeNull();
  scripts.release();
  await expect(page).toHaveURL(/[?&]q=zzzz/);
  await expect(page.getByRole("searchbox", { name: "Search for tasks" })).toHaveValue("zzzz");
});

test("a password typed before the page's scripts ran is kept once they run, enables the delete button and deletes the account", async ({
  page,
}) => {
  await openProfile(page, "early-password");
  const scripts = await openBeforeScripts(page, "/profile");
  await page.getByLabel("Password").fill(PASSWORD);
  scripts.release();
  await settled(page);
  await expect(page.getByLabel("Password")).toHaveValue(PASSWORD);
  const remove = page.getByRole("button", { name: "Delete account permanently" });
  await expect(remove).toBeEnabled();
  await remove.click();
  await expect(page).toHaveURL(/\/auth$/);
});

test("a console filter chosen and ticked before the page's scripts ran is applied once they do", async ({
  page,
  baseURL,
}) => {
  await signInOverHttp(page, process.env.E2E_OPERATOR_EMAIL!, process.env.E2E_OPERATOR_PASSWORD!, baseURL!);
  const scripts = await openBeforeScripts(page, "/admin/support");
  await page.getByLabel("Kind").selectOption("missing_credit");
  await page.getByLabel("Assigned to me").check();
  expect(new URL(page.url()).search).toBe("");
  scripts.release();
  await expect(page).toHaveURL(/[?&]kind=missing_credit/);
  await expect(page).toHaveURL(/[?&]mine=1/);
});
