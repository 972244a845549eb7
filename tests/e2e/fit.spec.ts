import { expect, type Locator } from "@playwright/test";
import { test } from "./support";

// Labels and chips at the phone widths, with JavaScript on and off (issue 18, item 13).

/** On how many lines an element's text is laid out (the distinct tops of its text's boxes). */
function lines(locator: Locator) {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
  });
}

for (const width of [320, 390]) {
  test(`at ${width} px every Earn chip shows whole, at least 44 px tall, with nothing around it clipping its focus ring`, async ({
    page,
    signedIn,
  }) => {
    await page.setViewportSize({ width, height: 844 });
    await signedIn("fit-chips", "/earn");
    const chips = page.getByRole("navigation", { name: "Task types" }).getByRole("link");
    await expect(chips).toHaveText(["All", "Surveys", "Videos", "Apps", "Games"]);
    for (const chip of await chips.all()) {
      const box = (await chip.boundingBox())!;
      expect(box.x, await chip.innerText()).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, await chip.innerText()).toBeLessThanOrEqual(width);
      expect(box.height).toBeGreaterThanOrEqual(44);
      const clippers = await chip.evaluate((element) => {
        const found: string[] = [];
        for (let parent = element.parentElement; parent; parent = parent.parentElement) {
          const style = getComputedStyle(parent);
          if (style.overflowX !== "visible" || style.overflowY !== "visible") found.push(parent.tagName);
        }
        return found.filter((tag) => tag !== "HTML" && tag !== "BODY");
      });
      expect(clippers).toEqual([]);
    }
  });
}

test("at 390 px the Profile tabs and the Personal Information heading each stay on one line", async ({
  page,
  signedIn,
}) => {
  await signedIn("fit-tabs", "/profile");
  for (const name of ["My Account", "Referrals", "Help & Support"]) {
    expect(
      await lines(page.getByRole("navigation", { name: "Profile sections" }).getByRole("link", { name })),
      name,
    ).toBe(1);
  }
  expect(await lines(page.getByRole("heading", { name: "Personal Information" }))).toBe(1);
});

test('at 320 px a 50-character name shows whole in the Profile header, "\'s Profile" right after it and the Settings gear beside it', async ({
  page,
  signedIn,
  baseURL,
}) => {
  await page.setViewportSize({ width: 320, height: 568 });
  await signedIn("fit-name");
  const name = "Bartholomew Maximilian Featherstonehaugh-Ramsburys";
  expect(name).toHaveLength(50);
  const saved = await page.request.post("/profile", {
    form: { intent: "update-name", displayName: name },
    headers: { origin: new URL(baseURL!).origin, "sec-fetch-site": "same-origin" },
    maxRedirects: 0,
  });
  expect(saved.status()).toBe(302);
  await page.goto("/profile");
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(`${name}'s Profile`);
  // Nothing cut: the heading and every part of it fit their boxes, and the heading ends before the gear.
  const cut = await heading.evaluate(
    (element) =>
      [element, ...element.querySelectorAll("*")].filter((part) => part.scrollWidth > part.clientWidth).length,
  );
  expect(cut).toBe(0);
  const [headingBox, gearBox] = [
    await heading.boundingBox(),
    await page.getByRole("link", { name: "Settings" }).boundingBox(),
  ];
  expect(headingBox!.x + headingBox!.width).toBeLessThanOrEqual(gearBox!.x);
  expect(gearBox!.width).toBeGreaterThanOrEqual(40);
});
