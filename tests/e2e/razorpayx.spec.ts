import { expect, test } from "@playwright/test";
import { cashOutOf, newOperator } from "../support/console";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startRazorpayXStandIn, type RazorpayXStandIn } from "../support/razorpayx";
import { screenshot, signInOverHttp } from "./support";

// UPI paid by RazorpayX (issue 37, point 1; docs/decisions/088), with JavaScript on and off, on an
// app of its own with a local RazorpayX: a finance operator approves a first UPI cash-out in the
// console, RazorpayX is paid once, its signed webhook settles it, and the person reads "Paid" with
// the rupees and the bank's reference; a reversal gives the money back with a notice.
test.describe.configure({ mode: "serial" });

let app: PostgresApp;
let razorpayx: RazorpayXStandIn;
let finance: { email: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  razorpayx = await startRazorpayXStandIn();
  app = await startPostgresApp({ ...razorpayx.env, RAZORPAYX_INTERVAL_SECONDS: "1" });
  await app.sql("update app_config set review_first_withdrawal = true");
  await app.sql("select apply_app_config_patch('{\"usd_inr_rate\": 83.25}', 'Ana Owner', null, 'e2e')");
  finance = await newOperator(app, "finance");
});
test.afterAll(async () => {
  await app?.stop();
  await razorpayx?.close();
});

test("an operator approves a UPI cash-out, RazorpayX pays it once, and the person reads Paid with the rupees and the UTR", async ({
  page,
}) => {
  const person = await cashOutOf(app, 5, { method: "upi", upiId: "walk@okaxis" });
  expect(person.reviewState).toBe("review");
  await signInOverHttp(page, finance.email, "s3cret-pass", app.url);
  await page.goto(new URL(`/admin/withdrawals/${person.id}`, app.url).href);
  await expect(page.getByText("RazorpayX then pays ₹416.25 to walk@okaxis within a minute.")).toBeVisible();
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect.poll(() => razorpayx.payoutsFor(person.id).length).toBe(1);
  const [payout] = razorpayx.payoutsFor(person.id);
  await page.reload();
  await expect(page.getByTestId("withdrawal-stage")).toContainText("With RazorpayX");
  await expect(page.getByRole("button", { name: /Mark paid|Mark failed/ })).toHaveCount(0);
  await screenshot(page, "console-razorpayx-sending");

  const processed = razorpayx.advance(payout!.id, "processed");
  expect((await razorpayx.deliver(app.url, "payout.processed", processed)).status).toBe(200);
  await page.reload();
  await expect(page.getByTestId("withdrawal-stage")).toContainText("Paid");
  await expect(page.getByTestId("payout-event")).toHaveCount(2);
  await screenshot(page, "console-razorpayx-paid");

  await signInOverHttp(page, person.email, "s3cret-pass", app.url);
  await page.goto(new URL("/withdraw?history=1", app.url).href);
  const history = page.getByRole("dialog");
  await expect(history.getByTestId("money-state")).toHaveText(/^Paid /);
  await expect(history.getByText("₹416.25 sent")).toBeVisible();
  await expect(history.getByText(`Bank reference (UTR) ${processed.utr}`)).toBeVisible();
  await screenshot(page, "history-razorpayx-paid");
});

test("a reversed UPI payout gives the money back: the person reads it not paid and refunded, with the bank's reason in the history and a notice", async ({
  page,
}) => {
  await app.sql("update app_config set review_first_withdrawal = false");
  const person = await cashOutOf(app, 3, { method: "upi", upiId: "back@okaxis" });
  await expect.poll(() => razorpayx.payoutsFor(person.id).length).toBe(1);
  const [payout] = razorpayx.payoutsFor(person.id);
  const reversed = razorpayx.advance(payout!.id, "reversed", { description: "Beneficiary bank was offline." });
  expect((await razorpayx.deliver(app.url, "payout.reversed", reversed)).status).toBe(200);
  await signInOverHttp(page, person.email, "s3cret-pass", app.url);
  await page.goto(new URL("/withdraw?history=1", app.url).href);
  const history = page.getByRole("dialog");
  await expect(history.getByTestId("money-state")).toHaveText("Not paid — $3.00 refunded");
  await expect(history.getByText(/The bank returned the UPI payout: Beneficiary bank was offline\./)).toBeVisible();
  await page.goto(new URL("/notices", app.url).href);
  await expect(
    page.getByText("Your $3.00 UPI withdrawal could not be paid — $3.00 refunded to your balance."),
  ).toBeVisible();
});
