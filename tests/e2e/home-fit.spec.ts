import { expect, test } from "@playwright/test";
import { signUpDirect } from "../support/emulator";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { signInOverHttp, uniqueEmail } from "./support";

// Home at the phone widths, with JavaScript on and off (issue 18, item 13): the section links are
// thumb-sized, and a large amount stays inside its tile. On an app with its own Postgres, so the
// account's total can be set.
let app: PostgresApp;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  app = await startPostgresApp();
});
test.afterAll(() => app?.stop());

for (const width of [320, 390]) {
  test(`at ${width} px, View All and See All are at least 44 px tall, and $40,000,000.00 stays inside the Total Earned tile`, async ({
    page,
  }) => {
    const email = uniqueEmail("fit");
    const { localId } = await signUpDirect(email, "fit-password");
    await page.setViewportSize({ width, height: 900 });
    await signInOverHttp(page, email, "fit-password", app.url);
    await app.sql(
      "update user_balance set balance = 40000000, total_earned = 40000000, earned_total = 0 where user_id = $1",
      [localId],
    );
    await page.goto(`${app.url}/`);
    await expect(page.getByTestId("total-earned")).toHaveText("$40,000,000.00");

    for (const name of ["View All", "See All"]) {
      const box = (await page.getByRole("link", { name, exact: true }).boundingBox())!;
      expect(box.height, name).toBeGreaterThanOrEqual(44);
    }
    const value = (await page.getByTestId("total-earned").boundingBox())!;
    const tile = (await page.getByTestId("total-earned").locator("..").boundingBox())!;
    expect(value.x + value.width).toBeLessThanOrEqual(tile.x + tile.width);
  });
}
