import type AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { NOT_SCREENS, SCREENS, type Viewer } from "./screens";
import { coverageProblems } from "./coverage";
import { openScreen, test as viewerTest } from "./viewers";
import { ROUTES_DIR, routeModules } from "../support/route-modules";

// Every screen (tests/e2e/screens.ts), with JavaScript on and off: axe-core finds no serious or
// critical violation, every element that Tab reaches shows a focus indicator, and nothing is
// covered or too small to tap (tests/e2e/coverage.ts; one page load for all three).

// The pages of a worker are kept from test to test: one per kind of viewer (its cookies set again
// before each test), so a screen opens with the app's scripts and styles already in the browser's
// cache, and one with JavaScript on where the documents of pages without JavaScript are copied for
// axe. A new browser context per test, with an empty cache, took a second or more of each test.
interface WorkerPages {
  /** The worker's page for the viewer, with that viewer's cookies and the project's settings. */
  pageOf: (viewer: Viewer) => Promise<Page>;
  /** A page with JavaScript on and no Content-Security-Policy, at a page of the app without scripts. */
  scriptedCopy: Page;
}

const test = viewerTest.extend<object, WorkerPages>({
  pageOf: [
    async ({ browser, viewers }, provide, workerInfo) => {
      const { baseURL, javaScriptEnabled, viewport } = workerInfo.project.use;
      const pages = new Map<Viewer, Page>();
      await provide(async (viewer) => {
        let page = pages.get(viewer);
        if (!page) {
          page = await (await browser.newContext({ baseURL, javaScriptEnabled, viewport })).newPage();
          pages.set(viewer, page);
        }
        const context = page.context();
        // What a new context of this viewer would hold: its cookies, nothing stored by a page.
        await context.clearCookies();
        await context.addCookies(viewers[viewer].cookies);
        if (page.url().startsWith(baseURL!)) await page.evaluate(() => (localStorage.clear(), sessionStorage.clear()));
        await page.setViewportSize(viewport!);
        return page;
      });
      for (const page of pages.values()) await page.context().close();
    },
    { scope: "worker" },
  ],
  scriptedCopy: [
    async ({ browser }, provide, workerInfo) => {
      // Without the policy, a copied document's styles apply as they did where it came from.
      const context = await browser.newContext({ javaScriptEnabled: true, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(new URL("/offline", workerInfo.project.use.baseURL).href);
      await provide(page);
      await context.close();
    },
    { scope: "worker" },
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

type AxeResults = Awaited<ReturnType<AxeBuilder["analyze"]>>;

/** The axe-core script that @axe-core/playwright puts into pages (the same version). */
const AXE_SOURCE = readFileSync(
  createRequire(createRequire(import.meta.url).resolve("@axe-core/playwright")).resolve("axe-core/axe.min.js"),
  "utf8",
);

declare global {
  interface Window {
    axe: {
      configure(options: { allowedOrigins: string[] }): void;
      run(context: Document, options: { resultTypes: string[] }): Promise<AxeResults>;
    };
  }
}

/**
 * axe-core on the page's document, reporting the violations alone (the passes' details are not
 * read). axe is put into the document once (AxeBuilder.analyze put it in twice, 0.5 MB of script
 * each time) and runs on the top frame, as AxeBuilder's legacy mode did: the only frame a screen
 * holds is an offer wall's, of another site, which axe leaves alone (`<same_origin>`).
 */
async function analyze(page: Page): Promise<AxeResults> {
  if (!(await page.evaluate(() => "axe" in window))) {
    await page.evaluate(AXE_SOURCE);
    await page.evaluate(() => window.axe.configure({ allowedOrigins: ["<same_origin>"] }));
  }
  return page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
}

/**
 * Runs axe-core on the page as it is. Axe runs as a script and waits on timers, which a page
 * without JavaScript never fires; so there, the document the browser built without scripts is
 * copied, its script tags left out, into the worker's page with JavaScript (at the same address
 * and size, its styles from the cache), and analysed there.
 */
async function axe(page: Page, javaScriptEnabled: boolean, copy: Page) {
  if (javaScriptEnabled) return analyze(page);
  const html = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "");
  await copy.setViewportSize(page.viewportSize()!);
  await copy.evaluate((url) => history.replaceState(null, "", url), page.url());
  await copy.setContent(html, { waitUntil: "load" });
  expect(await copy.locator("script").count()).toBe(0);
  return analyze(copy);
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
 * drawn as a card) those of its label. Focus inside a frame (an offer wall: another site's page,
 * here the browser's page for an address it cannot reach) is that page's to draw: Tab goes on
 * through it, and nothing is recorded until focus is back in the app's document.
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
      if (active instanceof HTMLIFrameElement)
        return { blurredPrevious: previous ? look(previous) : null, inFrame: true };
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
    if ("inFrame" in step) continue;
    if (step.done) break;
    stops.push({ element: step.element!, focused: step.focused!, blurred: "" });
  }
  return stops;
}

for (const screen of SCREENS) {
  test.describe(`${screen.name} (${screen.path}, ${screen.viewer})`, () => {
    test(`${screen.name}: axe-core finds no serious or critical violation, each element Tab reaches shows a focus indicator, and at 320, 390 and 1280 px no content is under a fixed element at the end of the page nor any control once scrolled to, with every tap target 44 × 44 px or that much room at 320 and 390 px`, async ({
      pageOf,
      baseURL,
      javaScriptEnabled,
      scriptedCopy,
    }) => {
      const page = await pageOf(screen.viewer);
      await openScreen(page, screen, baseURL!, javaScriptEnabled);
      const results = await axe(page, javaScriptEnabled, scriptedCopy);
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

      expect(await coverageProblems(page), "covered or too small").toEqual([]);
    });
  });
}
