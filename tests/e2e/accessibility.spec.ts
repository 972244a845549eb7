import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Browser, type BrowserContextOptions, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { NOT_SCREENS, SCREENS, type Screen, type Viewer } from "./screens";
import { ROUTES_DIR, routeModules } from "../support/route-modules";
import { openVerificationLink, signUpOverHttp } from "./support";

// Every screen (tests/e2e/screens.ts), with JavaScript on and off: axe-core finds no serious or
// critical violation, and every element that Tab reaches shows a focus indicator.

type StorageState = Exclude<BrowserContextOptions["storageState"], string | undefined>;

/** One browser state per kind of viewer, made once per worker (two sign-ups, one email verified). */
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
  const [unverified, verified] = [await member(false), await member(true)];
  return { "first-visit": { cookies: [], origins: [] }, visitor, member: unverified, "verified-member": verified };
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

const test = base.extend<object, { viewers: Record<Viewer, StorageState> }>({
  viewers: [
    async ({ browser }, provide, workerInfo) => provide(await viewerStates(browser, workerInfo.project.use.baseURL!)),
    { scope: "worker", timeout: 60_000 },
  ],
});

test("the screen list covers every page module in app/routes (a new page must be added to tests/e2e/screens.ts)", () => {
  const modules = routeModules();
  const screened = new Set(SCREENS.map((screen) => screen.route));
  const unlisted = modules.filter((file) => !screened.has(file) && !(file in NOT_SCREENS));
  expect(unlisted, "route modules neither in SCREENS nor in NOT_SCREENS").toEqual([]);
  expect([...screened, ...Object.keys(NOT_SCREENS)].filter((file) => !modules.includes(file))).toEqual([]);
  // What is left out draws nothing: no page component.
  for (const file of Object.keys(NOT_SCREENS)) {
    expect(readFileSync(path.join(ROUTES_DIR, file), "utf8"), file).not.toMatch(/export default/);
  }
});

/** Opens the screen the way a person reaches it. */
async function open(page: Page, screen: Screen, baseURL: string, javaScriptEnabled: boolean) {
  if (screen.crossSitePost) {
    // A page of another origin (here about:blank, Origin: null) posting a form to the app.
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
  // The CSS start spinner covers an app page for its first 300 ms.
  await expect(page.locator(".start-spinner")).toBeHidden();
}

/**
 * Runs axe-core on the page as it is. Axe runs as a script and waits on promises, which a page
 * without JavaScript never settles; so there, the document the browser built without scripts is
 * copied, its script tags left out, into a page of the same size where axe can run, and analysed.
 */
async function axe(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) return new AxeBuilder({ page }).analyze();
  const html = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "");
  const context = await page
    .context()
    .browser()!
    .newContext({ javaScriptEnabled: true, viewport: page.viewportSize() });
  try {
    const copy = await context.newPage();
    await copy.route(page.url(), (route) => route.fulfill({ contentType: "text/html; charset=utf-8", body: html }));
    await copy.goto(page.url());
    await copy.waitForLoadState("load");
    await expect(copy.locator(".start-spinner")).toBeHidden();
    expect(await copy.locator("script").count()).toBe(0);
    return await new AxeBuilder({ page: copy }).analyze();
  } finally {
    await context.close();
  }
}

interface TabStop {
  element: string;
  /** The outline and box shadow when focused, then once focus has moved on. */
  focused: string;
  blurred: string;
}

/**
 * Presses Tab until focus comes back round (or leaves the page), recording for each element what
 * draws its focus indicator: its outline or box shadow, or for a visually hidden control (a radio
 * drawn as a card) those of its label.
 */
async function walkTabOrder(page: Page): Promise<TabStop[]> {
  const stops: TabStop[] = [];
  for (let press = 0; press < 150; press++) {
    await page.keyboard.press("Tab");
    const step = await page.evaluate(() => {
      const state = window as unknown as { __tabStops?: Element[] };
      const seen = (state.__tabStops ??= []);
      const look = (element: Element) => {
        const small = element.getBoundingClientRect();
        const drawn =
          small.width <= 1 && small.height <= 1 && element instanceof HTMLInputElement
            ? (element.labels?.[0] ?? element)
            : element;
        for (const animation of drawn.getAnimations()) animation.finish();
        const style = getComputedStyle(drawn);
        const outline =
          style.outlineStyle !== "none" &&
          parseFloat(style.outlineWidth) > 0 &&
          !/rgba\(.*, 0\)/.test(style.outlineColor)
            ? `outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`
            : "";
        return `${outline}|${style.boxShadow === "none" ? "" : style.boxShadow}`;
      };
      const previous = seen.at(-1);
      const active = document.activeElement;
      const done = !active || active === document.body || seen.includes(active);
      // A dialog with one control keeps it focused round after round: take the focus away to compare.
      if (done && previous === active && previous instanceof HTMLElement) previous.blur();
      const blurredPrevious = previous ? look(previous) : null;
      if (done) return { blurredPrevious, done: true };
      seen.push(active);
      const name = `${active.tagName.toLowerCase()} "${(active.getAttribute("aria-label") ?? active.textContent ?? "").trim().slice(0, 40)}"`;
      return { blurredPrevious, done: false, element: name, focused: look(active) };
    });
    if (step.blurredPrevious !== null && stops.length > 0) stops.at(-1)!.blurred = step.blurredPrevious;
    if (step.done) break;
    stops.push({ element: step.element!, focused: step.focused!, blurred: "" });
  }
  return stops;
}

for (const screen of SCREENS) {
  test.describe(`${screen.name} (${screen.path}, ${screen.viewer})`, () => {
    // (Fixture callbacks are named `provide` here: the React hooks lint reads `use` as React's.)
    test.use({ storageState: async ({ viewers }, provide) => provide(viewers[screen.viewer]) });

    test(`${screen.name}: axe-core finds no serious or critical violation, and each element Tab reaches shows a focus indicator`, async ({
      page,
      baseURL,
      javaScriptEnabled,
    }) => {
      await open(page, screen, baseURL!, javaScriptEnabled);
      const results = await axe(page, javaScriptEnabled);
      const serious = results.violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .flatMap((violation) =>
          violation.nodes.map(
            (node) =>
              `${violation.impact} ${violation.id} on ${node.target.join(" ")}: ${node.any
                .concat(node.all, node.none)
                .map((check) => check.message)
                .join("; ")}`,
          ),
        );
      expect(serious).toEqual([]);

      const stops = await walkTabOrder(page);
      expect(stops.length, "Tab reaches something").toBeGreaterThan(0);
      const unmarked = stops
        .filter((stop) => stop.focused === "|" || stop.focused === stop.blurred)
        .map((stop) => `${stop.element}: ${stop.focused}`);
      expect(unmarked, "elements with no visible focus indicator").toEqual([]);
    });
  });
}
