import { expect, test, type Page } from "@playwright/test";
import { cashOutOf, newMember, newOperator } from "../support/console";
import { HttpClient } from "../support/http";
import { startPayPalStandIn, type PayPalStandIn } from "../support/paypal";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startSmtpStandIn, type SmtpStandIn } from "../support/smtp";
import { screenshot, settled, signInOverHttp } from "./support";

// The operator console's proof (issue 20), with JavaScript on and off, on an app of its own with
// Postgres, a local PayPal and a local SMTP server: a finance operator reviews a flagged withdrawal
// and refuses it, approves and pays a PayPal one, answers a ticket, and adjusts a balance that the
// audit log then shows.
test.describe.configure({ mode: "serial" });

let app: PostgresApp;
let paypal: PayPalStandIn;
let smtp: SmtpStandIn;
let finance: { email: string; uid: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  [paypal, smtp] = await Promise.all([startPayPalStandIn(), startSmtpStandIn()]);
  app = await startPostgresApp({
    ...paypal.env,
    SMTP_URL: smtp.url,
    EMAIL_FROM: "Rewards <support@rewards.example>",
    PUBLIC_URL: "https://rewards.example",
    NOTIFY_RETRY_SECONDS: "1",
  });
  // Production's review rule: a first cash-out waits for an operator.
  await app.sql("update app_config set review_first_withdrawal = true");
  finance = await newOperator(app, "finance");
});

test.afterAll(async () => {
  await app?.stop();
  await paypal?.close();
  await smtp?.close();
});

/** A verified member with `dollars` of bonus coins who asks to be paid `fields`: its account and withdrawal. */
const withdrawalOf = (
  dollars: number,
  fields: Record<string, string>,
  person?: Awaited<ReturnType<typeof newMember>>,
) => cashOutOf(app, dollars, fields, person);

async function openConsole(page: Page, path: string) {
  await signInOverHttp(page, finance.email, "s3cret-pass", app.url);
  await page.goto(new URL(path, app.url).href);
  // A filter chosen before the page is live changes nothing: wait for it (decision 101).
  await settled(page);
}

test("an operator reviews a flagged withdrawal, sees the account made on the same browser, and refuses it: the person gets the money back and the notice", async ({
  page,
}) => {
  const person = await newMember(app);
  const sameBrowser = new HttpClient(app.url);
  sameBrowser.cookies.set("hasSeenOnboarding", "true");
  sameBrowser.cookies.set("__device", person.client.cookies.get("__device")!);
  const aliasEmail = `alias.${Date.now().toString(36)}@example.com`;
  await sameBrowser.post("/auth?tab=signup", { intent: "signup", email: aliasEmail, password: "s3cret-pass" });
  const withdrawal = await withdrawalOf(
    6,
    { method: "upi", upiId: `flagged.${Date.now().toString(36)}@okaxis` },
    person,
  );

  await openConsole(page, "/admin/withdrawals");
  const row = page.getByTestId("withdrawal-row").filter({ hasText: person.email });
  await expect(row.getByText(/signed in on the same device as 1 other account/)).toBeVisible();
  await expect(row.getByRole("link", { name: aliasEmail })).toBeVisible();
  await row.getByRole("link", { name: /^Open/ }).click();
  await expect(page.getByTestId("withdrawal-stage")).toContainText("In review");
  await page.getByLabel("Reason (they see it)").fill("Same browser as another account asking for money");
  await page.getByRole("button", { name: "Refuse withdrawal" }).click();
  await expect(page.getByText("Withdrawal refused").first()).toBeVisible();
  await expect(page.getByTestId("withdrawal-stage")).toContainText("Refused");
  await screenshot(page, "console-withdrawal-refused");

  expect(await app.sql("select status, review_state from withdrawals where id = $1", [withdrawal.id])).toEqual([
    { status: "failed", review_state: "rejected" },
  ]);
  expect(await app.sql("select balance::float from user_balance where user_id = $1", [person.uid])).toEqual([
    { balance: 6 },
  ]);
  expect(
    await app.sql("select kind, data ->> 'reason' as reason from user_notices where user_id = $1", [person.uid]),
  ).toEqual([{ kind: "withdrawal_failed", reason: "Same browser as another account asking for money" }]);
});

test("an operator approves and pays a PayPal withdrawal: the local PayPal receives exactly one payout", async ({
  page,
}) => {
  const withdrawal = await withdrawalOf(7, {
    method: "paypal",
    paypalEmail: `paid.${Date.now().toString(36)}@example.com`,
  });
  await openConsole(page, `/admin/withdrawals/${withdrawal.id}`);
  await page.getByRole("button", { name: "Approve and pay with PayPal" }).click();
  await expect(page.getByText("1 payout sent to PayPal").first()).toBeVisible();
  await expect(page.getByTestId("withdrawal-stage")).toContainText("With PayPal");
  expect(paypal.payoutsMade(withdrawal.id)).toBe(1);
  // Nothing is left to press: paying twice is not on the page.
  await expect(page.getByRole("button", { name: /Approve|Pay with PayPal/ })).toHaveCount(0);
});

