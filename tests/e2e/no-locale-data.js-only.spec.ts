import { expect, type BrowserContext, type Page } from "@playwright/test";
import { SCREENS, type Viewer } from "./screens";
import { settled } from "./support";
import { test } from "./viewers";

// The first Intl object a page makes loads the browser's locale data: 130–280 ms of one task on a
// phone's slower core (docs/decisions/103, 104). A returning visit makes none while it starts: its
// zone comes from the tz cookie while the clock's offset is the one it was checked at, dates in that
// zone are read from the clock, and numbers, dollars, rupees and month names are written out
// directly. Only a first visit, or one after the offset changed, asks Intl, once.

const ZONE = "Asia/Tokyo";
/** Japan's offset (no summer time) as Date#getTimezoneOffset gives it: minutes behind UTC. */
const OFFSET = -540;

test.use({ timezoneId: ZONE });

/** Counts, from before the page's own scripts run, every Intl object made and every locale-formatting call. */
function countLocaleCalls() {
  const calls: string[] = [];
  (window as unknown as { __localeCalls: string[] }).__localeCalls = calls;
  const where = () => (new Error().stack ?? "").split("\n").slice(2, 5).join(" ← ").replace(/\s+/g, " ");
  const intl = Intl as unknown as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(Intl)) {
    const original = intl[name];
    if (typeof original !== "function" || !/^[A-Z]/.test(name)) continue;
    intl[name] = new Proxy(original, {
      construct(target, args, newTarget) {
        calls.push(`new Intl.${name} at ${where()}`);
        return Reflect.construct(target, args, newTarget) as object;
      },
      apply(target, self, args) {
        calls.push(`Intl.${name}() at ${where()}`);
        return Reflect.apply(target as (...values: unknown[]) => unknown, self, args);
      },
    });
  }
  const methods: [object, string[]][] = [
    [Number.prototype, ["toLocaleString"]],
    [BigInt.prototype, ["toLocaleString"]],
    [Array.prototype, ["toLocaleString"]],
    [Date.prototype, ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"]],
    [String.prototype, ["localeCompare", "toLocaleLowerCase", "toLocaleUpperCase"]],
  ];
  for (const [prototype, names] of methods) {
    for (const name of names) {
      const holder = prototype as Record<string, (...values: unknown[]) => unknown>;
      const original = holder[name]!;
      holder[name] = function (this: unknown, ...args: unknown[]) {
        calls.push(`${name}() at ${where()}`);
        return original.apply(this, args);
      };
    }
  }
}

const localeCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { __localeCalls: string[] }).__localeCalls.splice(0));

/**
 * Until the page is hydrated and its router idle: its body made React's own (React takes an element
 * over once everything inside it is hydrated), every module it starts with imported and run.
 */
async function started(page: Page) {
  await settled(page);
  await page.waitForFunction(() => Object.keys(document.body).some((key) => key.startsWith("__reactFiber$")));
}

const zoneCookie = async (context: BrowserContext) =>
  (await context.cookies()).find((cookie) => cookie.name === "tz")?.value;

const VIEWERS: Viewer[] = ["first-visit", "visitor", "member", "verified-member", "operator"];

for (const viewer of VIEWERS) {
  // The React pages (not the offline page, which runs none of the app's scripts).
  const screens = SCREENS.filter(
    (screen) => screen.viewer === viewer && !screen.crossSitePost && screen.route.endsWith(".tsx"),
  );
  test(`as ${viewer}: the first page asks Intl for the zone and keeps it with the offset (${ZONE}:${OFFSET}); then none of the ${screens.length} screens makes an Intl object or a locale call while it starts and hydrates`, async ({
    browser,
    viewers,
  }, testInfo) => {
    const { baseURL, viewport } = testInfo.project.use;
    const context = await browser.newContext({
      baseURL,
      viewport,
      timezoneId: ZONE,
      storageState: viewers[viewer],
    });
    await context.clearCookies({ name: "tz" });
    await context.addInitScript(countLocaleCalls);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));

    // A first visit in this zone: the zone is asked of Intl once, and kept with the offset.
    await page.goto(screens[0]!.path);
    await started(page);
    await expect.poll(() => zoneCookie(context)).toBe(`${ZONE}:${OFFSET}`);
    expect((await localeCalls(page)).some((call) => call.startsWith("Intl.DateTimeFormat()"))).toBe(true);

    for (const screen of screens) {
      await page.goto(screen.path);
      await started(page);
      expect(await localeCalls(page), `${screen.name} (${screen.path})`).toEqual([]);
    }
    expect(await zoneCookie(context)).toBe(`${ZONE}:${OFFSET}`);
    expect(errors).toEqual([]);
    await context.close();
  });
}

test("a zone kept at another offset, or without one (written before), is asked of Intl again and kept with the offset now", async ({
  browser,
  viewers,
}, testInfo) => {
  const { baseURL, viewport } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, viewport, timezoneId: ZONE, storageState: viewers.member });
  await context.addInitScript(countLocaleCalls);
  const page = await context.newPage();
  // Summer time in London, then a cookie from before the offset was kept.
  for (const kept of ["Europe/London:-60", ZONE]) {
    await context.addCookies([{ name: "tz", value: kept, url: baseURL! }]);
    await page.goto("/");
    await started(page);
    await expect.poll(() => zoneCookie(context), kept).toBe(`${ZONE}:${OFFSET}`);
    expect(
      (await localeCalls(page)).some((call) => call.startsWith("Intl.DateTimeFormat()")),
      kept,
    ).toBe(true);
  }
  await context.close();
});
