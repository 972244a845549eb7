import { expect, test } from "@playwright/test";
import { signUpDirect } from "../support/emulator";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { screenshot, screenshotsAtWidths, settled, signInOverHttp, uniqueEmail } from "./support";

// Levels and daily goals in a browser, JavaScript on and off (issue 39; docs/decisions/094): Home's
// level card and today's goals, claiming a goal and a level's bonus, and the Levels page. On an app
// with its own Postgres (the demo settings: an offer's coins clear at once) so the test can record
// an offer's postback and fix the day's goals.
const THREE_GOALS = [
  { id: "check-in", kind: "checkin", target: 1, bonus_coins: 5 },
  { id: "earn-100", kind: "earn_coins", target: 100, bonus_coins: 10 },
  { id: "one-offer", kind: "complete_offer", target: 1, bonus_coins: 10 },
];

let app: PostgresApp;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  app = await startPostgresApp();
  await app.sql("update app_config set daily_goals = $1", [JSON.stringify(THREE_GOALS)]);
});
test.afterAll(() => app?.stop());

test("Home shows the level and today's goals; a done goal and a level's bonus are claimed; the Levels page lists every level", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = uniqueEmail("levels");
  const { localId } = await signUpDirect(email, "levels-password");
  await signInOverHttp(page, email, "levels-password", app.url);
  if (javaScriptEnabled) await settled(page);

  // A new account's first step (docs/decisions/096), until its first offer pays.
  const firstStep = page.locator("section", { has: page.getByRole("heading", { name: "Your first step" }) });
  await expect(firstStep.getByText("Your first offer can pay up to 250 coins ($2.50).")).toBeVisible();
  await screenshotsAtWidths(page, "home-first-step", () => firstStep.scrollIntoViewIfNeeded());
  const levelCard = page.locator("section", { has: page.getByRole("heading", { name: "Your level" }) });
  await expect(levelCard.getByTestId("level-name")).toHaveText("Bronze");
  await expect(levelCard.getByTestId("level-to-next")).toHaveText("500 XP to Silver");
  const goals = page.getByTestId("daily-goals");
  await expect(goals.getByText("Check in today")).toBeVisible();
  await expect(goals.getByText("Earn 100 coins from offers")).toBeVisible();
  await expect(goals.getByText("Complete an offer")).toBeVisible();
  await expect(goals.getByRole("button", { name: "Claim" })).toHaveCount(0);

  await page.getByRole("button", { name: "Check In Now (+10 coins)" }).click();
  await expect(page.getByText("Checked in!", { exact: true })).toBeVisible();
  await goals.getByRole("button", { name: "Claim" }).click();
  await expect(page.getByText("Goal bonus claimed")).toBeVisible();
  await expect(page.getByText("You got 5 coins ($0.05) for today's goal — available to withdraw.")).toBeVisible();
  await expect(goals.getByText("Claimed", { exact: true })).toBeVisible();

  // An offer network pays 600 coins (the demo settings clear it at once): 600 XP, Silver.
  await app.sql("select record_postback('acme', $1, $2, 600, false, 'Offer completed')", [`${localId}-offer`, localId]);
  await page.reload();
  await expect(levelCard.getByTestId("level-name")).toHaveText("Silver");
  await expect(firstStep).toHaveCount(0);
  await expect(levelCard.getByTestId("level-xp")).toHaveText("600 XP");
  await expect(goals.getByRole("button", { name: "Claim" })).toHaveCount(2);
  await screenshotsAtWidths(page, "home-level-and-goals", () => levelCard.scrollIntoViewIfNeeded());
  await levelCard.getByRole("button", { name: "Claim 25 coins ($0.25)" }).click();
  await expect(page.getByText("Level bonus claimed")).toBeVisible();
  await expect(page.getByText("You got 25 coins ($0.25) for reaching Silver — available to withdraw.")).toBeVisible();
  await expect(levelCard.getByRole("button", { name: /Claim/ })).toHaveCount(0);
  await screenshot(page, "home-level-claimed");

  await levelCard.getByRole("link", { name: "See levels" }).click();
  await expect(page.getByRole("heading", { name: "Levels" })).toBeVisible();
  const current = page.locator('li[aria-current="step"]');
  await expect(current).toContainText("Level 2 · Silver");
  await expect(current).toContainText("Bonus claimed");
  await expect(page.getByText("A 150-coin level-up bonus ($1.50)")).toBeVisible();
  await expect(page.getByText("1% of every paid cash-out back")).toBeVisible();
  await screenshotsAtWidths(page, "levels");
});
