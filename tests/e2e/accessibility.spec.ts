import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type Route } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { NOT_SCREENS, SCREENS } from "./screens";
import { coverageProblems } from "./coverage";
import { openScreen, test as viewerTest } from "./viewers";
import { ROUTES_DIR, routeModules } from "../support/route-modules";

// Every screen (tests/e2e/screens.ts), with JavaScript on and off: axe-core finds no serious or
// critical violation, every element that Tab reaches shows a focus indicator, and nothing is
// covered or too small to tap (tests/e2e/coverage.ts; one page load for all three).

// A page with JavaScript on, one per worker, where the documents of pages without JavaScript are
// copied for axe (a page and its renderer made per test cost a second each).
const test = viewerTest.extend<object, { scriptedCopy: Page }>({
  scriptedCopy: [
    async ({ browser }, provide) => {
      const context = await browser.newContext({ javaScriptEnabled: true });
      await provide(await context.newPage());
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

/**
 * axe-core on `page`, in one pass in the page (legacy mode: the default opens a second page per
 * analysis to merge the frames' partial results, which doubled its time here; legacy mode runs
 * axe in each frame itself), reporting the violations alone (the passes' details are not read).
 */
const analyze = (page: Page) =>
  new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ["violations"] })
    .analyze();

/**
 * Runs axe-core on the page as it is. Axe runs as a script and waits on promises, which a page
 * without JavaScript never settles; so there, the document the browser built without scripts is
 * copied, its script tags left out, into a page of the same size where axe can run, and analysed.
 */
async function axe(page: Page, javaScriptEnabled: boolean, copy: Page) {
  if (javaScriptEnabled) return analyze(page);
  const html = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "");
  await copy.setViewportSize(page.viewportSize()!);
  const url = page.url();
  const document = (route: Route) => route.fulfill({ contentType: "text/html; charset=utf-8", body: html });
  await copy.route(url, document);
  try {
    await copy.goto(url);
    await copy.waitForLoadState("load");
    expect(await copy.locator("script").count()).toBe(0);
    return await analyze(copy);
  } finally {
    await copy.unroute(url, document);
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

    test(`${screen.name}: axe-core finds no serious or critical violation, each element Tab reaches shows a focus indicator, and at 320, 390 and 1280 px no content is under a fixed element at the end of the page nor any control once scrolled to, with every tap target 44 × 44 px or that much room at 320 and 390 px`, async ({
      page,
      baseURL,
      javaScriptEnabled,
      scriptedCopy,
    }) => {
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
