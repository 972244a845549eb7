import { expect, type Page } from "@playwright/test";
import { openProfile } from "./profile-support";
import { PASSWORD, settled, signInOverHttp, test } from "./support";

// The page is painted before its scripts run (decision 101): what a person types, chooses or ticks
// before React listens is applied once it does (app/lib/early-input.ts, docs/decisions/105). Each
// test holds the app's scripts, acts on the painted page, then lets them run.

/** Holds every request for the app's scripts until `release()`. */
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(
    (url) => url.pathname.startsWith("/build/") && url.pathname.endsWith(".js"),
    async (route) => {
      held += 1;
      await released;
      await route.continue();
    },
  );
  return { release, held: () => held };
}

/** Opens `path` with the scripts held: the server's page, painted, with nothing listening yet. */
async function openBeforeScripts(page: Page, path: string) {
  const scripts = await holdScripts(page);
  await page.goto(path, { waitUntil: "domcontentloaded" });
  await expect.poll(scripts.held, "the scripts were asked for, and are held").toBeGreaterThan(0);
  return scripts;
}

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
