import { test as base, expect, type Browser, type BrowserContextOptions, type Page } from "@playwright/test";
import type { Screen, Viewer } from "./screens";
import { openVerificationLink, signInOverHttp, signUpOverHttp } from "./support";

// The suites that visit every screen (tests/e2e/screens.ts) as its kind of viewer.

type StorageState = Exclude<BrowserContextOptions["storageState"], string | undefined>;

/**
 * One browser state per kind of viewer, made once per worker (two sign-ups, one email verified, and
 * a sign-in as the console's owner, whom `npm test` makes before the app starts:
 * scripts/lib/console-operator.mjs).
 */
async function viewerStates(browser: Browser, baseURL: string): Promise<Record<Viewer, StorageState>> {
  const visitor: StorageState = {
    cookies: [{ name: "hasSeenOnboarding", value: "true", ...cookieScope(baseURL) }],
    origins: [],
  };
  const member = async (verified: boolean) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const email = await signUpOverHttp(page, verified ? "a11y-verified" : "a11y", baseURL);
    if (verified) {
      await page.goto("/withdraw");
      await page.getByRole("button", { name: "Send verification email" }).click();
      await expect(page.getByText("Verification email sent")).toBeVisible();
      await openVerificationLink(email);
    }
    const state = await context.storageState();
    await context.close();
    return state;
  };
  const operator = async () => {
    const email = process.env.E2E_OPERATOR_EMAIL;
    const password = process.env.E2E_OPERATOR_PASSWORD;
    if (!email || !password) throw new Error("E2E_OPERATOR_EMAIL is not set: run the browser tests through `npm test`");
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await signInOverHttp(page, email, password, baseURL);
    const state = await context.storageState();
    await context.close();
    return state;
  };
  const [unverified, verified] = [await member(false), await member(true)];
  return {
    "first-visit": { cookies: [], origins: [] },
    visitor,
    member: unverified,
    "verified-member": verified,
    operator: await operator(),
  };
}

function cookieScope(baseURL: string) {
  const url = new URL(baseURL);
  return {
    domain: url.hostname,
    path: "/",
    expires: -1,
    httpOnly: false,
    secure: false,
    sameSite: "Lax" as const,
  };
}

export const test = base.extend<object, { viewers: Record<Viewer, StorageState> }>({
  viewers: [
    async ({ browser }, provide, workerInfo) => provide(await viewerStates(browser, workerInfo.project.use.baseURL!)),
    { scope: "worker", timeout: 60_000 },
  ],
});

/** Opens the screen the way a person reaches it. */
export async function openScreen(page: Page, screen: Screen, baseURL: string, javaScriptEnabled: boolean) {
  if (screen.crossSitePost) {
    // A page of another origin (here about:blank, Origin: null) posting a form to the app.
    await page.goto("about:blank");
    await page.setContent(
      `<form method="post" action="${new URL(screen.path, baseURL).href}"><button>Send</button></form>`,
    );
    await page.getByRole("button", { name: "Send" }).click();
    await page.waitForURL(new URL(screen.path, baseURL).href);
  } else {
    await page.goto(screen.path);
  }
  await expect(page.locator("body")).toBeVisible();
  // With JavaScript, until React has taken over and the page's requests are done.
  await page.waitForLoadState(javaScriptEnabled ? "networkidle" : "load");
}
