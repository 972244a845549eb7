import { expect, test } from "@playwright/test";
import { newOperator } from "../support/console";
import { signUpDirect } from "../support/emulator";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { screenshotsAtWidths, settled, signInOverHttp, uniqueEmail } from "./support";

// Monthly prizes in a browser, JavaScript on and off (issue 39, point 3; docs/decisions/097): the
// Leaderboard's prize table, the person's place and what the next prize takes, past winners; a
// finance operator pays a held prize in the console. On an app with its own Postgres (the demo
// settings: an offer's coins clear at once).
let app: PostgresApp;
let finance: { email: string; uid: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  app = await startPostgresApp();
  finance = await newOperator(app, "finance");
});
test.afterAll(() => app?.stop());

test("the Leaderboard shows the prizes, the person's place and past winners; finance pays a held prize", async ({
  browser,
  page,
  javaScriptEnabled,
}, testInfo) => {
  // Each run settles a month of its own, long past.
  const month = javaScriptEnabled ? "2021-03-01" : "2021-04-01";
  const email = uniqueEmail("prizes");
  const { localId } = await signUpDirect(email, "prizes-password");
  await signInOverHttp(page, email, "prizes-password", app.url);
  await app.sql("select record_postback('acme', $1, $2, 1500, false, 'Offer completed')", [
    `${localId}-offer`,
    localId,
  ]);
  // Second place of the settled month: unverified and new, so held for an operator.
  const heldId = `held${Date.now().toString(36)}${javaScriptEnabled ? "on" : "off"}`;
  await app.sql(
    `select provision_user(p_user_id => $1, p_email => $2, p_display_name => 'Held', p_email_verified => false,
                           p_identity_hash => $3)`,
    [heldId, uniqueEmail("prize-held"), `identity-${heldId}`],
  );
  for (const [uid, cleared] of [
    [localId, 80],
    [heldId, 40],
  ] as const)
    await app.sql("insert into monthly_earnings (user_id, month, amount, cleared) values ($1, $2, $3, $3)", [
      uid,
      month,
      cleared,
    ]);
  await app.sql("select record_email_verified($1)", [localId]);
  await app.sql("select close_prize_month($1)", [month]);

  await page.goto(`${app.url}/leaderboard`);
  if (javaScriptEnabled) await settled(page);
  const prizes = page.locator("#prizes");
  await expect(prizes.getByRole("heading", { name: "Monthly prizes" })).toBeVisible();
  await expect(prizes.getByTestId("prize-standing")).toContainText("with $15.00 cleared this month");
  await expect(prizes.getByRole("list", { name: "Prize for each place" }).getByRole("listitem")).toHaveCount(10);
  await expect(prizes.getByText("2,500 coins ($25.00)", { exact: true })).toBeVisible();
  await screenshotsAtWidths(page, "leaderboard-prizes", () => prizes.scrollIntoViewIfNeeded());
  const past = page.locator("section", { has: page.getByRole("heading", { name: "Past winners" }) });
  const monthName = javaScriptEnabled ? "March 2021" : "April 2021";
  const settledMonth = past.getByRole("region", { name: monthName });
  await expect(settledMonth.getByRole("listitem").first()).toContainText(`User${localId.slice(0, 4)}`);
  await expect(settledMonth.getByRole("listitem").first()).toContainText("2,500 coins");
  await expect(settledMonth.getByRole("listitem").nth(1)).toContainText("In review");
  await screenshotsAtWidths(page, "leaderboard-past-winners", () => past.scrollIntoViewIfNeeded());

  const console = await browser.newContext({ ...testInfo.project.use, javaScriptEnabled });
  const desk = await console.newPage();
  await signInOverHttp(desk, finance.email, "s3cret-pass", app.url);
  await desk.goto(`${app.url}/admin/prizes`);
  await expect(desk.getByRole("heading", { name: "Waiting for a decision" })).toBeVisible();
  await screenshotsAtWidths(desk, "console-prizes");
  const pay = desk.getByTestId("form-pay-prize").filter({ has: desk.locator(`input[name="month"][value="${month}"]`) });
  await pay.getByRole("button", { name: "Pay prize" }).click();
  await expect(pay.getByText("Write why, for the audit log")).toBeVisible();
  await pay.getByLabel("Reason").fill("Checked the offers with the network");
  await pay.getByRole("button", { name: "Pay prize" }).click();
  await expect(desk.getByText("Prize paid")).toBeVisible();
  const table = desk.getByRole("region", { name: `Prizes of ${monthName}` });
  await expect(table.getByText("Paid", { exact: true })).toHaveCount(2);
  await console.close();
});
