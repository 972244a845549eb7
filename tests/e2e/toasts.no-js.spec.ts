import { expect } from "@playwright/test";
import { coveredByToast, screenshot, test, verificationSentToast } from "./support";
import { SCREEN_SIZES } from "./coverage";

// Toasts without JavaScript (issue 36, docs/decisions/083): nothing can move the page clear of a
// toast docked on the bar, so a toast sits in the flow at the very top of the page, above the
// page's header, where it covers nothing; it gives its room back when it leaves.

test("without JavaScript a toast sits in the flow above the page's header at 320, 390 and 1280 px, over no control, and Dismiss gives its room back", async ({
  page,
  signedIn,
}) => {
  const toast = await verificationSentToast(page, signedIn, "toast-flow");
  const heading = page.getByRole("heading", { level: 1 });
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    expect(await toast.evaluate((element) => getComputedStyle(element).position)).toBe("relative");
    // It leaves by itself, giving its room back (display: none at the end of its seconds).
    expect(await toast.evaluate((element) => getComputedStyle(element).animationName)).toContain("toast-out-in-flow");
    const box = (await toast.boundingBox())!;
    const title = (await heading.boundingBox())!;
    expect(box.y + box.height, `the toast above the header at ${size.width} px`).toBeLessThanOrEqual(title.y);
    expect(await coveredByToast(page), `at ${size.width} px`).toEqual([]);
    await screenshot(page, `toast-in-flow-${size.width}`);
  }
  const headingBefore = (await heading.boundingBox())!.y;
  await toast.getByLabel("Dismiss").click();
  await expect(toast).toBeHidden();
  expect((await heading.boundingBox())!.y).toBeLessThan(headingBefore);
});
