import { expect, test, type Page } from "@playwright/test";

// Lighthouse's Cumulative Layout Shift, measured by the browser itself (the Layout Instability
// API) from the first paint until the page has come alive.

/** Loads `path` and returns every layout shift of the load, once React runs the page and the network is quiet. */
async function shiftsWhileLoading(page: Page, path: string): Promise<number[]> {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { __shifts: number[] }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto(path, { waitUntil: "networkidle" });
  // Google sign-in is enabled once the page is hydrated.
  await expect(page.getByRole("button", { name: "Continue with Google" })).toBeEnabled();
  return page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts);
}

test("the centred sign-in and sign-up screens never move while they load and come alive (five loads each)", async ({
  browser,
}, testInfo) => {
  for (const path of ["/auth", "/auth?tab=signup"]) {
    for (let load = 0; load < 5; load += 1) {
      // A new context each time: nothing comes from the cache.
      const { baseURL, viewport } = testInfo.project.use;
      const context = await browser.newContext({ baseURL, viewport });
      await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: baseURL! }]);
      const shifts = await shiftsWhileLoading(await context.newPage(), path);
      expect(shifts, `${path}, load ${load + 1}`).toEqual([]);
      await context.close();
    }
  }
});
