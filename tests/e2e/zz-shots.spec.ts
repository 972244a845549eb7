import { test } from "./support";

const WIDTHS = [320, 390, 1280];
test("shots", async ({ page, signedIn, javaScriptEnabled }) => {
  test.setTimeout(180_000);
  await signedIn("shots");
  const js = javaScriptEnabled ? "js" : "nojs";
  const shoot = async (name: string) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === 1280 ? 800 : width === 320 ? 568 : 844 });
      await page.waitForTimeout(500);
      await page.screenshot({ path: `/work/notes/screens/shell/${name}-${js}-${width}.png` });
    }
  };
  await page.goto("/");
  await page.getByRole("button", { name: /Check In Now/ }).click();
  await page.waitForTimeout(300);
  await shoot("home-flash");
  await page.waitForTimeout(6500);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await shoot("home-bottom");
  await page.goto("/withdraw?history=1");
  await shoot("history");
  await page.goto("/withdraw");
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await shoot("withdraw-bottom");
  await page.goto("/referral");
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await shoot("referral-bottom");
  await page.goto("/earn");
  await shoot("earn");
});
