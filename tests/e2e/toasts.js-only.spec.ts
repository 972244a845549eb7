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

/** Two frames later: what the toasts do when they show (makeRoom) has been done. */
const nextFrames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

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
    // The toast has made room (the page may have moved): the next tap finds the switch where it now is.
    await nextFrames(page);
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

/** The controls of the page's content (and its balance card), as the toasts' code counts them. */
const CONTROLS =
  "main :is(a[href], button, input:not([type='hidden']), select, textarea, summary, [role='switch'], [tabindex='0'], [aria-labelledby='balance-heading'])";

/** Holds the shown toasts' six seconds: they stay however busy the machine is. */
const holdToastExits = (page: Page) =>
  page.evaluate(() => {
    for (const animation of document.getAnimations())
      if ((animation as CSSAnimation).animationName === "toast-out") animation.pause();
  });

/**
 * The controls that lay in sight, wholly or partly above the dock's top, where the first toast
 * now sits, as the page stood when it came in (`scrolledThen`), measured on the page as it is now:
 * each one's lowest point that was in sight, and the toast's top.
 */
const inSightUnderToast = (page: Page, scrolledThen: number) =>
  page.evaluate(
    ({ selector, then }) => {
      const toast = document.querySelector("#toasts > details[open]")!.getBoundingClientRect();
      const dockTop = document.getElementById("toasts")!.getBoundingClientRect().top;
      const moved = window.scrollY - then;
      return {
        toastTop: toast.top,
        moved,
        lowestInSight: [...document.querySelectorAll(selector)]
          .map((element) => {
            const box = element.getBoundingClientRect();
            const [topThen, bottomThen] = [box.top + moved, box.bottom + moved];
            const underToastThen =
              box.height > 0 &&
              topThen >= 0 &&
              topThen < dockTop &&
              bottomThen > toast.top &&
              box.right > toast.left &&
              box.left < toast.right;
            return underToastThen
              ? {
                  name: element.getAttribute("aria-label") ?? element.textContent?.trim().slice(0, 30),
                  bottom: Math.min(bottomThen, dockTop) - moved,
                }
              : null;
          })
          .filter((control) => control !== null),
      };
    },
    { selector: CONTROLS, then: scrolledThen },
  );

for (const width of [320, 390]) {
  test(`at ${width} px a toast answering a control moves the page so that every other control that was in sight under it sits above it`, async ({
    page,
    signedIn,
  }) => {
    await page.setViewportSize({ width, height: width === 320 ? 568 : 844 });
    await signedIn(`toast-room-${width}`, "/profile");
    // Opened again: the sign-up's toast has been read, so nothing covers the page before the switch is used.
    await page.goto("/profile");
    await waitForHydration(page);
    const toasts = page.getByTestId("flash");
    await expect(toasts).toHaveCount(0);
    const marketing = page.getByRole("switch", { name: /^Marketing/ });
    const bar = (await page.getByRole("navigation", { name: "Main" }).boundingBox())!;
    // The switch well up the screen, and a control further down lying just above the bar, where a
    // toast comes in: not the control used.
    const below = await marketing.evaluate(
      (switchElement, { barTop, selector }) => {
        const switchBottom = switchElement.getBoundingClientRect().bottom;
        const next = [...document.querySelectorAll(selector)].find(
          (element) =>
            element.getBoundingClientRect().height > 0 && element.getBoundingClientRect().top > switchBottom + 120,
        );
        if (!next) return null;
        window.scrollBy({ top: next.getBoundingClientRect().bottom - (barTop - 12), behavior: "instant" });
        return next.getAttribute("aria-label") ?? next.textContent?.trim().slice(0, 30) ?? "";
      },
      { barTop: bar.y, selector: CONTROLS },
    );
    expect(below, "a control lies further down the page than the switch").not.toBeNull();
    const scrolledThen = await page.evaluate(() => window.scrollY);
    expect((await marketing.boundingBox())!.y, "the switch is in sight").toBeGreaterThan(0);
    await marketing.click();
    await expect(toasts.first()).toBeVisible();
    // Its entrance runs, and moves the page.
    await holdToastExits(page);
    await expect
      .poll(async () => {
        const { toastTop, lowestInSight } = await inSightUnderToast(page, scrolledThen);
        if (!lowestInSight.some((control) => control.name === below)) return [`${below} was not under the toast`];
        return lowestInSight.filter((control) => control.bottom > toastTop + 0.5).map((control) => control.name);
      }, "the controls that were in sight under the toast and still are")
      .toEqual([]);
  });
}

for (const width of [320, 390]) {
  test(`at ${width} px a page that opens with a toast moves so that every control in sight under it at load sits above it`, async ({
    page,
    signedIn,
  }) => {
    await page.setViewportSize({ width, height: width === 320 ? 568 : 844 });
    // Profile (its switches reach the bar at both widths) opens with the sign-up's toast, at the
    // top of the page.
    await signedIn(`toast-load-${width}`, "/profile");
    await expect(page.getByTestId("flash").first()).toBeVisible();
    await holdToastExits(page);
    await expect
      .poll(async () => {
        const { toastTop, moved, lowestInSight } = await inSightUnderToast(page, 0);
        if (lowestInSight.length === 0) return ["no control was under the toast at load"];
        const covered = lowestInSight
          .filter((control) => control.bottom > toastTop + 0.5)
          .map((control) => control.name);
        return moved > 0 ? covered : ["the page has not moved", ...covered];
      }, "the controls in sight under the toast at load that still are")
      .toEqual([]);
  });
}
