import { expect, test } from "@playwright/test";
import { cashOutOf, newOperator } from "../support/console";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { screenshot, screenshotsAtWidths, signInOverHttp } from "./support";

// An appeal before any ban (issue 38, point 4; docs/decisions/090), with JavaScript on and off, on an
// app of its own: a person whose cash-out was refused asks for a review from the history; a support
// operator finds it first in the inbox, shares a reason and answers; the person reads both in Help &
// Support and answers back.
test.describe.configure({ mode: "serial" });

let app: PostgresApp;
let support: { email: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  app = await startPostgresApp();
  await app.sql("update app_config set review_first_withdrawal = true");
  support = await newOperator(app, "support");
});
test.afterAll(async () => {
  await app?.stop();
});

test("a refused cash-out is appealed from the history, answered first in the console with a reason shared, and the person reads both", async ({
  page,
}) => {
  const person = await cashOutOf(app, 5, { method: "paypal", paypalEmail: "walk@example.com" });
  await app.sql("select reject_withdrawal($1, 'Signals shared with other accounts', 'Sam Support')", [person.id]);
  await signInOverHttp(page, person.email, "s3cret-pass", app.url);
  await page.goto(new URL("/withdraw?history=1", app.url).href);
  await page.getByRole("dialog").getByRole("link", { name: "Ask for a review" }).click();
  await expect(page.getByRole("heading", { name: "Ask for a review of this cash-out" })).toBeVisible();
  // Nothing written: the field says so, and nothing is sent.
  await page.getByRole("button", { name: "Ask for a review" }).click();
  await expect(page.getByText("Please write your answer")).toBeVisible();
  await page.getByLabel("What should we know?").fill("These are my surveys, done on my own phone.");
  await screenshotsAtWidths(page, "appeal-form");
  await page.getByRole("button", { name: "Ask for a review" }).click();
  await expect(page.getByText("Review requested")).toBeVisible();
  await expect(page.getByRole("heading", { name: /Review of your \$5\.00 cash-out of / })).toBeVisible();

  await signInOverHttp(page, support.email, "s3cret-pass", app.url);
  await page.goto(new URL("/admin/support", app.url).href);
  await screenshotsAtWidths(page, "console-inbox-appeals");
  const appeals = page.getByRole("table", { name: "Appeals" });
  await appeals.getByRole("link", { name: "These are my surveys, done on my own phone." }).click();
  await expect(page.getByRole("heading", { name: /Appeal: cash-out refused #/ })).toBeVisible();
  await page.getByRole("checkbox", { name: /account made/ }).check();
  await page.getByRole("button", { name: "Save what they see" }).click();
  await expect(page.getByText("1 reason(s) shown to them")).toBeVisible();
  await page.getByLabel("Reply", { exact: true }).fill("We looked again: the account is new. Tell us more.");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByText("Reply sent")).toBeVisible();
  await screenshot(page, "console-appeal");

  await signInOverHttp(page, person.email, "s3cret-pass", app.url);
  await page.goto(new URL("/profile?tab=help", app.url).href);
  const conversation = page.getByTestId("conversation").filter({ hasText: "Review of your $5.00 cash-out" });
  await expect(conversation.getByTestId("appeal-reasons")).toContainText(/account made/);
  await expect(conversation.getByText("We looked again: the account is new. Tell us more.")).toBeVisible();
  await screenshotsAtWidths(page, "help-appeal-answered", () => conversation.scrollIntoViewIfNeeded());
});
