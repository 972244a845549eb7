import { expect, type Page } from "@playwright/test";
import { test, verificationSentToast } from "./support";
import { SCREEN_SIZES } from "./coverage";

// The frame around every page: no overlay hides what the server rendered, toasts sit clear of the
// navigation and can be dismissed without JavaScript, and wide screens get a side bar.

/** Fixed elements that cover most of the screen (a dialog's backdrop aside), as the page is now. */
function screenCovers(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((element) => getComputedStyle(element).position === "fixed")
      .filter((element) => element.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width * box.height >= 0.5 * innerWidth * innerHeight;
      })
      .map((element) => element.outerHTML.slice(0, 120)),
  );
}

test("no overlay covers a page the server rendered, on the first load nor after a form's post", async ({
  page,
  signedIn,
}) => {
  await signedIn("shell-overlay");
  for (const path of ["/", "/earn", "/withdraw"]) {
    await page.goto(path, { waitUntil: "domcontentloaded" });
    expect(await screenCovers(page), path).toEqual([]);
  }
  await page.goto("/");
  const posted = page.waitForURL("/", { waitUntil: "domcontentloaded" });
  await page.getByRole("button", { name: /Check In Now/ }).click();
  await posted;
  expect(await screenCovers(page)).toEqual([]);
});

test("a toast covers neither the header, the bar nor the profile button at 320, 390 and 1280 px, and its Dismiss closes it (also without JavaScript)", async ({
  page,
  signedIn,
}) => {
  const toast = await verificationSentToast(page, signedIn, "shell-toast");
  // A toast leaves by itself six seconds after it is shown; the checks below may take longer on a
  // busy machine, so its leaving is held (once it is in place) until they are done.
  await toast.evaluate(async (element) => {
    const showing = element
      .getAnimations()
      .filter((animation) => (animation as CSSAnimation).animationName.startsWith("toast-show"));
    await Promise.all(showing.map((animation) => animation.finished));
    for (const animation of element.getAnimations()) animation.pause();
  });
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    const navigation = [
      page.getByRole("link", { name: "Back" }),
      page.getByRole("link", { name: "History" }),
      ...["Home", "Earn", "Refer", "Withdraw"].map((name) =>
        page.getByRole("navigation", { name: "Main" }).getByRole("link", { name }),
      ),
      // On a phone the bar's Profile cell is the round profile button; from 1024 px it floats beside the column.
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Profile" }),
      ...(size.width >= 1024 ? [page.locator('a.fixed[aria-label="Profile"]')] : []),
    ];
    for (const control of navigation) {
      const handle = await control.elementHandle();
      const clear = await handle!.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return hit !== null && (element === hit || element.contains(hit));
      });
      expect(clear, `${await control.evaluate((element) => element.outerHTML.slice(0, 80))} at ${size.width} px`).toBe(
        true,
      );
    }
  }
  await page.getByRole("group").filter({ hasText: "Verification email sent" }).getByLabel("Dismiss").click();
  await expect(toast).toBeHidden();
});

test("from 1024 px up the navigation is a side bar beside the column and the profile button sits outside the column; below, a bar at the bottom", async ({
  page,
  signedIn,
}) => {
  await signedIn("shell-wide");
  const nav = page.getByRole("navigation", { name: "Main" });
  const main = page.getByRole("main");
  const button = page.locator('a[aria-label="Profile"]');
  await page.setViewportSize({ width: 1280, height: 800 });
  const [navBox, mainBox, buttonBox] = [await nav.boundingBox(), await main.boundingBox(), await button.boundingBox()];
  expect(navBox!.x).toBe(0);
  expect(navBox!.height).toBe(800);
  expect(navBox!.x + navBox!.width).toBeLessThanOrEqual(mainBox!.x);
  expect(buttonBox!.x).toBeGreaterThanOrEqual(mainBox!.x + mainBox!.width);
  await page.setViewportSize({ width: 390, height: 844 });
  const phoneNav = await nav.boundingBox();
  expect(phoneNav!.width).toBe(390);
  expect(phoneNav!.y + phoneNav!.height).toBe(844);
});

test("at 1280 px the history sheet opens from the column's right edge and the task dialog is centred on the column", async ({
  page,
  signedIn,
}) => {
  await signedIn("shell-sheets");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/withdraw?history=1");
  const column = (await page.getByRole("main").boundingBox())!;
  const sheet = (await page.getByRole("dialog", { name: "Withdrawal History" }).boundingBox())!;
  // (Within the column's 1 px border.)
  expect(Math.abs(sheet.x + sheet.width - (column.x + column.width))).toBeLessThanOrEqual(1);
  await page.goto("/earn?task=task-001");
  const dialog = (await page.getByRole("dialog").boundingBox())!;
  expect(Math.abs(dialog.x + dialog.width / 2 - (column.x + column.width / 2))).toBeLessThanOrEqual(1);
});