test("an operator answers a ticket: the person sees the reply and the local SMTP server receives it", async ({
  page,
}) => {
  const person = await newMember(app);
  await app.sql("select record_email_verified($1)", [person.uid]);
  await person.client.post("/profile?tab=help", {
    intent: "feedback",
    name: "Ana",
    email: person.email,
    message: `Where is my survey credit? (${person.email})`,
  });
  await openConsole(page, "/admin/support");
  await page.getByRole("link", { name: `Where is my survey credit? (${person.email})` }).click();
  await page.getByLabel("Reply", { exact: true }).fill("BitLabs screened you out of that survey, so it did not pay.");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByText("Reply sent").first()).toBeVisible();
  await expect(page.getByTestId("ticket-status")).toContainText("Waiting for them");
  // What was sent does not stay in the box to be sent twice.
  await expect(page.getByLabel("Reply", { exact: true })).toHaveValue("");
  await expect.poll(() => smtp.mailTo(person.email).length, { timeout: 15_000 }).toBe(1);
  expect(smtp.mailTo(person.email)[0]!.parsed.text).toContain(
    "BitLabs screened you out of that survey, so it did not pay.",
  );
  const help = await person.client.visit("/profile?tab=help");
  expect(help.html).toContain("BitLabs screened you out of that survey, so it did not pay.");
});

test("a missing-credit ticket is credited once, in coins: after Credit the offer the form is gone and the person sees the coins", async ({
  page,
}) => {
  const person = await newMember(app);
  // A report as My offers files it (the HTTP suite sends it through the page; this app has no wall on).
  const [report] = await app.sql<{ id: string }>(
    `insert into missing_credit_reports (user_id, network, offer_name, completed_on, details)
     values ($1, 'bitlabs', $2, current_date - 1, 'Finished it') returning id::text`,
    [person.uid, `Survey for ${person.uid}`],
  );
  const path = `/admin/support/missing-credit/${report!.id}`;
  await openConsole(page, path);
  const form = page.getByTestId("form-credit");
  await form.getByLabel("Coins").fill("400");
  await form.getByLabel("Reason (kept in the audit log)").fill("BitLabs confirmed it");
  await form.getByRole("button", { name: "Credit the offer" }).click();
  await expect(page.getByText("Credited 400 coins ($4.00)").first()).toBeVisible();
  await expect(page.getByTestId("form-credit")).toHaveCount(0);
  await expect(page.getByText("Credit of 400 coins ($4.00)")).toBeVisible();
  await screenshot(page, "console-ticket-credited");
  expect(
    await app.sql("select count(*)::int as n from balance_adjustments where missing_credit_report_id = $1", [
      report!.id,
    ]),
  ).toEqual([{ n: 1 }]);
  const offers = await person.client.visit("/earn/offers");
  expect(offers.html).toContain("400 coins credited");
});

test("a settings change that loosens a money rule waits for a second owner, who approves it from Settings", async ({
  page,
}) => {
  const [asker, approver] = [await newOperator(app, "owner"), await newOperator(app, "owner")];
  const [{ limit }] = (await app.sql<{ limit: string }>(
    "select adjustment_approval_above::text as limit from app_config",
  )) as [{ limit: string }];
  await signInOverHttp(page, asker.email, "s3cret-pass", app.url);
  await page.goto(new URL("/admin/settings", app.url).href);
  await page.getByLabel("Adjustments a second operator approves").fill("75");
  await page.getByLabel("Reason for the change").fill("Busy season");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Your change waits for a second owner").first()).toBeVisible();
  await expect(page.getByTestId("waiting-change")).toContainText("Busy season");
  // The one who asked has no Approve button; the value has not moved.
  await expect(page.getByTestId("waiting-change").getByRole("button", { name: "Approve and apply" })).toHaveCount(0);
  expect(await app.sql("select adjustment_approval_above::text as limit from app_config")).toEqual([{ limit }]);
  await screenshot(page, "console-settings-waiting");

  await page.context().clearCookies();
  await signInOverHttp(page, approver.email, "s3cret-pass", app.url);
  await page.goto(new URL("/admin/settings", app.url).href);
  await page.getByTestId("waiting-change").getByRole("button", { name: "Approve and apply" }).click();
  await expect(page.getByText("Change approved and applied").first()).toBeVisible();
  await expect(page.getByTestId("waiting-changes")).toHaveCount(0);
  expect(await app.sql("select adjustment_approval_above::float as limit from app_config")).toEqual([{ limit: 75 }]);
  await app.sql("update app_config set adjustment_approval_above = $1", [limit]);
});

test("an operator adjusts a balance and finds the entry in the audit log", async ({ page }) => {
  const person = await newMember(app);
  await openConsole(page, `/admin/people/${person.uid}`);
  const form = page.getByTestId("form-adjust");
  await form.getByLabel("Amount in dollars").fill("2.50");
  await form.getByLabel(/^Earned/).check();
  await form.getByLabel("Reason (kept in the audit log)").fill(`Missing BitLabs credit for ${person.uid}`);
  await form.getByRole("button", { name: "Adjust balance" }).click();
  await expect(page.getByText("Balance adjusted by $2.50").first()).toBeVisible();
  expect(await app.sql("select balance::float from user_balance where user_id = $1", [person.uid])).toEqual([
    { balance: 2.5 },
  ]);

  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Audit log" }).click();
  const entry = page.getByTestId("audit-entry").filter({ hasText: `Missing BitLabs credit for ${person.uid}` });
  await expect(entry).toContainText("adjust");
  await expect(entry).toContainText(finance.email);
  await screenshot(page, "console-audit-adjustment");
});

test("the withdrawal list filters by URL: with JavaScript a chosen method applies at once, without it the Show button applies it", async ({
  page,
  javaScriptEnabled,
}) => {
  await withdrawalOf(5, { method: "upi", upiId: `filter.${Date.now().toString(36)}@okaxis` });
  await openConsole(page, "/admin/withdrawals?view=all");
  await page.getByLabel("Method").selectOption("paypal");
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/[?&]method=paypal/);
  const rows = page.getByTestId("withdrawal-row");
  // The URL changes before the filtered list is drawn: wait for the UPI rows to go, then read the rest.
  await expect(rows.filter({ hasText: "UPI" })).toHaveCount(0);
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) await expect(row).toContainText("PayPal");
});
