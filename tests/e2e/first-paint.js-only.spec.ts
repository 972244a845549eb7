import { expect, test } from "@playwright/test";

// The app's scripts are fetched only once the server's page is painted (docs/decisions/101): on a
// phone's few cores, fetching and parsing them while the page is laid out delayed its first paint.

test("the app's scripts are requested only after the page's first paint, and the page then comes alive (sign-in and legal pages)", async ({
  browser,
}, testInfo) => {
  const { baseURL, viewport } = testInfo.project.use;
  for (const path of ["/auth", "/legal"]) {
    // A new context each time: nothing comes from the cache.
    const context = await browser.newContext({ baseURL, viewport });
    await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: baseURL! }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(path, { waitUntil: "networkidle" });
    if (path === "/auth") {
      // Google sign-in is enabled once React has hydrated the page.
      await expect(page.getByRole("button", { name: "Continue with Google" })).toBeEnabled();
    } else {
      // A tab switches in the page (a client-side navigation) only once React has hydrated it.
      await page.evaluate(() => ((window as unknown as { __marked: boolean }).__marked = true));
      await page.getByRole("link", { name: "Privacy" }).first().click();
      await expect(page).toHaveURL(/tab=privacy/);
      expect(await page.evaluate(() => (window as unknown as { __marked?: boolean }).__marked)).toBe(true);
    }
    const timing = await page.evaluate(() => ({
      // When the main thread finished the first frame's rendering (the entry's start is when the
      // frame reached the screen, later, from another thread).
      firstPaint:
        (performance.getEntriesByName("first-paint")[0] as { paintTime?: number } | undefined)?.paintTime ?? null,
      scripts: performance
        .getEntriesByType("resource")
        .filter((entry) => /\/build\/.+\.js$/.test(new URL(entry.name).pathname))
        .map((entry) => ({ url: new URL(entry.name).pathname, start: entry.startTime })),
    }));
    expect(timing.firstPaint, path).not.toBeNull();
    expect(timing.scripts.length, path).toBeGreaterThan(3);
    for (const script of timing.scripts) {
      expect(script.start, `${path}: ${script.url} requested before the first paint`).toBeGreaterThanOrEqual(
        timing.firstPaint!,
      );
    }
    expect(errors, path).toEqual([]);
    await context.close();
  }
});
