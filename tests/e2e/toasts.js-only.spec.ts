import { expect, type Page } from "@playwright/test";
import { waitForHydration } from "./profile-support";
import { test } from "./support";

// Toasts (issue 36): one at a time, docked on the bottom bar, never over the header, the bar or a
// control in sight; a dismissed one makes way for the next at once. Their six seconds are held
// still here (the page's animations paused), so the checks do not race the clock.

/**
 * Holds the toasts as they stand once the first slot's has come in and before any leaves: each
 * animation paused at a set time (not at whatever moment a busy machine reaches this line).
 */
const pauseAnimations = (page: Page) =>
  page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      animation.pause();
      const name = (animation as CSSAnimation).animationName;
      const delay = Number(animation.effect?.getTiming().delay ?? 0);
      // The first slot's toast fully shown; a later slot's still waiting; none leaving yet.
      if (name === "toast-show") animation.currentTime = delay === 0 ? 200 : 0;
      if (name === "toast-out") animation.currentTime = 0;
    }
  });

for (const width of [320, 390]) {
  test(`at ${width} px two toasts show one at a time, on the bar and over nothing, and the second shows once the first is dismissed`, async ({
    page,
    signedIn,
  }) => {
    await page.setViewportSize({ width, height: width === 320 ? 568 : 844 });
    await signedIn(`toasts-${width}`, "/profile");
    await waitForHydration(page);
    const marketing = page.getByRole("switch", { name: /^Marketing/ });
    const toasts = page.getByTestId("flash");
    await marketing.click();
    await expect(toasts).toHaveCount(1);
    await pauseAnimations(page);
    await marketing.click();
    await expect(toasts).toHaveCount(2);
    await pauseAnimations(page);
    await expect(toasts.nth(0)).toBeVisible();
    await expect(toasts.nth(1)).toBeHidden();

    // On the bar: its foot just above the bar's top, nothing of it over the bar or the header.
    const bar = (await page.getByRole("navigation", { name: "Main" }).boundingBox())!;
    const toast = (await toasts.nth(0).boundingBox())!;
    expect(toast.y + toast.height).toBeLessThanOrEqual(bar.y);
    expect(toast.y + toast.height).toBeGreaterThanOrEqual(bar.y - 16);
    const header = (await page.getByRole("heading", { level: 1 }).boundingBox())!;
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    expect(toast.y).toBeGreaterThan(header.y + header.height);

    await toasts.nth(0).getByLabel("Dismiss").click();
    await expect(toasts).toHaveCount(1);
    await expect(toasts.first()).toBeVisible();
  });
}

for (const width of [320, 390]) {
  test(`at ${width} px a toast that comes in over the control just used moves the page so that the control sits above it`, async ({
    page,
    signedIn,
  }) => {
    await page.setViewportSize({ width, height: width === 320 ? 568 : 844 });
    await signedIn(`toast-clear-${width}`, "/profile");
    await waitForHydration(page);
    // The sign-in's own toast closed first: nothing covers the page before the switch is used.
    const toasts = page.getByTestId("flash");
    for (const open of await toasts.all()) await open.getByLabel("Dismiss").click();
    await expect(toasts).toHaveCount(0);
    const marketing = page.getByRole("switch", { name: /^Marketing/ });
    const bar = (await page.getByRole("navigation", { name: "Main" }).boundingBox())!;
    // The switch just above the bar, where a toast comes in.
    await marketing.evaluate((element, barTop) => {
      window.scrollBy({ top: element.getBoundingClientRect().bottom - (barTop - 12), behavior: "instant" });
    }, bar.y);
    const before = (await marketing.boundingBox())!;
    expect(before.y + before.height, "the switch lies where the toast comes in").toBeGreaterThan(bar.y - 40);
    await marketing.click();
    const toast = toasts.first();
    await expect(toast).toBeVisible();
    // Its six seconds held: it stays however busy the machine is (its entrance runs, and moves the page).
    await page.evaluate(() => {
      for (const animation of document.getAnimations())
        if ((animation as CSSAnimation).animationName === "toast-out") animation.pause();
    });
    await expect
      .poll(async () => {
        const [control, over] = await Promise.all([marketing.boundingBox(), toast.boundingBox()]);
        return control !== null && over !== null && control.y + control.height <= over.y;
      })
      .toBe(true);
  });
}
